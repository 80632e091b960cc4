package dev.meshbench.maven;

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
}
