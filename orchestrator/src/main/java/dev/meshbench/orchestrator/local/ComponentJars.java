package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.deploy.TargetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The runnable jars the local target starts, one process per component, as a cluster runs one container per
 * component.
 *
 * @param java            the java executable (the one running this JVM unless told otherwise)
 * @param embeddedMongo   {@code embedded-mongo.jar}
 * @param acmeairServices {@code acmeair-services.jar}
 * @param dataplane       {@code dataplane.jar}
 */
public record ComponentJars(Path java, Path embeddedMongo, Path acmeairServices, Path dataplane) {

    /** The jars as the build leaves them under a checkout's module {@code target/} folders. */
    public static ComponentJars inBuildTree(Path projectRoot) {
        Path root = projectRoot.toAbsolutePath().normalize();
        ComponentJars jars = new ComponentJars(Path.of(System.getProperty("java.home"), "bin", "java"),
                root.resolve("embedded-mongo/target/embedded-mongo.jar"),
                root.resolve("acmeair-services/target/acmeair-services.jar"),
                root.resolve("dataplane/target/dataplane.jar"));
        jars.check();
        return jars;
    }

    /** Fails naming every missing jar, and how to build it. */
    public void check() {
        List<String> missing = new ArrayList<>();
        for (Path p : List.of(embeddedMongo, acmeairServices, dataplane)) {
            if (!Files.isRegularFile(p)) {
                missing.add(p.toString());
            }
        }
        if (!missing.isEmpty()) {
            throw new TargetException("component jars not found: " + String.join(", ", missing)
                    + "; build them first with: mvn -B package -DskipTests");
        }
    }

    /**
     * Copies the jars into {@code dir} and returns jars pointing there, so a rebuild during a long run (which
     * replaces the jars under target/) cannot pull classes from under running components.
     */
    public ComponentJars copyTo(Path dir) {
        try {
            Files.createDirectories(dir);
            return new ComponentJars(java, copy(embeddedMongo, dir), copy(acmeairServices, dir), copy(dataplane, dir));
        } catch (IOException e) {
            throw new TargetException("copying component jars into " + dir + " failed: " + e.getMessage(), e);
        }
    }

    private static Path copy(Path jar, Path dir) throws IOException {
        return Files.copy(jar, dir.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }

    /** {@code java <jvm options> -jar <jar>}, to which a component's arguments are appended. */
    List<String> javaJar(Path jar, List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        cmd.addAll(jvmOptions);
        cmd.add("-jar");
        cmd.add(jar.toString());
        return cmd;
    }
}
