package dev.meshbench.orchestrator.local;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.orchestrator.lifetime.Lifeline;
import dev.meshbench.orchestrator.deploy.Component;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A component process started by the {@link ProcessSupervisor}. Its stdout and stderr go, merged, to
 * {@code <logDir>/<name>.log}; the last lines are kept to explain a failure; its ready line completes
 * {@link #ready()}. Its stdin stays open: components started with {@code --exit-on-stdin-eof} exit when this
 * JVM dies, however it dies.
 */
public final class ManagedProcess {
    private static final Logger LOG = LoggerFactory.getLogger(ManagedProcess.class);
    private static final int TAIL_LINES = 200;
    /** Lines of a log that say something went wrong, in the words Java, Envoy, nginx and MongoDB use. */
    private static final java.util.regex.Pattern TROUBLE = java.util.regex.Pattern.compile(
            "(?i)(\\b(error|fatal|critical|panic|emerg|alert|severe|refused|failed|denied)\\b|exception\\b|caused by|outofmemory"
                    + "|address already in use)");
    /** How much of one quoted log line a message carries. */
    private static final int QUOTE_CHARS = 240;
    /** Longest wait in {@link #deathNotice()} for a dead process's last lines to be read. */
    static final long OUTPUT_DRAIN_MILLIS = 2000;

    private final Component component;
    private final Process process;
    private final Path logFile;
    private final CompletableFuture<ReadyLine> ready = new CompletableFuture<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private final Thread pump;
    private volatile boolean stopping;

    ManagedProcess(Component component, Process process, Path logFile) {
        this.component = component;
        this.process = process;
        this.logFile = logFile;
        this.pump = new Thread(this::pumpOutput, "output-" + component.name());
        this.pump.setDaemon(true);
        this.pump.start();
    }

    public Component component() {
        return component;
    }

    public long pid() {
        return process.pid();
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    public Path logFile() {
        return logFile;
    }

    /** Completes with the ready line, or exceptionally when the process exits first. */
    public CompletableFuture<ReadyLine> ready() {
        return ready;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Exit code, if it has exited. */
    public Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** True once {@link #stop} was called: an exit after that is expected. */
    boolean stopping() {
        return stopping;
    }

    /** The last lines the process printed, for error messages. */
    public List<String> tail() {
        synchronized (tail) {
            return List.copyOf(tail);
        }
    }

    /**
     * Why it ended, for a person: {@code exited with code 1}, or for an exit by signal (the JDK reports 128 + the
     * signal's number) {@code was killed by signal SIGKILL (exit status 137: ...)} with what usually sends it.
     */
    static String exitDescription(int code) {
        return dev.meshbench.orchestrator.lifetime.ExitStatus.describe(code);
    }

    /**
     * What its log says about its end: the last few lines that report an error (not its ready line, not a stack
     * frame), each cut to a readable length. When there are none: after an exit of its own, its last line; after a
     * signal, nothing more (its last line, a start-up notice or a routine log line, would only mislead).
     */
    String logEvidence() {
        List<String> lines = tail();
        List<String> trouble = new java.util.ArrayList<>();
        for (String line : lines) {
            String l = line.trim();
            if (!l.isEmpty() && !l.startsWith("at ") && ReadyLine.parse(l).isEmpty() && TROUBLE.matcher(l).find()) {
                trouble.add(quote(l));
            }
        }
        if (!trouble.isEmpty()) {
            List<String> last = trouble.subList(Math.max(0, trouble.size() - 3), trouble.size());
            return "its log says: " + String.join(" | ", last);
        }
        Integer code = exitCode();
        if (code != null && code > 128 && code <= 128 + 64) {
            return "its log reports no error";
        }
        String last = lastWords();
        return last.equals("(no output)") ? "its log reports no error and nothing after it started"
                : "its log reports no error (last line: " + quote(last) + ")";
    }

    private static String quote(String line) {
        return line.length() <= QUOTE_CHARS ? line : line.substring(0, QUOTE_CHARS) + "... (" + line.length() + " characters)";
    }

    /**
     * One line on how it died: name, pid, exit explained, what its log says, where the log is. Once it has exited,
     * first waits (at most {@value #OUTPUT_DRAIN_MILLIS} ms) until its last output has been read: the kernel reports
     * the exit while the lines it printed just before may still wait in the pipe for the pump thread.
     */
    String deathNotice() {
        Integer code = exitCode();
        if (code != null) {
            awaitOutputEnd();
        }
        return component.name() + " (pid " + pid() + ") " + (code == null ? "is not running" : exitDescription(code)) + "; "
                + logEvidence() + " (log: " + logFile + ")";
    }

    /** The last line the process printed that looks like its own words (not a stack frame, not its ready line). */
    String lastWords() {
        List<String> lines = tail();
        for (int i = lines.size() - 1; i >= 0; i--) {
            String l = lines.get(i).trim();
            if (!l.isEmpty() && !l.startsWith("at ") && !l.startsWith("...") && ReadyLine.parse(l).isEmpty()) {
                return l;
            }
        }
        return "(no output)";
    }

    /**
     * Stops the process: SIGTERM (so it can close its ports and flush), then SIGKILL after {@code grace}; its
     * child processes too.
     */
    void stop(long graceMillis) {
        stopping = true;
        List<ProcessHandle> children = process.descendants().toList();
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // the pipe may already be broken
        }
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
                LOG.warn("{} (pid {}) did not stop within {} ms, killing it", component.name(), pid(), graceMillis);
                process.destroyForcibly();
                process.waitFor(graceMillis, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        if (!process.isAlive()) {
            Lifeline.endGroup(process);
            Lifeline.released(process);
        }
        try {
            pump.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until the pump has read the output to its end (it ends when the process and anything it left holding the
     * pipe are gone), at most {@value #OUTPUT_DRAIN_MILLIS} ms: an orphaned child keeping the pipe open must not hold
     * up the report.
     */
    private void awaitOutputEnd() {
        try {
            pump.join(OUTPUT_DRAIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void pumpOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                Writer log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                log.write(line);
                log.write('\n');
                log.flush();
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
                if (!ready.isDone()) {
                    ReadyLine.parse(line).ifPresent(ready::complete);
                }
            }
        } catch (IOException e) {
            LOG.debug("output of {} ended: {}", component.name(), e.toString());
        }
        try {
            int code = process.waitFor();
            if (!ready.isDone()) {
                ready.completeExceptionally(new IllegalStateException(
                        component.name() + " " + exitDescription(code) + " before it was ready; " + logEvidence()
                                + " (log: " + logFile + ")"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
