package dev.meshbench.orchestrator.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Reads a component's cumulative CPU time and resident memory: its process plus every live descendant, since a
 * component may do its work in children (nginx's workers under its master).
 */
final class ProcessResources {
    private ProcessResources() {
    }

    /**
     * Cumulative user + system CPU in ms of the process and its live descendants, or -1 if the process is gone or
     * the platform does not say. A descendant that exited takes its CPU with it (its parent's counters only gain it
     * when reaped): fine for the long-lived workers this is for.
     */
    static long cpuMillis(ProcessHandle process) {
        long own = ownCpuMillis(process);
        if (own < 0) {
            return -1;
        }
        return own + process.descendants().mapToLong(ProcessResources::ownCpuMillis).filter(ms -> ms > 0).sum();
    }

    /** Cumulative user + system CPU of this one process in ms, or -1. */
    static long ownCpuMillis(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toMillis).orElse(-1L);
    }

    /** Resident set size in bytes of the process and its live descendants, or -1 where the platform does not say. */
    static long rssBytes(ProcessHandle process) {
        long own = rssBytes(process.pid());
        if (own < 0) {
            return -1;
        }
        return own + process.descendants().mapToLong(d -> rssBytes(d.pid())).filter(b -> b > 0).sum();
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
