package dev.meshbench.maven;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.maven.execution.DefaultMavenExecutionRequest;
import org.apache.maven.execution.DefaultMavenExecutionResult;
import org.apache.maven.execution.MavenExecutionRequest;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.project.MavenProject;

/** A project and a session as Maven hands them to a mojo, with the properties a test chooses, and no container. */
final class Builds {
    /** The checkout (its istio-config/ holds the latency graphs); set by surefire, {@code ..} when run from the IDE. */
    static final Path ROOT = Path.of(System.getProperty("meshbench.repositoryRoot", "..")).toAbsolutePath().normalize();

    private Builds() {
    }

    /** A project whose POM (and active profiles) define {@code properties}. */
    static MavenProject project(Map<String, String> properties) {
        MavenProject project = new MavenProject();
        project.setGroupId("dev.meshbench");
        project.setArtifactId("runs-test");
        project.setVersion("0.1.0-TEST");
        project.getProperties().putAll(properties);
        return project;
    }

    /** A session with JVM system properties ({@code MAVEN_OPTS}, {@code System.setProperty}) and user properties ({@code -D}). */
    static MavenSession session(Map<String, String> system, Map<String, String> user) {
        MavenExecutionRequest request = new DefaultMavenExecutionRequest();
        request.setSystemProperties(properties(system));
        request.setUserProperties(properties(user));
        return new MavenSession(null, (org.eclipse.aether.RepositorySystemSession) null, request, new DefaultMavenExecutionResult());
    }

    private static Properties properties(Map<String, String> m) {
        Properties p = new Properties();
        p.putAll(m);
        return p;
    }
}
