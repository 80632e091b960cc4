package dev.meshbench.orchestrator.lifetime;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ties every process the kit starts, and every private folder it makes, to this JVM, however the JVM ends: a normal
 * exit, Ctrl-C, or {@code kill -9} of the orchestrator, {@code mvn} or {@code meshbench.jar}.
 *
 * <ul>
 *   <li>Each process is started in its own process group ({@code setsid}), so its children (nginx's workers under
 *       their master) can be ended together, and a Ctrl-C in the terminal reaches only the kit, which stops them in
 *       order.</li>
 *   <li>Each process gets SIGKILL from the kernel when the thread that started it ends ({@code setpriv
 *       --pdeathsig KILL}). That thread is one long-lived spawner thread of this JVM, so this means: when the JVM
 *       ends.</li>
 *   <li>A watchdog ({@code sh}, in its own session so that signals sent to the kit's terminal or process group do
 *       not reach it) reads this JVM's pipe. When the pipe closes (the JVM is gone, whatever ended it) it sends
 *       SIGTERM and then SIGKILL to every process group still registered (catching the nginx workers the kernel's
 *       signal misses), deletes every registered folder, key files first, and removes every registered cgroup
 *       (its component groups first).</li>
 * </ul>
 * Where {@code setsid}, {@code setpriv} or {@code sh} are missing (not Linux), processes start as before, and
 * {@link Leftovers} cleans up after a killed run at the next start.
 *
 * <p>Written here rather than taken from a library: the JDK cannot set a child's process group or parent-death
 * signal, and the tools that can (util-linux's {@code setsid}/{@code setpriv}, a POSIX shell) are what this class
 * drives; nothing on Maven Central does this for arbitrary child processes.
 */
public final class Lifeline {
    private static final Logger LOG = LoggerFactory.getLogger(Lifeline.class);
    static final Path SETSID = Path.of("/usr/bin/setsid");
    static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    static final Path SH = Path.of("/bin/sh");
    /** Looked up once: whether processes get their own group, and the kernel's parent-death signal. */
    private static final boolean GROUPS = Files.isExecutable(SETSID);
    private static final boolean PDEATHSIG = Files.isExecutable(SETPRIV);

    /**
     * The watchdog: records {@code group PID} / {@code release PID} / {@code folder PATH} / {@code cgroup PATH} lines
     * until its stdin ends, then ends what is still registered. It ignores the signals a terminal or a group kill
     * would send the kit. A cgroup's component groups are removed once their processes have ended (any still listed
     * are killed; retried for a few seconds), then the cgroup, then its parent if that is empty.
     */
    static final String WATCHDOG = """
            trap '' INT TERM HUP QUIT PIPE
            groups=' '
            folders=''
            cgroups=''
            while IFS= read -r line; do
              case $line in
                'group '*) groups="$groups${line#group } " ;;
                'release '*) g=${line#release }; rest=' '
                  for x in $groups; do [ "$x" = "$g" ] || rest="$rest$x "; done
                  groups=$rest ;;
                'folder '*) folders="$folders${line#folder }
            " ;;
                'cgroup '*) cgroups="$cgroups${line#cgroup } " ;;
              esac
            done
            for g in $groups; do kill -TERM -"$g" 2>/dev/null; done
            [ "$groups" = ' ' ] || sleep 2
            for g in $groups; do kill -KILL -"$g" 2>/dev/null; done
            printf '%s' "$folders" | while IFS= read -r d; do
              [ -n "$d" ] && [ -d "$d" ] || continue
              find "$d" -type f \\( -name '*.key' -o -name '*.pem' -o -name '*.p12' -o -name '*.jks' \\) -exec rm -f {} + 2>/dev/null
              rm -rf "$d"
            done
            for c in $cgroups; do
              for i in 1 2 3 4 5; do
                for g in "$c"/*/; do
                  [ -d "$g" ] || continue
                  for p in $(cat "$g"cgroup.procs 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
                  rmdir "$g" 2>/dev/null
                done
                rmdir "$c" 2>/dev/null || [ ! -d "$c" ] && break
                sleep 1
              done
              rmdir "${c%/*}" 2>/dev/null
            done
            """;

    /** One thread starts every process: {@code --pdeathsig} fires when the starting thread ends, so it must live on. */
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "meshbench-spawner");
        t.setDaemon(true);
        return t;
    });

    private static Process watchdog;
    private static OutputStream pipe;
    private static boolean watchdogFailed;

    private Lifeline() {
    }

    /**
     * The prefix that puts a command in its own process group, ended by the kernel with this JVM: {@code setsid
     * setpriv --pdeathsig KILL --} where those exist, less what is missing.
     */
    public static List<String> prefix() {
        List<String> p = new ArrayList<>();
        if (GROUPS) {
            p.add(SETSID.toString());
        }
        if (PDEATHSIG) {
            p.addAll(List.of(SETPRIV.toString(), "--pdeathsig", "KILL", "--"));
        }
        return p;
    }

    /**
     * Starts {@code pb}'s command under {@link #prefix()} from the spawner thread and registers its process group
     * with the watchdog and, when {@code ledger} is given, in that folder's {@value Leftovers#GROUPS_FILE} for
     * {@link Leftovers}. Call {@link #released} once the process has been stopped.
     */
    public static Process start(ProcessBuilder pb, Path ledger) throws IOException {
        String name = pb.command().isEmpty() ? "(no command)" : pb.command().get(0);
        List<String> cmd = new ArrayList<>(prefix());
        cmd.addAll(pb.command());
        pb.command(cmd);
        Process p;
        try {
            p = SPAWNER.submit(pb::start).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting " + name);
        }
        if (GROUPS) {
            tell("group " + p.pid());
            if (ledger != null) {
                Leftovers.recordGroup(ledger, p.toHandle());
            }
        }
        return p;
    }

    /**
     * Ends every process still in {@code p}'s group ({@code p} is its leader when started here): a child whose parent
     * died first (nginx's workers when their master was killed from outside) is nobody's descendant any more, but
     * stays in the group. Call once {@code p} has ended; then {@link #released}.
     */
    public static void endGroup(Process p) {
        if (!GROUPS || p.isAlive()) {
            return;
        }
        for (ProcessHandle member : Leftovers.members(p.pid())) {
            LOG.debug("ending {} (pid {}), left in the process group of {}", member.info().command().orElse("?"), member.pid(), p.pid());
            member.destroyForcibly();
        }
    }

    /** Forgets the process group of {@code p} (stopped by the kit): its number may be reused by someone else's. */
    public static void released(Process p) {
        if (GROUPS) {
            tell("release " + p.pid());
        }
    }

    /** Has the watchdog delete {@code folder} (key files first) if this JVM ends before the kit deletes it itself. */
    public static void guardFolder(Path folder) {
        String path = folder.toAbsolutePath().toString();
        if (path.contains("\n")) {
            LOG.warn("folder {} has a line break in its name: the watchdog cannot delete it", folder);
            return;
        }
        tell("folder " + path);
    }

    /**
     * Has the watchdog remove cgroup {@code group} and the groups in it if this JVM ends before the kit removes them
     * itself (a path with white space cannot be passed and is left to {@link Leftovers}).
     */
    public static void guardCgroup(Path group) {
        String path = group.toAbsolutePath().toString();
        if (path.chars().anyMatch(Character::isWhitespace)) {
            LOG.debug("cgroup {} has white space in its name: left to the next run's sweep", group);
            return;
        }
        tell("cgroup " + path);
    }

    /** Whether a watchdog is running for this JVM (false where {@code sh} is missing or could not start). */
    public static synchronized boolean watching() {
        return watchdog != null && watchdog.isAlive();
    }

    /** Whether {@code p} is this JVM's watchdog: a child that lives as long as the JVM, on purpose. */
    public static synchronized boolean isWatchdog(ProcessHandle p) {
        return watchdog != null && watchdog.pid() == p.pid();
    }

    /** The watchdog's pid, for tests that end the JVM and the watchdog together. */
    static synchronized long watchdogPid() {
        return watchdog == null ? -1 : watchdog.pid();
    }

    private static synchronized void tell(String line) {
        if (!ensureWatchdog()) {
            return;
        }
        try {
            pipe.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            pipe.flush();
        } catch (IOException e) {
            LOG.warn("the watchdog that ends the kit's processes if it is killed stopped listening: {}", e.toString());
            watchdogFailed = true;
        }
    }

    private static boolean ensureWatchdog() {
        if (watchdog != null && watchdog.isAlive()) {
            return true;
        }
        if (watchdogFailed || !Files.isExecutable(SH)) {
            return false;
        }
        List<String> cmd = new ArrayList<>();
        if (GROUPS) {
            cmd.add(SETSID.toString());
        }
        cmd.addAll(List.of(SH.toString(), "-c", WATCHDOG, "meshbench-watchdog"));
        try {
            // Not from the spawner and not under --pdeathsig: it must outlive this JVM to clean up after it.
            watchdog = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            pipe = watchdog.getOutputStream();
            LOG.debug("watchdog started (pid {})", watchdog.pid());
            return true;
        } catch (IOException e) {
            LOG.warn("starting the watchdog that ends the kit's processes if it is killed failed: {}", e.toString());
            watchdogFailed = true;
            return false;
        }
    }
}
