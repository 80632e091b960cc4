package dev.meshbench.orchestrator.lifetime;

import dev.meshbench.results.RunOwner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The private folders of a deployment (its keys, certificates and copied jars) under the temporary directory:
 * named {@code meshbench-*}, marked with their owner ({@link RunOwner#FILE}) so that {@link Leftovers} can tell
 * a killed run's folder from a live one, and guarded by the {@link Lifeline} watchdog.
 */
public final class WorkFolders {
    private static final Logger LOG = LoggerFactory.getLogger(WorkFolders.class);
    /** What every work folder's name starts with. */
    public static final String PREFIX = "meshbench-";

    private WorkFolders() {
    }

    /** Creates {@code <tmp>/meshbench-<what>-<random>}, owned by this process and deleted by the watchdog if it dies. */
    public static Path create(String what) throws IOException {
        Path dir = Files.createTempDirectory(PREFIX + what + "-");
        RunOwner.ofThisProcess().writeTo(dir);
        Lifeline.guardFolder(dir);
        return dir;
    }

    /** Whether {@code p} holds private key material: deleted first, so a failed deletion leaves no key behind. */
    static boolean isKey(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".key") || n.endsWith(".pem") || n.endsWith(".p12") || n.endsWith(".jks");
    }

    /**
     * Deletes a folder and everything in it, key files first; best effort, logging what could not be deleted.
     *
     * @return how many key files were deleted
     */
    public static int delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return 0;
        }
        int keys = 0;
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.filter(Files::isRegularFile).filter(WorkFolders::isKey).toList()) {
                try {
                    Files.deleteIfExists(p);
                    keys++;
                } catch (IOException e) {
                    LOG.warn("could not delete key file {}: {}", p, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.warn("could not list {}: {}", dir, e.toString());
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            List<Path> all = paths.sorted(Comparator.reverseOrder()).toList();
            for (Path p : all) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.warn("could not delete {}: {}", p, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.warn("could not delete work folder {}: {}", dir, e.toString());
        }
        return keys;
    }

    /** Bytes in the regular files under {@code dir}. */
    static long size(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            return 0;
        }
    }
}
