package dev.meshbench.charts.model;

import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The runs of one case on one data plane, and the figures the report shows for them, each a {@link Spread} over
 * those runs (so repeats are never averaged away, and runs of different data planes never share a spread).
 * Latency percentiles of a run come from its own histogram; across runs the report shows the mean of the runs'
 * percentiles and their min-max.
 *
 * @param caseId    the case
 * @param dataPlane the data plane's label ({@link dev.meshbench.results.DataPlaneInfo#label()}) every run has
 * @param runs      its runs, sorted by run id
 */
public record CaseSummary(String caseId, String dataPlane, List<LoadedRun> runs) {
    /** Between case and data plane in series keys: {@code "sni · envoy"}. */
    public static final String SEPARATOR = " \u00b7 ";

    public CaseSummary {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("case " + caseId + " on data plane " + dataPlane
                    + " needs at least one run");
        }
        for (LoadedRun r : runs) {
            if (!r.caseId().equals(caseId) || !r.dataPlaneLabel().equals(dataPlane)) {
                throw new IllegalArgumentException("run " + r.runId() + " (case " + r.caseId() + ", data plane "
                        + r.dataPlaneLabel() + ") does not belong to case " + caseId + " on data plane " + dataPlane);
            }
        }
    }

    /** The series key in charts, tables and CSV: {@code "sni · envoy"}. */
    public String key() {
        return caseId + SEPARATOR + dataPlane;
    }

    /** The data plane's name ({@code netty}, {@code envoy}), shared by every run. */
    public String dataPlaneName() {
        return runs.get(0).dataPlane().name();
    }

    /** Whether some run of it ran a closed loop (no fixed rate, {@code measurement.targetRatePerSecond} empty). */
    public boolean closedLoop() {
        return runs.stream().anyMatch(r -> r.results().inputs().measurementOrDefault().targetRatePerSecond().isEmpty());
    }

    /** Throughput (transactions/s) at {@code clients}. */
    public Spread throughput(int clients) {
        return at(clients, StepResult::throughputPerSecond);
    }

    /** The highest throughput of each run, over all its steps. */
    public Spread peakThroughput() {
        return Spread.of(results().stream()
                .map(r -> r.steps().stream().mapToDouble(StepResult::throughputPerSecond).max().orElse(0))
                .toList());
    }

    /** A latency statistic (ms) at {@code clients}; {@code null} when no run had transactions there. */
    public Spread latency(int clients, LatencyStatistic statistic) {
        return at(clients, s -> s.latencyMs() == null ? null : s.latencyMs().get(statistic.field()));
    }

    /** CPU ms per transaction of a role at {@code clients}; {@code null} when no run has it. */
    public Spread cpuPerTransaction(int clients, ComponentRole role) {
        return at(clients, s -> {
            if (s.cpu() == null) {
                return null;
            }
            RoleCpu r = s.cpu().role(role);
            return r == null ? null : r.cpuMsPerTransaction();
        });
    }

    /** A figure of one request type (JMeter label) at {@code clients}; {@code null} when no run had it there. */
    public Spread label(int clients, String label, Function<dev.meshbench.results.LabelResult, Number> value) {
        return at(clients, s -> s.label(label).map(value).orElse(null));
    }

    /** Failed samples at {@code clients}, summed over runs. */
    public long errors(int clients) {
        return results().stream().map(r -> r.step(clients)).flatMap(java.util.Optional::stream)
                .mapToLong(StepResult::errors).sum();
    }

    /** The runs' results. */
    public List<RunResults> results() {
        return runs.stream().map(LoadedRun::results).toList();
    }

    private Spread at(int clients, Function<StepResult, Number> value) {
        return Spread.of(results().stream().map(r -> r.step(clients)).flatMap(java.util.Optional::stream)
                .map(value).filter(Objects::nonNull).toList());
    }
}
