package dev.meshbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunOwnerTest {
    @TempDir
    Path dir;

    @Test
    @DisplayName("this process, written and read back, is alive")
    void selfIsAlive() throws Exception {
        RunOwner.ofThisProcess().writeTo(dir);
        RunOwner read = RunOwner.readFrom(dir).orElseThrow();
        assertEquals(ProcessHandle.current().pid(), read.pid());
        assertEquals(RunOwner.State.ALIVE, read.state());
    }

    @Test
    @DisplayName("a process that has ended is gone; so is a live pid whose start time is not the recorded one")
    void endedIsGone() throws Exception {
        Process p = new ProcessBuilder("java", "-version").redirectErrorStream(true).start();
        Instant started = p.toHandle().info().startInstant().orElse(Instant.EPOCH);
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        RunOwner self = RunOwner.ofThisProcess();
        assertEquals(RunOwner.State.GONE, new RunOwner(p.pid(), started, self.host()).state());
        assertEquals(RunOwner.State.GONE, new RunOwner(self.pid(), self.processStart().minusSeconds(3600), self.host()).state(),
                "a reused pid");
        assertEquals(RunOwner.State.ELSEWHERE, new RunOwner(p.pid(), started, "another-host").state());
    }

    @Test
    @DisplayName("a missing or unreadable owner file reads as no owner")
    void unreadable() throws Exception {
        assertEquals(Optional.empty(), RunOwner.readFrom(dir));
        Files.writeString(dir.resolve(RunOwner.FILE), "pid=twelve\n");
        assertEquals(Optional.empty(), RunOwner.readFrom(dir));
    }
}
