package dev.meshbench.jmeter.workload;

import dev.meshbench.model.SittingControl;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a sitting's control file ({@link SittingControl}) for every thread of the plan: the file is looked at (its
 * modification time and size) at most every {@link #RECHECK_NANOS}, and parsed again only when it changed, so a
 * sample costs at most a clock read. A rewrite that cannot be read keeps the last good values, said once in the log;
 * the kit replaces the file whole (a move), so that only happens when someone else writes it.
 */
public final class SittingControlReader {
    private static final Logger LOG = LoggerFactory.getLogger(SittingControlReader.class);
    /** How often the file is looked at: the kit's changes take effect within this. */
    static final long RECHECK_NANOS = 50_000_000L;
    private static final ConcurrentHashMap<Path, SittingControlReader> READERS = new ConcurrentHashMap<>();

    private final Path file;
    private final java.util.function.LongSupplier clock;
    private volatile SittingControl current;
    private volatile long checkedNanos;
    private volatile long seenModified = Long.MIN_VALUE;
    private volatile long seenSize = -1;
    private volatile Object seenKey;
    private volatile String lastProblem;

    SittingControlReader(Path file, java.util.function.LongSupplier clock) {
        this.file = file;
        this.clock = clock;
    }

    /**
     * The reader of the control file the JMeter property {@link SittingControl#PROPERTY} names, shared by every thread;
     * empty when the property is not set (the plan is not in its sitting mode).
     *
     * @throws InvalidWorkloadPropertyException when the property is not a path, or the file cannot be read or is not a control file
     */
    public static Optional<SittingControlReader> fromProperties(Properties props) throws InvalidWorkloadPropertyException {
        String name = props.getProperty(SittingControl.PROPERTY);
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        Path path;
        try {
            path = Path.of(name.trim()).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new InvalidWorkloadPropertyException(SittingControl.PROPERTY, name, "is not a path: " + e.getMessage());
        }
        SittingControlReader r = READERS.computeIfAbsent(path, p -> new SittingControlReader(p, System::nanoTime));
        if (r.current == null) {
            try {
                r.reload();
            } catch (IllegalArgumentException | IOException e) {
                throw new InvalidWorkloadPropertyException(SittingControl.PROPERTY, name, e.getMessage());
            }
        }
        return Optional.of(r);
    }

    /** Forgets every reader (a new test run reads its control file afresh). */
    public static void reset() {
        READERS.clear();
    }

    /** Whether the plan runs in its sitting mode: the property names a control file. */
    public static boolean sitting(Properties props) {
        String name = props.getProperty(SittingControl.PROPERTY);
        return name != null && !name.isBlank();
    }

    /** The control now: the file again if it changed since it was last looked at, at most every {@link #RECHECK_NANOS}. */
    public SittingControl current() {
        long now = clock.getAsLong();
        if (current == null || now - checkedNanos >= RECHECK_NANOS) {
            checkedNanos = now;
            try {
                reload();
            } catch (IllegalArgumentException | IOException e) {
                String problem = e.getMessage();
                if (!problem.equals(lastProblem)) {
                    LOG.warn("{}: {}; keeping phase={} rate={} stop={}", file, problem, current == null ? "?" : current.phase(),
                            current == null ? "?" : current.rate(), current == null ? "?" : current.stop());
                    lastProblem = problem;
                }
                if (current == null) {
                    throw new IllegalStateException(file + ": " + problem, e);
                }
            }
        }
        return current;
    }

    /** Parses the file if it changed (time, size or file); throws naming the file and the problem. */
    synchronized void reload() throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            throw new IOException(file + " cannot be read: " + e.getMessage(), e);
        }
        long modified = a.lastModifiedTime().toMillis();
        // the kit moves a new file over the old one: a new inode (fileKey) even within the same millisecond and size
        if (current != null && modified == seenModified && a.size() == seenSize && java.util.Objects.equals(a.fileKey(), seenKey)) {
            return;
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        }
        try {
            current = SittingControl.of(p);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
        seenModified = modified;
        seenSize = a.size();
        seenKey = a.fileKey();
        lastProblem = null;
    }
}
