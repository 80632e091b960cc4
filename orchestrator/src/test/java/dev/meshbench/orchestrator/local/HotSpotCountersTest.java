package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HotSpotCountersTest {

    /** This JVM's own file read as the JDK's CompilationMXBean reads the same counter: between two readings of it. */
    @Test
    void readsThisJvmsCompilationTimeAsTheJdkDoes() {
        Path file = HotSpotCounters.fileOf(ProcessHandle.current().pid());
        assumeTrue(Files.isReadable(file), "this JVM keeps no performance counters file (" + file + ")");
        var jit = ManagementFactory.getCompilationMXBean();
        long before = jit.getTotalCompilationTime();
        OptionalDouble read = HotSpotCounters.compilationMillis(ProcessHandle.current().pid());
        long after = jit.getTotalCompilationTime();
        assertTrue(read.isPresent());
        // the MXBean truncates to whole ms; compilation may go on between the readings
        assertTrue(read.getAsDouble() >= before && read.getAsDouble() <= after + 1.0,
                read.getAsDouble() + " ms is not between the JDK's " + before + " and " + after + " ms");
        assertTrue(before > 0);
    }

    @Test
    void aProcessWithoutCountersOrAnotherFileGivesNothing(@TempDir Path dir) throws Exception {
        assertFalse(HotSpotCounters.compilationMillis(dir.resolve("12345")).isPresent());
        Path junk = Files.write(dir.resolve("junk"), new byte[64]);
        assertFalse(HotSpotCounters.compilationMillis(junk).isPresent());
        Path truncated = Files.write(dir.resolve("short"), new byte[] {(byte) 0xca, (byte) 0xfe});
        assertFalse(HotSpotCounters.compilationMillis(truncated).isPresent());
    }

    /** This JVM's compiler threads have used CPU by now (it compiled this test); a pid without threads gives nothing. */
    @Test
    void readsTheCompilerThreadsCpuOfThisJvm() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc here");
        OptionalDouble jit = HotSpotCounters.jitMillis(ProcessHandle.current().pid());
        assertTrue(jit.isPresent(), "this JVM has C1/C2 compiler threads");
        assertTrue(jit.getAsDouble() >= 0 && jit.getAsDouble() % 10 == 0, "whole ticks of 10 ms: " + jit.getAsDouble());
        long cpuMs = ManagementFactory.getRuntimeMXBean().getUptime(); // an upper bound per thread: wall time since start
        assertTrue(jit.getAsDouble() <= cpuMs * 2 + 10, "two compiler threads at most busy all the time: " + jit.getAsDouble());
        assertFalse(HotSpotCounters.jitMillis(Long.MAX_VALUE).isPresent(), "no such process");
    }
}
