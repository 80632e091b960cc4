package dev.meshbench.orchestrator.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a component's cumulative CPU time and resident memory: its process plus every live descendant, since a
 * component may do its work in children (nginx's workers under its master).
 */
final class ProcessResources {
    private ProcessResources() {
    }

    /**
     * CPU and memory of one component's process tree.
     *
     * @param cpuMillis cumulative user + system CPU in ms of the process and its live descendants. A descendant that
     *                  exited takes its CPU with it (its parent's counters only gain it when reaped): fine for the
     *                  long-lived workers this is for
     * @param rssBytes  resident set size of the process and its live descendants, or -1 where the platform does not say
     */
    record Usage(long cpuMillis, long rssBytes) {
    }

    /**
     * The live processes by parent pid, read once per sampling tick: walking each component's tree from it costs one
     * look at the process table for all components, where {@link ProcessHandle#descendants()} would take one each.
     */
    static final class Tree {
        private final Map<Long, List<ProcessHandle>> children;

        private Tree(Map<Long, List<ProcessHandle>> children) {
            this.children = children;
        }

        static Tree now() {
            Map<Long, List<ProcessHandle>> children = new HashMap<>();
            ProcessHandle.allProcesses().forEach(p -> p.parent()
                    .ifPresent(parent -> children.computeIfAbsent(parent.pid(), k -> new ArrayList<>()).add(p)));
            return new Tree(children);
        }

        /** The usage of {@code root} and its descendants, or empty if {@code root} is gone or the platform does not say. */
        Optional<Usage> usage(ProcessHandle root) {
            long cpu = ownCpuMillis(root);
            if (cpu < 0) {
                return Optional.empty();
            }
            long rss = rssBytes(root.pid());
            Deque<ProcessHandle> todo = new ArrayDeque<>(children.getOrDefault(root.pid(), List.of()));
            while (!todo.isEmpty()) {
                ProcessHandle p = todo.pop();
                cpu += Math.max(0, ownCpuMillis(p));
                rss += rss >= 0 ? Math.max(0, rssBytes(p.pid())) : 0;
                todo.addAll(children.getOrDefault(p.pid(), List.of()));
            }
            return Optional.of(new Usage(cpu, rss));
        }
    }

    /** CPU ms of the process and its live descendants ({@link Usage#cpuMillis()}), or -1 if the process is gone. */
    static long cpuMillis(ProcessHandle process) {
        return Tree.now().usage(process).map(Usage::cpuMillis).orElse(-1L);
    }

    /** Cumulative user + system CPU of this one process in ms, or -1. */
    static long ownCpuMillis(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toMillis).orElse(-1L);
    }

    /** Resident set size in bytes of the process and its live descendants, or -1 where the platform does not say. */
    static long rssBytes(ProcessHandle process) {
        return Tree.now().usage(process).map(Usage::rssBytes).orElse(-1L);
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
