package dev.meshbench.orchestrator.run;

import dev.meshbench.results.ResultsSchema;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Samples the machine itself into {@code host-samples.csv} (format of {@code counters.csv}, cumulative values): the
 * busy and total CPU ticks of all cores and the runnable threads ({@code procs_running}) from {@code /proc/stat},
 * and the load generator's own CPU (the JMeter process, found by its command line). The converter turns each step's
 * window into busy percent, mean run queue and load generator CPU, and flags a step saturated above the run's
 * threshold. Where there is no {@code /proc/stat} (not Linux) nothing is written.
 */
public final class HostRecorder extends PeriodicCsvRecorder {
    public static final Duration INTERVAL = Duration.ofSeconds(1);
    /** How the load generator is recognised: JMeter's jar on its command line. */
    static final String LOAD_GENERATOR_MARK = "ApacheJMeter";

    private final Path procStat;
    private long runnableSum;
    private long readings;
    private ProcessHandle loadGenerator;
    private ProcStat previous;
    private volatile double lastBusyPercent = Double.NaN;

    private HostRecorder(Path file, Path procStat) {
        super("host", file, CounterRecorder.HEADER, "host-recorder");
        this.procStat = procStat;
    }

    /** Starts sampling now and every {@code interval}, or returns empty where {@code /proc/stat} does not exist. */
    public static Optional<HostRecorder> start(Path runDir, Duration interval) {
        Path stat = Path.of("/proc/stat");
        if (!Files.isReadable(stat)) {
            return Optional.empty();
        }
        HostRecorder r = new HostRecorder(runDir.resolve(ResultsSchema.HOST_FILE), stat);
        r.schedule(interval);
        return Optional.of(r);
    }

    /**
     * One reading of {@code /proc/stat}: ticks of all cores (user, nice, system, idle, iowait, irq, softirq, steal)
     * and {@code procs_running}. Busy is everything but idle and iowait.
     */
    record ProcStat(long busyTicks, long totalTicks, int runnable) {
        static ProcStat parse(String text) {
            long busy = -1;
            long total = -1;
            int running = -1;
            for (String line : text.split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f[0].equals("cpu") && f.length >= 5) {
                    total = 0;
                    long idle = 0;
                    // user nice system idle iowait irq softirq steal (guest times are inside user and nice already)
                    for (int i = 1; i < Math.min(f.length, 9); i++) {
                        long v = Long.parseLong(f[i]);
                        total += v;
                        if (i == 4 || i == 5) {
                            idle += v;
                        }
                    }
                    busy = total - idle;
                } else if (f[0].equals("procs_running") && f.length == 2) {
                    running = Integer.parseInt(f[1]);
                }
            }
            if (busy < 0 || running < 0) {
                throw new IllegalArgumentException("/proc/stat has no aggregate 'cpu' line or no 'procs_running' line");
            }
            return new ProcStat(busy, total, running);
        }
    }

    @Override
    void writeSample(Writer out) throws IOException {
        long now = System.currentTimeMillis();
        ProcStat s = ProcStat.parse(Files.readString(procStat));
        if (previous != null && s.totalTicks() > previous.totalTicks()) {
            lastBusyPercent = 100.0 * (s.busyTicks() - previous.busyTicks()) / (s.totalTicks() - previous.totalTicks());
        }
        previous = s;
        // procs_running counts this sampling thread too; leave it out.
        runnableSum += Math.max(0, s.runnable() - 1);
        readings++;
        row(out, now, "host", "cpuBusyTicks", s.busyTicks());
        row(out, now, "host", "cpuTotalTicks", s.totalTicks());
        row(out, now, "host", "runnableSum", runnableSum);
        row(out, now, "host", "samples", readings);
        loadGenerator().ifPresent(p -> p.info().totalCpuDuration()
                .ifPresent(cpu -> row(out, now, "loadgen", "cpuMs", cpu.toMillis())));
    }

    /** Host CPU busy between the last two readings, percent of all cores; NaN before two readings. */
    public double lastBusyPercent() {
        return lastBusyPercent;
    }

    private Optional<ProcessHandle> loadGenerator() {
        if (loadGenerator == null || !loadGenerator.isAlive()) {
            loadGenerator = ProcessHandle.allProcesses()
                    .filter(p -> p.info().commandLine().map(c -> c.contains(LOAD_GENERATOR_MARK)).orElse(false))
                    .findFirst().orElse(null);
        }
        return Optional.ofNullable(loadGenerator);
    }

    private static void row(Writer out, long now, String component, String counter, long value) {
        try {
            out.write(now + "," + component + "," + counter + "," + value + "\n");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
