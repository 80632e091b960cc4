package dev.meshbench.orchestrator.lifetime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.RunStatus;
import dev.meshbench.results.io.ResultsJson;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An orchestrator killed with SIGKILL leaves nothing behind: its watchdog ends its processes (children of children
 * included) and deletes its work folder at once; if the watchdog was killed too, the next run's sweep does it, says
 * what it removed, and marks the run abandoned.
 */
class LifelineTest {
    /** Generous: these wait for an event (a process gone, a folder deleted), they do not time anything. */
    private static final long DEADLINE_MS = 60_000;

    @TempDir
    Path tmp;
    @TempDir
    Path results;

    @BeforeEach
    void linuxOnly() {
        Assumptions.assumeTrue(Files.isExecutable(Lifeline.SETSID) && Files.isExecutable(Lifeline.SETPRIV)
                && Files.isDirectory(Path.of("/proc/self")), "needs util-linux's setsid and setpriv, and /proc");
    }

    private record Owner(Process jvm, Path work, long watchdog, List<ProcessHandle> processes) {
    }

    private Owner startOwner() throws Exception {
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), KilledOwnerMain.class.getName(),
                results.resolve("run-1").toString()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("READY ")) {
            // SLF4J's notices and the like
        }
        assertTrue(line != null, "the owner printed no READY line");
        String[] f = line.split(" ");
        Path work = Path.of(f[1]);
        List<ProcessHandle> processes = new ArrayList<>();
        for (Path ledger : List.of(work, results.resolve("run-1"))) {
            for (String g : Files.readAllLines(ledger.resolve(Leftovers.GROUPS_FILE))) {
                processes.addAll(Leftovers.members(Long.parseLong(g.split(" ")[0])));
            }
        }
        // sh with its two sleeps, and the lone sleep standing for JMeter
        assertEquals(4, processes.size(), "processes in the recorded groups: " + processes);
        return new Owner(jvm, work, Long.parseLong(f[2]), processes);
    }

    private static void awaitGone(List<ProcessHandle> processes, Path folder) throws InterruptedException {
        long end = System.currentTimeMillis() + DEADLINE_MS;
        while (System.currentTimeMillis() < end && (processes.stream().anyMatch(ProcessHandle::isAlive) || Files.exists(folder))) {
            Thread.sleep(100);
        }
    }

    @Test
    @DisplayName("kill -9 of the owner: every process it started, its children too, ends and its work folder with the keys goes")
    void watchdogCleansUp() throws Exception {
        Owner o = startOwner();
        assertTrue(Files.exists(o.work().resolve("pki/mesh-ca.key")));
        o.jvm().destroyForcibly();
        assertTrue(o.jvm().waitFor(30, TimeUnit.SECONDS));
        awaitGone(o.processes(), o.work());
        assertEquals(List.of(), o.processes().stream().filter(ProcessHandle::isAlive).toList(), "processes still alive");
        assertFalse(Files.exists(o.work()), "work folder " + o.work() + " still there");

        // The run folder is not the watchdog's: the next run finds it running with a dead owner and says so.
        List<String> said = Leftovers.sweep(tmp, results);
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).startsWith("run 20261127-000000-sni (" + results.resolve("run-1") + ") was left running by a "
                + "process that is gone: marked failed, abandoned: the process that ran it (pid " + o.jvm().pid()), said.get(0));
        var in = ResultsJson.readRunInputs(results.resolve("run-1/run.json"));
        assertEquals(RunStatus.FAILED, in.status());
        assertTrue(in.failureReason().startsWith(Leftovers.ABANDONED), in.failureReason());
        assertEquals(List.of(), Leftovers.sweep(tmp, results), "a second sweep finds nothing");
    }

    @Test
    @DisplayName("kill -9 of the owner and its watchdog: the next run ends the orphans, removes keys and folder, and says so")
    void nextRunSweeps() throws Exception {
        Owner o = startOwner();
        ProcessHandle.of(o.watchdog()).orElseThrow().destroyForcibly();
        o.jvm().destroyForcibly();
        assertTrue(o.jvm().waitFor(30, TimeUnit.SECONDS));
        // The kernel ends the processes the owner started itself; the leader's children are orphans, as nginx's workers.
        long end = System.currentTimeMillis() + DEADLINE_MS;
        while (System.currentTimeMillis() < end && o.processes().stream().filter(ProcessHandle::isAlive).count() > 2) {
            Thread.sleep(100);
        }
        List<ProcessHandle> orphans = o.processes().stream().filter(ProcessHandle::isAlive).toList();
        assertEquals(2, orphans.size(), "the leader's two children outlive it: " + orphans);
        assertTrue(Files.exists(o.work().resolve("pki/mesh-ca.key")), "nobody cleaned up yet");

        List<String> said = Leftovers.sweep(tmp, results);
        assertEquals(2, said.size(), said.toString());
        assertTrue(said.get(0).startsWith("removed what a killed run left (its process, pid " + o.jvm().pid()), said.get(0));
        assertTrue(said.get(0).contains("ended 2 processes (sleep "), said.get(0));
        assertTrue(said.get(0).contains("2 key files and the work folder " + o.work()), said.get(0));
        assertTrue(said.get(1).contains("abandoned: "), said.get(1));
        awaitGone(orphans, o.work());
        assertEquals(List.of(), orphans.stream().filter(ProcessHandle::isAlive).toList());
        assertFalse(Files.exists(o.work()));
    }

    @Test
    @DisplayName("a live owner's folders are left alone")
    void liveOwnerUntouched() throws Exception {
        Owner o = startOwner();
        try {
            assertEquals(List.of(), Leftovers.sweep(tmp, results));
            assertTrue(Files.exists(o.work().resolve("pki/mesh-ca.key")));
            assertTrue(o.processes().stream().allMatch(ProcessHandle::isAlive));
            assertEquals(RunStatus.RUNNING, ResultsJson.readRunInputs(results.resolve("run-1/run.json")).status());
        } finally {
            o.jvm().destroyForcibly();
            o.jvm().waitFor(30, TimeUnit.SECONDS);
            awaitGone(o.processes(), o.work());
        }
    }
}
