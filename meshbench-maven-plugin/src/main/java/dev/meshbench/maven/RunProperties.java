package dev.meshbench.maven;

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
        Map<String, String> p = new HashMap<>(props);
        p.put(RunSettings.P_CASES, caseId);
        return RunSettings.fromProperties(p, RunSettings.study(props), projectRoot.resolve(RunSettings.DEFAULT_RESULTS_DIR));
    }
}
