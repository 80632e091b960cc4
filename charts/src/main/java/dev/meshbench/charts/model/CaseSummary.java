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
 * The runs of one case and the figures the report shows for it, each a {@link Spread} over those runs (so
 * repeats are never averaged away). Latency percentiles of a run come from its own histogram; across runs the
 * report shows the mean of the runs' percentiles and their min-max.
 *
 * @param caseId the case
 * @param runs   its runs, sorted by run id
 */
public record CaseSummary(String caseId, List<LoadedRun> runs) {
    public CaseSummary {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("case " + caseId + " needs at least one run");
        }
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
