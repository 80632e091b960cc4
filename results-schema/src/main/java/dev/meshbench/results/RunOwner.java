package dev.meshbench.results;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.Properties;

/**
 * The process that runs a run (or owns a private work folder): written as {@link #FILE} into the folder when it is
 * made, so that a later run, or the report, can tell a run that is still going from one whose process was killed
 * and left it {@code running} for ever. The process start time guards against a reused process id.
 *
 * @param pid          the owning process
 * @param processStart when that process started, as the operating system says
 * @param host         the machine it ran on: a folder shared between machines cannot be judged from another
 */
public record RunOwner(long pid, Instant processStart, String host) {
    /** The file in a run folder or work folder. */
    public static final String FILE = "run.owner";
    /** How far two readings of one process's start time may differ (the kernel counts in clock ticks). */
    private static final Duration START_TOLERANCE = Duration.ofSeconds(1);

    /** What can be said of an owner now. */
    public enum State {
        /** Its process is alive: the run is going on. */
        ALIVE,
        /** Its process is gone (or the id belongs to a later process): the run was abandoned. */
        GONE,
        /** It ran on another machine: nothing can be said from here. */
        ELSEWHERE
    }

    public RunOwner {
        Checks.present("processStart", processStart);
        Checks.present("host", host);
    }

    /** This JVM. */
    public static RunOwner ofThisProcess() {
        ProcessHandle self = ProcessHandle.current();
        return new RunOwner(self.pid(), self.info().startInstant().orElse(Instant.EPOCH), hostName());
    }

    /** Writes {@link #FILE} into {@code folder}. */
    public void writeTo(Path folder) throws IOException {
        Properties p = new Properties();
        p.setProperty("pid", Long.toString(pid));
        p.setProperty("processStart", processStart.toString());
        p.setProperty("host", host);
        try (Writer w = Files.newBufferedWriter(folder.resolve(FILE), StandardCharsets.UTF_8)) {
            p.store(w, "the process that owns this folder (meshbench)");
        }
    }

    /** The owner recorded in {@code folder}, if {@link #FILE} is there and readable. */
    public static Optional<RunOwner> readFrom(Path folder) {
        Path f = folder.resolve(FILE);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            p.load(r);
            return Optional.of(new RunOwner(Long.parseLong(p.getProperty("pid", "").trim()),
                    Instant.parse(p.getProperty("processStart", "").trim()), p.getProperty("host", "").trim()));
        } catch (IOException | DateTimeParseException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Whether the owner still runs, judged on this machine. */
    public State state() {
        if (!host.equals(hostName())) {
            return State.ELSEWHERE;
        }
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty() || !h.get().isAlive()) {
            return State.GONE;
        }
        Optional<Instant> start = h.get().info().startInstant();
        if (start.isPresent() && !Instant.EPOCH.equals(processStart)
                && Duration.between(start.get(), processStart).abs().compareTo(START_TOLERANCE) > 0) {
            return State.GONE; // the id now names a later process
        }
        return State.ALIVE;
    }

    /** For a person: {@code pid 1234 on host h, started 2026-11-27T05:40:00Z}. */
    public String describe() {
        return "pid " + pid + " on " + host + ", started " + processStart.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    }

    private static volatile String thisHost;

    private static String hostName() {
        String h = thisHost;
        if (h == null) {
            h = lookUpHostName();
            thisHost = h;
        }
        return h;
    }

    private static String lookUpHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env == null || env.isBlank() ? "localhost" : env;
        }
    }
}
