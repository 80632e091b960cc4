package dev.meshbench.results.convert;

import dev.meshbench.results.ComponentRole;
import java.util.ArrayList;
import java.util.List;

/**
 * The cumulative CPU samples of one component, split into processes. A new process starts when the pid
 * changes or, with the same pid, when the cumulative counter goes down (pid reused after a restart).
 *
 * <p>CPU in a window {@code [a, b)} is, for each process, the cumulative CPU linearly interpolated at the window
 * edges clamped to the process's first and last sample: {@code C(min(b, last)) - C(max(a, first))}. So CPU a
 * process used before its first sample (its start-up, or a restart's) and after its last sample is not counted,
 * and the window's coverage says how much of it was seen.
 */
final class CpuTimeline {
    private final String component;
    private final ComponentRole role;
    private final List<Process> processes = new ArrayList<>();

    CpuTimeline(String component, ComponentRole role) {
        this.component = component;
        this.role = role;
    }

    String component() {
        return component;
    }

    ComponentRole role() {
        return role;
    }

    /** Adds the samples of one pid, in time order. */
    void addPid(long pid, List<long[]> timesAndRss, List<Double> cumulative) {
        Process current = null;
        for (int i = 0; i < cumulative.size(); i++) {
            double cpu = cumulative.get(i);
            if (current == null || cpu < current.lastCpu()) {
                current = new Process(pid);
                processes.add(current);
            }
            current.add(timesAndRss.get(i)[0], cpu, timesAndRss.get(i)[1]);
        }
    }

    /** CPU, coverage and processes of this component in {@code [from, to)}. */
    Window window(long from, long to) {
        double cpu = 0;
        long covered = 0;
        int seen = 0;
        long maxRss = -1;
        for (Process p : processes) {
            long first = p.times.get(0);
            long last = p.times.get(p.times.size() - 1);
            long lo = Math.max(from, first);
            long hi = Math.min(to, last);
            if (first < to && last >= from) {
                seen++;
            }
            if (hi > lo) {
                cpu += p.at(hi) - p.at(lo);
                covered += hi - lo;
            }
            for (int i = 0; i < p.times.size(); i++) {
                long t = p.times.get(i);
                if (t >= from && t <= to && p.rss.get(i) >= 0) {
                    maxRss = Math.max(maxRss, p.rss.get(i));
                }
            }
        }
        double coverage = Math.min(1.0, (double) covered / (to - from));
        return new Window(cpu, coverage, seen, maxRss < 0 ? null : maxRss);
    }

    /** What a component did in one window. */
    record Window(double cpuMillis, double coverage, int processes, Long maxRssBytes) {
    }

    private static final class Process {
        final long pid;
        final List<Long> times = new ArrayList<>();
        final List<Double> cpu = new ArrayList<>();
        final List<Long> rss = new ArrayList<>();

        Process(long pid) {
            this.pid = pid;
        }

        double lastCpu() {
            return cpu.get(cpu.size() - 1);
        }

        void add(long t, double c, long r) {
            times.add(t);
            cpu.add(c);
            rss.add(r);
        }

        /** Cumulative CPU at {@code t}, which lies within the first and last sample. */
        double at(long t) {
            int i = 0;
            while (i + 1 < times.size() && times.get(i + 1) <= t) {
                i++;
            }
            if (times.get(i) == t || i + 1 == times.size()) {
                return cpu.get(i);
            }
            long t0 = times.get(i);
            long t1 = times.get(i + 1);
            return cpu.get(i) + (cpu.get(i + 1) - cpu.get(i)) * (t - t0) / (t1 - t0);
        }
    }
}
