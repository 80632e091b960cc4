package dev.meshbench.orchestrator.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Reads a process's cumulative CPU time and resident memory. */
final class ProcessResources {
    private ProcessResources() {
    }

    /** Cumulative user + system CPU of the process in ms, or -1 if it is gone or the platform does not say. */
    static long cpuMillis(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toMillis).orElse(-1L);
    }

    /** Resident set size in bytes from {@code /proc/<pid>/status}, or -1 where there is no such file. */
    static long rssBytes(long pid) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try {
            List<String> lines = Files.readAllLines(status);
            for (String line : lines) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024L;
                }
            }
        } catch (IOException | RuntimeException e) {
            // process gone or not Linux: memory is optional
        }
        return -1;
    }
}
