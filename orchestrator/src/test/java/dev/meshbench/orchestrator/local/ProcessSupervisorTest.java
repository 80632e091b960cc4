package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.orchestrator.deploy.TargetException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessSupervisorTest {
    @TempDir
    Path dir;

    static ProcessSpec fake(String name, String mode) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                FakeComponentMain.class.getName(), mode, name, "--exit-on-stdin-eof"));
        return new ProcessSpec(new Component(name, ComponentRole.MESH), cmd);
    }

    @Test
    @DisplayName("starts a component, returns its ready line, and frees process and port on close")
    void startAndClose() throws Exception {
        ManagedProcess p;
        int port;
        try (ProcessSupervisor s = new ProcessSupervisor(dir, Duration.ofSeconds(5))) {
            ReadyLine ready = s.start(fake("sidecar-x", "ready"), Duration.ofSeconds(30));
            assertEquals("sidecar-x", ready.component());
            port = Integer.parseInt(ready.get("address").orElseThrow().split(":")[1]);
            try (Socket c = new Socket(InetAddress.getLoopbackAddress(), port)) {
                assertTrue(c.isConnected());
            }
            p = s.processes().get(0);
            assertTrue(p.isAlive());
            assertTrue(s.deadComponent().isEmpty());
        }
        assertFalse(p.isAlive(), "process must be gone after close");
        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertEquals(port, again.getLocalPort(), "port must be free after close");
        }
        assertTrue(Files.readString(dir.resolve("sidecar-x.log")).contains("MESHBENCH-READY component=sidecar-x"));
    }

    @Test
    @DisplayName("a component that exits before it is ready fails the start with its own last words")
    void crashBeforeReady() {
        try (ProcessSupervisor s = new ProcessSupervisor(dir, Duration.ofSeconds(5))) {
            TargetException e = assertThrows(TargetException.class, () -> s.start(fake("mongo", "crash"), Duration.ofSeconds(30)));
            assertTrue(e.getMessage().startsWith("starting mongo failed: mongo exited with code 2"), e.getMessage());
            assertTrue(e.getMessage().contains("Address already in use"), e.getMessage());
        }
    }

    @Test
    @DisplayName("a polled readiness check passes once it finds nothing missing, and one that never does fails saying what was missing")
    void polledReadiness() {
        try (ProcessSupervisor s = new ProcessSupervisor(dir, Duration.ofSeconds(5))) {
            java.util.concurrent.atomic.AtomicInteger looks = new java.util.concurrent.atomic.AtomicInteger();
            ProcessSpec hang = fake("sidecar-y", "hang");
            ReadyLine ready = s.start(new ProcessSpec(hang.component(), hang.command(), new ProcessSpec.Readiness.Polled("127.0.0.1:1", "config-v1",
                    () -> looks.incrementAndGet() < 3 ? java.util.Optional.of("not yet") : java.util.Optional.empty())), Duration.ofSeconds(30));
            assertEquals("config-v1", ready.get("ready").orElseThrow());
            assertEquals(3, looks.get());

            ProcessSpec never = fake("sidecar-z", "hang");
            TargetException e = assertThrows(TargetException.class, () -> s.start(new ProcessSpec(never.component(), never.command(),
                    new ProcessSpec.Readiness.Polled("127.0.0.1:1", "config-v2", () -> java.util.Optional.of("its listeners are version v1"))),
                    Duration.ofSeconds(2)));
            assertTrue(e.getMessage().contains("sidecar-z") && e.getMessage().contains("not ready after 2 s (its listeners are version v1)"),
                    e.getMessage());
            assertFalse(s.processes().get(1).isAlive(), "stopped after the timeout");
        }
    }

    @Test
    @DisplayName("a component that never gets ready is stopped after the timeout, named in the error")
    void hangTimesOut() {
        try (ProcessSupervisor s = new ProcessSupervisor(dir, Duration.ofSeconds(5))) {
            TargetException e = assertThrows(TargetException.class, () -> s.start(fake("egress-gateway", "hang"), Duration.ofSeconds(3)));
            assertTrue(e.getMessage().contains("egress-gateway") && e.getMessage().contains("not ready after 3 s"), e.getMessage());
            assertFalse(s.processes().get(0).isAlive());
        }
    }

    @Test
    @DisplayName("a component that dies after start is reported as dead, with its exit code and last line")
    void detectsDeath() throws Exception {
        try (ProcessSupervisor s = new ProcessSupervisor(dir, Duration.ofSeconds(5))) {
            s.start(fake("sidecar-booking", "die-later"), Duration.ofSeconds(30));
            ManagedProcess p = s.processes().get(0);
            assertTrue(p.handle().onExit().get(30, TimeUnit.SECONDS) != null);
            String dead = s.deadComponent().orElseThrow();
            assertTrue(dead.startsWith("sidecar-booking (pid ") && dead.contains("exited with code 3")
                    && dead.contains("upstream lost"), dead);
        }
    }

    @Test
    @DisplayName("a component killed from outside is reported with the signal's name and what its log says, not its ready line")
    void killedComponentExplained() throws Exception {
        try (ProcessSupervisor s = new ProcessSupervisor(dir, Duration.ofSeconds(5))) {
            s.start(fake("egress-gateway", "ready"), Duration.ofSeconds(30));
            ManagedProcess p = s.processes().get(0);
            p.handle().destroyForcibly();
            p.handle().onExit().get(30, TimeUnit.SECONDS);
            String dead = awaitDeath(s);
            assertTrue(dead.startsWith("egress-gateway (pid " + p.pid() + ") was killed by SIGKILL (exit status 137: sent from "
                    + "outside the kit, e.g. kill -9 or the kernel's out-of-memory killer); its log reports no error (log: "), dead);
            assertFalse(dead.contains("MESHBENCH-READY"), "the ready line explains nothing: " + dead);
            assertTrue(dead.endsWith("(log: " + dir.resolve("egress-gateway.log") + ")"), dead);
        }
    }

    @Test
    @DisplayName("exit codes above 128 are named as signals; the log's error lines are quoted, cut, and ready lines skipped")
    void exitAndLogExplained() {
        assertEquals("exited with code 3", ManagedProcess.exitDescription(3));
        assertEquals("was killed by SIGTERM (exit status 143: asked to stop from outside the kit)", ManagedProcess.exitDescription(143));
        assertEquals("was killed by SIGSEGV (exit status 139: it crashed)", ManagedProcess.exitDescription(139));
        assertEquals("exited with code 255", ManagedProcess.exitDescription(255));
    }

    @Test
    @DisplayName("a component that dies after logging errors is reported with those lines, cut, not with its last line")
    void deathQuotesTheErrors() throws Exception {
        try (ProcessSupervisor s = new ProcessSupervisor(dir, Duration.ofSeconds(5))) {
            s.start(fake("sni-proxy", "die-noisy"), Duration.ofSeconds(30));
            String dead = awaitDeath(s);
            assertTrue(dead.contains(") exited with code 1; its log says: sni-proxy: ERROR upstream 127.0.0.1:1 refused the "
                    + "connection | java.lang.IllegalStateException: xxx"), dead);
            assertTrue(dead.contains("... (1033 characters)"), dead);
            assertFalse(dead.contains("shutting down") || dead.contains("start-up notice") || dead.contains("Some.frame"), dead);
        }
    }

    private static String awaitDeath(ProcessSupervisor s) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            java.util.Optional<String> d = s.deadComponent();
            if (d.isPresent()) {
                return d.get();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no death reported");
    }

    @Test
    @DisplayName("a component whose leader was killed from outside leaves no orphan: its children (as nginx's workers) end with it")
    void orphansOfAKilledLeaderEnd() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")) && Files.isDirectory(Path.of("/proc/self")));
        List<ProcessHandle> workers;
        try (ProcessSupervisor s = new ProcessSupervisor(dir, Duration.ofSeconds(5))) {
            s.start(new ProcessSpec(new Component("sni-proxy", ComponentRole.MESH), List.of("sh", "-c",
                    "sleep 300 & sleep 300 & echo MESHBENCH-READY component=sni-proxy address=127.0.0.1:1; wait")), Duration.ofSeconds(30));
            ManagedProcess master = s.processes().get(0);
            workers = master.handle().children().toList();
            assertEquals(2, workers.size(), "the two 'workers'");
            master.handle().destroyForcibly();
            master.handle().onExit().get(30, TimeUnit.SECONDS);
            assertTrue(workers.stream().allMatch(ProcessHandle::isAlive), "orphaned, as nginx's workers are");
        }
        for (ProcessHandle w : workers) {
            w.onExit().get(30, TimeUnit.SECONDS);
        }
        assertTrue(workers.stream().noneMatch(ProcessHandle::isAlive));
    }

    @Test
    @DisplayName("a stopped component is not reported as dead")
    void stoppedIsNotDead() {
        try (ProcessSupervisor s = new ProcessSupervisor(dir, Duration.ofSeconds(5))) {
            s.start(fake("flight", "ready"), Duration.ofSeconds(30));
            s.stop("flight");
            assertFalse(s.processes().get(0).isAlive());
            assertTrue(s.deadComponent().isEmpty());
        }
    }

    @Test
    @DisplayName("a supervised component exits by itself when its parent's pipe closes (parent killed)")
    void exitsOnStdinEof() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(fake("orphan", "ready").command()).redirectErrorStream(true).start();
        try {
            String first = new String(p.getInputStream().readNBytes(20));
            assertTrue(first.startsWith("MESHBENCH-READY"), first);
            p.getOutputStream().close(); // what the OS does when the parent dies
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "component must exit after stdin EOF");
            assertEquals(0, p.exitValue());
        } finally {
            p.destroyForcibly();
        }
    }
}
