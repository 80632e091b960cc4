package dev.meshbench.maven;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.run.EgressRunSettings;
import dev.meshbench.orchestrator.run.RunSettings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.project.MavenProject;

/** Reads {@code meshbench.*} properties the way Maven users expect: {@code -D} wins over the POM and profiles. */
final class RunProperties {
    private RunProperties() {
    }

    static Map<String, String> collect(MavenProject project, MavenSession session) {
        Map<String, String> out = new HashMap<>();
        copy(project.getProperties(), out);
        copy(session.getSystemProperties(), out);
        copy(session.getUserProperties(), out);
        return out;
    }

    private static void copy(Properties from, Map<String, String> to) {
        for (String name : from.stringPropertyNames()) {
            if (name.startsWith("meshbench.")) {
                to.put(name, from.getProperty(name));
            }
        }
    }

    /** {@code 10} for 10.0, {@code 2.5} for 2.5: a number as a user typed it. */
    static String plain(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** The run configuration for one case, with results kept under the checkout (not under target/). */
    static RunSettings config(Map<String, String> props, String caseId, Path projectRoot) {
        return RunSettings.fromProperties(withCases(props, caseId), Catalogue.STUDY.value(props),
                projectRoot.resolve(Catalogue.RESULTS_DIR_DEFAULT));
    }

    /** Everything an egress run of this module's cases needs, validated, with results kept under the checkout. */
    static EgressRunSettings egressRun(Map<String, String> props, String caseId, Path projectRoot) {
        return EgressRunSettings.fromProperties(withCases(props, caseId), projectRoot.resolve(Catalogue.RESULTS_DIR_DEFAULT));
    }

    private static Map<String, String> withCases(Map<String, String> props, String caseId) {
        Map<String, String> p = new HashMap<>(props);
        p.put(Catalogue.CASES.name(), caseId);
        return p;
    }
}
