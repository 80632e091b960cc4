package dev.meshbench.results.convert;

import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.results.AttributedCpu;
import dev.meshbench.results.ComponentCpu;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.ConversionMethod;
import dev.meshbench.results.MeshAttribution;
import dev.meshbench.results.MeshPart;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.StepCpu;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.StepDrift;
import dev.meshbench.results.StepRate;
import dev.meshbench.results.StepHost;
import dev.meshbench.results.StepWork;
import dev.meshbench.results.WorkCounters;
import dev.meshbench.results.io.ResultsFormatException;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Converts a run folder ({@code run.json}, {@code samples.jtl}, optional {@code cpu-samples.csv}) into
 * {@code results.json}, once, at the end of a run. Everything downstream reads only the JSON.
 *
 * <p>Per step, the measured window is {@code [start + warmupSeconds, end)}. A JTL row belongs to the step named
 * by its {@code step} column and counts when its start time is inside the window. Successful rows are
 * transactions and enter the latency histogram; failed rows are errors and do not. CPU per component is the
 * difference of its interpolated cumulative CPU at the window edges (see {@link CpuTimeline}); CPU per
 * transaction divides by the step's transactions. Mesh CPU is split into the MongoDB path and the parts every case
 * shares where the counters allow ({@link #attributed}).
 */
public final class ResultsConverter {
    private static final Logger LOG = LoggerFactory.getLogger(ResultsConverter.class);
    /** Below this coverage of a window a component's CPU gets a note: it is undercounted. */
    private static final double COVERAGE_NOTE_BELOW = 0.9;

    private ResultsConverter() {
    }

    /** Converts {@code runDir} and writes {@code runDir/results.json}; returns what was written. */
    public static RunResults convert(Path runDir) throws IOException {
        RunResults results = compute(runDir);
        ResultsJson.writeResults(runDir.resolve(ResultsSchema.RESULTS_FILE), results);
        LOG.debug("converted {}: {} steps, {} notes", runDir, results.steps().size(), results.notes().size());
        return results;
    }

    /** Converts {@code runDir} without writing anything. */
    public static RunResults compute(Path runDir) throws ResultsFormatException {
        RunInputs inputs = ResultsJson.readRunInputs(runDir.resolve(ResultsSchema.RUN_FILE));
        List<String> notes = new ArrayList<>();
        Map<Integer, StepAccumulator> steps = new LinkedHashMap<>();
        for (StepWindow s : inputs.steps()) {
            if (!s.hasRun()) {
                notes.add("step " + s.clients() + " clients: did not run (no start and end time in run.json)");
                continue;
            }
            long windowStart = s.startEpochMs() + inputs.warmupSeconds() * 1000L;
            if (s.endEpochMs() <= windowStart) {
                notes.add("step " + s.clients() + " clients: ended " + (s.endEpochMs() - s.startEpochMs())
                        + " ms after its start, within the " + inputs.warmupSeconds() + " s warm-up; not measured");
                continue;
            }
            steps.put(s.clients(), new StepAccumulator(s.clients(), windowStart, s.endEpochMs()));
        }

        Path jtl = runDir.resolve(ResultsSchema.JTL_FILE);
        if (Files.exists(jtl) || inputs.status() == RunStatus.PASSED) {
            readSamples(jtl, steps, notes);
        } else {
            notes.add(ResultsSchema.JTL_FILE + " not found (run " + inputs.status().id() + "); no step measured");
            steps.clear();
        }

        Path cpuFile = runDir.resolve(ResultsSchema.CPU_FILE);
        List<CpuTimeline> timelines = null;
        if (Files.exists(cpuFile)) {
            timelines = new CpuSamplesReader(cpuFile).read(notes);
            if (timelines.isEmpty()) {
                notes.add(ResultsSchema.CPU_FILE + " has no samples; no CPU figures");
            }
        } else {
            notes.add(ResultsSchema.CPU_FILE + " not found; no CPU figures");
        }

        Path countersFile = runDir.resolve(ResultsSchema.COUNTERS_FILE);
        CounterSamples counters = Files.exists(countersFile) ? CounterSamples.read(countersFile) : null;
        Path hostFile = runDir.resolve(ResultsSchema.HOST_FILE);
        CounterSamples host = Files.exists(hostFile) ? CounterSamples.read(hostFile) : null;

        List<StepResult> results = new ArrayList<>();
        for (StepAccumulator a : steps.values()) {
            long samples = a.transactions + a.errors;
            if (samples == 0) {
                notes.add("step " + a.clients + " clients: no samples after warm-up");
            } else if (a.transactions == 0) {
                notes.add("step " + a.clients + " clients: all " + a.errors + " samples failed; no latency");
            }
            if (a.lateSkipped > 0) {
                notes.add("step " + a.clients + " clients: " + a.lateSkipped + " samples started after the step's "
                        + "end and were skipped");
            }
            StepCpu cpu = timelines == null || timelines.isEmpty() ? null
                    : attributed(cpu(a, timelines, notes), a, counters, inputs.caseId(), notes);
            results.add(new StepResult(a.clients, a.windowStart, a.windowEnd, Rounding.round(a.seconds(), 3),
                    samples, a.warmupSkipped, a.lateSkipped, a.transactions, a.errors,
                    Rounding.round(a.transactions / a.seconds(), 3), a.latency(), cpu, work(a, counters),
                    host(a, host, inputs), drift(a, inputs), rate(a, samples, inputs), a.labels()));
            StepResult last = results.get(results.size() - 1);
            if (last.rateNotHeld()) {
                notes.add("step " + a.clients + " clients: " + StepRate.NOT_HELD_MEANING + " (" + last.rate().achievedPerSecond()
                        + " of " + last.rate().targetPerSecond() + " req/s, threshold "
                        + inputs.measurementOrDefault().rateShortfallOrDefault() + "% short)");
            }
            if (last.notSteady()) {
                notes.add("step " + a.clients + " clients: " + StepDrift.NOT_STEADY_MEANING + " (" + last.drift().firstThirdPerSecond()
                        + " -> " + last.drift().lastThirdPerSecond() + " tx/s, threshold "
                        + inputs.measurementOrDefault().driftOrDefault() + "%)");
            }
            StepWindow window = inputs.step(a.clients);
            if (window.overran(inputs.stepSeconds())) {
                notes.add("step " + a.clients + " clients: " + StepWindow.OVERRAN_MEANING + " (ran "
                        + Rounding.round(window.lengthMs() / 1000.0, 1) + " s, planned " + inputs.stepSeconds() + " s)");
            }
            if (results.get(results.size() - 1).saturated()) {
                notes.add("step " + a.clients + " clients: " + StepHost.SATURATED_MEANING + " (host "
                        + results.get(results.size() - 1).host().busyPercent() + "% busy, threshold "
                        + inputs.measurementOrDefault().saturationThresholdPercent() + "%)");
            }
        }
        return new RunResults(ResultsSchema.VERSION, inputs,
                ConversionMethod.current(timelines != null && !timelines.isEmpty()), results, notes);
    }

    /** Work per transaction from the counters, or {@code null} without counters or transactions. */
    private static StepWork work(StepAccumulator a, CounterSamples counters) {
        if (counters == null || a.transactions == 0) {
            return null;
        }
        return new StepWork(perTransaction(counters.increase(CounterSamples.MONGO_COMMANDS, a.windowStart, a.windowEnd), a),
                perTransaction(counters.increase(CounterSamples.INTER_SERVICE_CALLS, a.windowStart, a.windowEnd), a),
                perTransaction(counters.increase(CounterSamples.MONGO_PATH_BYTES, a.windowStart, a.windowEnd), a),
                serviceMs(counters.increase(CounterSamples.API_MICROS, a.windowStart, a.windowEnd),
                        counters.increase(CounterSamples.API_REQUESTS, a.windowStart, a.windowEnd)), jit(a, counters));
    }

    /** Each JVM's JIT CPU in the window, ms (1 decimal), by component. */
    private static Map<String, Double> jit(StepAccumulator a, CounterSamples counters) {
        Map<String, Double> out = new TreeMap<>();
        for (String component : counters.components(CounterSamples.JIT_MS)) {
            Double ms = counters.increase(CounterSamples.JIT_MS, component, a.windowStart, a.windowEnd);
            if (ms != null) {
                out.put(component, Rounding.round(ms, 1));
            }
        }
        return out;
    }

    /** Mean service time per client request in ms (3 decimals) from the timers' increases; {@code null} without them. */
    static Double serviceMs(Double micros, Double requests) {
        return micros == null || requests == null || !(requests > 0) ? null : Rounding.round(micros / requests / 1000, 3);
    }

    /**
     * The host during the window: busy share of all cores from the increase of busy and total ticks, the mean run
     * queue from the sum of {@code procs_running} readings over their count, the load generator's CPU over the window;
     * {@code null} without host samples covering the window.
     */
    static StepHost host(StepAccumulator a, CounterSamples host, RunInputs inputs) {
        if (host == null) {
            return null;
        }
        Double busy = host.increase(CounterSamples.HOST_BUSY_TICKS, a.windowStart, a.windowEnd);
        Double total = host.increase(CounterSamples.HOST_TOTAL_TICKS, a.windowStart, a.windowEnd);
        if (busy == null || total == null || total <= 0) {
            return null;
        }
        double busyPercent = Rounding.round(Math.min(100, 100 * busy / total), 1);
        Double runnable = host.increase(CounterSamples.HOST_RUNNABLE_SUM, a.windowStart, a.windowEnd);
        Double readings = host.increase(CounterSamples.HOST_SAMPLES, a.windowStart, a.windowEnd);
        double runQueue = runnable == null || readings == null || readings <= 0 ? 0 : Rounding.round(runnable / readings, 2);
        Double loadgen = host.increase(CounterSamples.LOADGEN_CPU_MS, a.windowStart, a.windowEnd);
        Double loadgenPercent = loadgen == null ? null : Rounding.round(100 * loadgen / (a.windowEnd - a.windowStart), 1);
        return new StepHost(busyPercent, runQueue, inputs.machine().cores(), loadgenPercent,
                busyPercent > inputs.measurementOrDefault().saturationThresholdPercent());
    }

    /** The fixed rate's target and achieved rate (all requests sent in the window), or {@code null} for a closed loop. */
    static StepRate rate(StepAccumulator a, long samples, RunInputs inputs) {
        List<Double> targets = inputs.measurementOrDefault().targetRatePerSecond();
        int i = inputs.clientSteps().indexOf(a.clients);
        if (targets.isEmpty() || i < 0 || i >= targets.size() || a.seconds() <= 0) {
            return null;
        }
        double target = targets.get(i);
        double achieved = Rounding.round(samples / a.seconds(), 3);
        return new StepRate(target, achieved, inputs.measurementOrDefault().holdsRate(target, achieved));
    }

    static StepDrift drift(StepAccumulator a, RunInputs inputs) {
        if (a.transactions == 0) {
            return null;
        }
        double third = a.seconds() / 3;
        double first = Rounding.round(a.thirds[0] / third, 3);
        double last = Rounding.round(a.thirds[2] / third, 3);
        Double change = a.thirds[0] == 0 ? null : Rounding.round(100.0 * (a.thirds[2] - a.thirds[0]) / a.thirds[0], 1);
        boolean steady = change != null && Math.abs(change) <= inputs.measurementOrDefault().driftOrDefault();
        return new StepDrift(first, last, change, steady);
    }

    private static Double perTransaction(Double increase, StepAccumulator a) {
        return increase == null ? null : Rounding.round(increase / a.transactions, 3);
    }

    private static void readSamples(Path jtl, Map<Integer, StepAccumulator> steps, List<String> notes)
            throws ResultsFormatException {
        long[] withoutStep = {0};
        long[] warmup = {0};
        Map<Integer, Long> otherSteps = new TreeMap<>();
        new JtlReader(jtl).read(sample -> {
            if (sample.step() == null) {
                withoutStep[0]++;
                return;
            }
            if (sample.step() == ResultsSchema.WARMUP_STEP) {
                warmup[0]++;
                return;
            }
            StepAccumulator a = steps.get(sample.step());
            if (a == null) {
                otherSteps.merge(sample.step(), 1L, Long::sum);
            } else {
                a.add(sample);
            }
        }, notes);
        if (withoutStep[0] > 0) {
            notes.add(ResultsSchema.JTL_FILE + ": " + withoutStep[0] + " samples have an empty step column and were "
                    + "skipped (setup or teardown samplers?)");
        }
        if (warmup[0] > 0) {
            notes.add(ResultsSchema.JTL_FILE + ": " + warmup[0] + " samples of the warm-up (step " + ResultsSchema.WARMUP_STEP
                    + ") are left out of every figure");
        }
        otherSteps.forEach((clients, count) -> notes.add(ResultsSchema.JTL_FILE + ": " + count + " samples of step "
                + clients + " clients were skipped: that step is not a measured step in run.json"));
    }

    private static StepCpu cpu(StepAccumulator a, List<CpuTimeline> timelines, List<String> notes) {
        long windowMs = a.windowEnd - a.windowStart;
        List<ComponentCpu> components = new ArrayList<>();
        Map<ComponentRole, double[]> totals = new EnumMap<>(ComponentRole.class);
        for (CpuTimeline t : timelines) {
            CpuTimeline.Window w = t.window(a.windowStart, a.windowEnd);
            if (w.coverage() < COVERAGE_NOTE_BELOW) {
                notes.add(String.format(Locale.ROOT, "step %d clients: CPU samples of %s cover %.0f%% of the "
                        + "measured window; its CPU is undercounted", a.clients, t.component(), w.coverage() * 100));
            }
            if (w.processes() > 1) {
                notes.add("step " + a.clients + " clients: " + t.component() + " restarted (" + w.processes()
                        + " processes); CPU summed over them, excluding what each used before its first sample");
            }
            components.add(new ComponentCpu(t.component(), t.role(), Rounding.round(w.cpuMillis(), 3),
                    Rounding.round(w.cpuMillis() / windowMs, 4), perTransaction(w.cpuMillis(), a.transactions),
                    Rounding.round(w.coverage(), 3), w.processes(), w.maxRssBytes()));
            double[] total = totals.computeIfAbsent(t.role(), r -> new double[2]);
            total[0] += w.cpuMillis();
            total[1]++;
        }
        components.sort(Comparator.comparing(ComponentCpu::role).thenComparing(ComponentCpu::component));
        Map<ComponentRole, RoleCpu> roles = new EnumMap<>(ComponentRole.class);
        totals.forEach((role, t) -> roles.put(role, new RoleCpu(Rounding.round(t[0], 3),
                Rounding.round(t[0] / windowMs, 4), perTransaction(t[0], a.transactions), (int) t[1])));
        return new StepCpu(roles.get(ComponentRole.MESH), roles.get(ComponentRole.APP),
                roles.get(ComponentRole.DATABASE), roles.get(ComponentRole.LOAD), components);
    }

    /**
     * {@code cpu} with its mesh CPU split by {@link MeshPart} ({@link StepCpu#attribution()}), each mesh component's
     * MongoDB share recorded: the fixed share of its kind ({@link MeshPart#fixedShare}), or for a sidecar the increase
     * of its {@link WorkCounters#MONGO_PATH_BYTES} over the increase of its {@link WorkCounters#LISTENER_BYTES} in the
     * window. A sidecar without MongoDB-path bytes has no MongoDB listener (a service that does not use MongoDB) and a
     * share of 0, as has one that moved no bytes at all (its CPU is idle work, not the MongoDB path's); in a case whose
     * MongoDB traffic does not pass the sidecars (bypass) every sidecar's share is 0 without any counter. The shares
     * are rounded to 4 decimals before the sums, so the sums are what the recorded shares give. {@code cpu} unchanged
     * when some mesh component's share is unknown (no per-listener byte counters; a component of a kind no part
     * covers), with a note when counters per listener were recorded but not for every sidecar.
     */
    static StepCpu attributed(StepCpu cpu, StepAccumulator a, CounterSamples counters, String caseId, List<String> notes) {
        if (cpu.mesh() == null) {
            return cpu;
        }
        boolean sidecarsOffMongoPath = Arrays.stream(EgressCase.values())
                .anyMatch(c -> c.id().equals(caseId) && !c.passes(HopKind.SIDECAR));
        List<ComponentCpu> components = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (ComponentCpu c : cpu.components()) {
            if (c.role() != ComponentRole.MESH) {
                components.add(c);
                continue;
            }
            String kind = ComponentRole.kindOf(c.component());
            Double share = MeshPart.fixedShare(kind);
            if (share == null && MeshPart.covers(kind)) {
                share = sidecarsOffMongoPath ? Double.valueOf(0) : bytesShare(c.component(), a, counters);
            }
            if (share == null) {
                unknown.add(c.component());
                components.add(c);
            } else {
                components.add(c.withMongoPathShare(Rounding.round(share, 4)));
            }
        }
        if (!unknown.isEmpty()) {
            if (counters != null && counters.has(CounterSamples.LISTENER_BYTES)) {
                notes.add("step " + a.clients + " clients: mesh CPU not split into MongoDB path and shared parts: no "
                        + WorkCounters.LISTENER_BYTES + " in the window for " + String.join(", ", unknown));
            }
            return cpu;
        }
        StepCpu withShares = new StepCpu(cpu.mesh(), cpu.app(), cpu.database(), cpu.load(), components);
        double mongo = MeshPart.side(true).stream().mapToDouble(p -> p.cpuMillis(withShares)).sum();
        double rest = MeshPart.side(false).stream().mapToDouble(p -> p.cpuMillis(withShares)).sum();
        return new StepCpu(cpu.mesh(), cpu.app(), cpu.database(), cpu.load(), new MeshAttribution(
                new AttributedCpu(Rounding.round(mongo, 3), perTransaction(mongo, a.transactions)),
                new AttributedCpu(Rounding.round(rest, 3), perTransaction(rest, a.transactions))), components);
    }

    /** A sidecar's MongoDB share of its bytes in the window; {@code null} without its listener bytes. */
    private static Double bytesShare(String component, StepAccumulator a, CounterSamples counters) {
        Double all = counters == null ? null : counters.increase(CounterSamples.LISTENER_BYTES, component, a.windowStart, a.windowEnd);
        if (all == null) {
            return null;
        }
        Double mongo = counters.increase(CounterSamples.MONGO_PATH_BYTES, component, a.windowStart, a.windowEnd);
        return mongo == null || all <= 0 ? 0 : Math.min(1, mongo / all);
    }

    private static Double perTransaction(double cpuMillis, long transactions) {
        return transactions == 0 ? null : Rounding.round(cpuMillis / transactions, 4);
    }
}
