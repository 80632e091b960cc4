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
 * Everything a report shows, computed once from the loaded runs: one summary per case and data plane (data planes
 * netty, envoy, then others; cases in study order within each), the client steps, the client count the latency and
 * CPU figures are taken at, and the comparison of each case against bypass of the same data plane.
 *
 * @param loaded           the runs and the skipped files
 * @param cases            one summary per case and data plane, in report order
 * @param clientSteps      the client steps all runs share
 * @param requestedClients the client count asked for
 * @param clients          the client count used (the requested one, or the nearest measured when it was not)
 * @param warnings         what a reader should know about the report itself (e.g. a substituted client count)
 */
public record ReportModel(LoadedResults loaded, List<CaseSummary> cases, List<Integer> clientSteps,
        int requestedClients, int clients, List<String> warnings) {

    public ReportModel {
        cases = List.copyOf(cases);
        clientSteps = List.copyOf(clientSteps);
        warnings = List.copyOf(warnings);
    }

    /** Builds the model of {@code loaded} with latency and CPU taken at {@code requestedClients}. */
    public static ReportModel of(LoadedResults loaded, int requestedClients) {
        if (requestedClients <= 0) {
            throw new IllegalArgumentException("clients (" + requestedClients + ") must be positive");
        }
        List<LoadedRun> sorted = loaded.runs().stream().sorted(LoadedRun.REPORT_ORDER).toList();
        Map<List<String>, List<LoadedRun>> groups = new LinkedHashMap<>();
        for (LoadedRun r : sorted) {
            groups.computeIfAbsent(List.of(r.caseId(), r.dataPlaneLabel()), k -> new ArrayList<>()).add(r);
        }
        List<CaseSummary> cases = groups.entrySet().stream()
                .map(e -> new CaseSummary(e.getKey().get(0), e.getKey().get(1), e.getValue()))
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
        for (String plane : dataPlanes(cases)) {
            if (cases.stream().noneMatch(c -> c.dataPlane().equals(plane) && isBaseline(c))) {
                warnings.add("no " + ResultsSchema.BASELINE_CASE + " run on data plane " + plane + ": its cases have "
                        + "no baseline in the comparison table");
            }
        }
        return new ReportModel(loaded, cases, steps, requestedClients, clients, warnings);
    }

    /**
     * Whether some run ran a closed loop. Only then is throughput a result the report charts: at a fixed rate
     * ({@code measurement.targetRatePerSecond}) it is the rate the kit offered, an input.
     */
    public boolean hasClosedLoop() {
        return cases.stream().anyMatch(CaseSummary::closedLoop);
    }

    /** The data plane labels of the report, in report order. */
    public List<String> dataPlanes() {
        return dataPlanes(cases);
    }

    /** The case ids of the report, each once, in study order. */
    public List<String> caseIds() {
        return cases.stream().map(CaseSummary::caseId).distinct()
                .sorted(Comparator.comparingInt(ResultsSchema::caseOrder).thenComparing(Comparator.naturalOrder()))
                .toList();
    }

    /** The baseline case's summary on data plane {@code dataPlane} (a label), or {@code null}. */
    public CaseSummary baseline(String dataPlane) {
        return cases.stream().filter(c -> c.dataPlane().equals(dataPlane) && isBaseline(c)).findFirst()
                .orElse(null);
    }

    /** Each case against the baseline of its own data plane at {@link #clients()}. */
    public List<ComparisonRow> comparison() {
        List<ComparisonRow> rows = new ArrayList<>();
        for (CaseSummary c : cases) {
            CaseSummary base = baseline(c.dataPlane());
            Spread tp = c.throughput(clients);
            Spread peak = c.peakThroughput();
            Spread p99 = c.latency(clients, LatencyStatistic.P99);
            Spread mesh = c.cpuPerTransaction(clients, ComponentRole.MESH);
            Spread app = c.cpuPerTransaction(clients, ComponentRole.APP);
            rows.add(new ComparisonRow(c.caseId(), c.dataPlane(), base != null, c.runs().size(),
                    tp, change(tp, base == null ? null : base.throughput(clients)),
                    peak, change(peak, base == null ? null : base.peakThroughput()),
                    p99, change(p99, base == null ? null : base.latency(clients, LatencyStatistic.P99)),
                    mesh, change(mesh, base == null ? null : base.cpuPerTransaction(clients, ComponentRole.MESH)),
                    app, change(app, base == null ? null : base.cpuPerTransaction(clients, ComponentRole.APP))));
        }
        return rows;
    }

    private static List<String> dataPlanes(List<CaseSummary> cases) {
        return cases.stream().map(CaseSummary::dataPlane).distinct().toList();
    }

    private static boolean isBaseline(CaseSummary c) {
        return c.caseId().equals(ResultsSchema.BASELINE_CASE);
    }

    private static Double change(Spread value, Spread base) {
        return value == null ? null : value.changeAgainst(base);
    }
}
