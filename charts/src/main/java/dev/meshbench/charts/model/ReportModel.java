package dev.meshbench.charts.model;

import dev.meshbench.charts.load.LoadedResults;
import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.ResultsSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a report shows, computed once from the loaded runs: cases in study order, the client steps, the
 * client count the latency and CPU figures are taken at, and the comparison against the baseline.
 *
 * @param loaded           the runs and the skipped files
 * @param cases            one summary per case, in study order
 * @param clientSteps      the client steps all runs share
 * @param requestedClients the client count asked for
 * @param clients          the client count used (the requested one, or the nearest measured when it was not)
 * @param warnings         what a reader should know about the report itself (e.g. a substituted client count)
 */
public record ReportModel(LoadedResults loaded, List<CaseSummary> cases, List<Integer> clientSteps,
        int requestedClients, int clients, List<String> warnings) {

    /** Builds the model of {@code loaded} with latency and CPU taken at {@code requestedClients}. */
    public static ReportModel of(LoadedResults loaded, int requestedClients) {
        if (requestedClients <= 0) {
            throw new IllegalArgumentException("clients (" + requestedClients + ") must be positive");
        }
        Map<String, List<LoadedRun>> byCase = new LinkedHashMap<>();
        for (LoadedRun r : loaded.runs()) {
            byCase.computeIfAbsent(r.caseId(), k -> new ArrayList<>()).add(r);
        }
        List<CaseSummary> cases = byCase.entrySet().stream()
                .map(e -> new CaseSummary(e.getKey(), e.getValue()))
                .sorted(Comparator.comparingInt((CaseSummary c) -> ResultsSchema.caseOrder(c.caseId()))
                        .thenComparing(CaseSummary::caseId))
                .toList();
        List<Integer> steps = loaded.runs().isEmpty() ? List.of()
                : loaded.runs().get(0).results().clientSteps().stream().sorted().toList();
        List<String> warnings = new ArrayList<>();
        int clients = requestedClients;
        if (!steps.isEmpty() && !steps.contains(requestedClients)) {
            clients = steps.stream().min(Comparator.comparingInt((Integer s) -> Math.abs(s - requestedClients))
                    .thenComparing(s -> s)).orElseThrow();
            warnings.add("no run measured " + requestedClients + " clients (steps: " + steps + "); latency and CPU "
                    + "figures use " + clients + " clients instead");
        }
        if (!cases.isEmpty() && cases.stream().noneMatch(c -> c.caseId().equals(ResultsSchema.BASELINE_CASE))) {
            warnings.add("no " + ResultsSchema.BASELINE_CASE + " run: the comparison table has no baseline");
        }
        return new ReportModel(loaded, cases, steps, requestedClients, clients, List.copyOf(warnings));
    }

    /** The baseline case's summary, or {@code null}. */
    public CaseSummary baseline() {
        return cases.stream().filter(c -> c.caseId().equals(ResultsSchema.BASELINE_CASE)).findFirst().orElse(null);
    }

    /** Each case against the baseline at {@link #clients()}. */
    public List<ComparisonRow> comparison() {
        CaseSummary base = baseline();
        List<ComparisonRow> rows = new ArrayList<>();
        for (CaseSummary c : cases) {
            Spread tp = c.throughput(clients);
            Spread peak = c.peakThroughput();
            Spread p99 = c.latency(clients, LatencyStatistic.P99);
            Spread mesh = c.cpuPerTransaction(clients, ComponentRole.MESH);
            Spread app = c.cpuPerTransaction(clients, ComponentRole.APP);
            rows.add(new ComparisonRow(c.caseId(), c.runs().size(),
                    tp, change(tp, base == null ? null : base.throughput(clients)),
                    peak, change(peak, base == null ? null : base.peakThroughput()),
                    p99, change(p99, base == null ? null : base.latency(clients, LatencyStatistic.P99)),
                    mesh, change(mesh, base == null ? null : base.cpuPerTransaction(clients, ComponentRole.MESH)),
                    app, change(app, base == null ? null : base.cpuPerTransaction(clients, ComponentRole.APP))));
        }
        return rows;
    }

    private static Double change(Spread value, Spread base) {
        return value == null ? null : value.changeAgainst(base);
    }
}
