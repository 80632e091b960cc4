package dev.meshbench.charts.model;

import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.charts.study.PublishedFigures;
import dev.meshbench.results.ComponentCpu;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.stats.Comparison;
import dev.meshbench.results.stats.Sample;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the report page's tables show, computed once from a {@link ReportModel}: the page renderer only walks these
 * rows and formats them. Every aggregation over runs (intervals against bypass, CPU per component, the data planes'
 * versions, the inputs shared by every run) happens here.
 *
 * @param model       the report's model (cases, client steps, the client count compared)
 * @param answer      the answer the page opens with: one sentence per case against bypass, per data plane
 * @param sittings    the sittings the runs were taken in, window by window, and the calibrations that set their rate
 * @param study       the egress study's published findings, quoted next to the comparison
 * @param targets     the targets the runs ran on, each once, sorted
 * @param comparison  one line per case and data plane against bypass of the same data plane
 * @param attribution mesh CPU per transaction split into the MongoDB path and the shared parts, per case, with the
 *                    noise floor of each data plane
 * @param latency     one line per case and data plane: its latency statistics at the compared client count
 * @param components  CPU per transaction by component, in the order traffic meets them, each role ending in a total;
 *                    empty when no run measured CPU per component
 * @param dataPlanes  one line per data plane label
 * @param shared      the inputs every run has in common
 * @param varying     the names of the inputs that differ between runs
 * @param runs        one line per run, in report order, with its varying inputs
 * @param steps       one line per run and step, in report order
 * @param skipped     the files left out, with why
 * @param notes       what the conversion of each run noticed, in report order
 */
public record ReportTables(ReportModel model, Answer answer, SittingTable sittings, PublishedFigures.EgressStudy study,
        List<String> targets,
        List<ComparisonLine> comparison, AttributionTable attribution, List<LatencyLine> latency,
        ComponentTable components, List<DataPlaneLine> dataPlanes, List<InputValue> shared, List<String> varying,
        List<RunLine> runs, List<StepLine> steps, List<SkippedLine> skipped, List<NoteLine> notes) {

    public ReportTables {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(sittings, "sittings");
        Objects.requireNonNull(study, "study");
        targets = List.copyOf(targets);
        comparison = List.copyOf(comparison);
        Objects.requireNonNull(attribution, "attribution");
        latency = List.copyOf(latency);
        Objects.requireNonNull(components, "components");
        dataPlanes = List.copyOf(dataPlanes);
        shared = List.copyOf(shared);
        varying = List.copyOf(varying);
        runs = List.copyOf(runs);
        steps = List.copyOf(steps);
        skipped = List.copyOf(skipped);
        notes = List.copyOf(notes);
    }

    /**
     * How the load entered the mesh over the report's runs ({@link DataPlaneInfo#entry()}), each once, in the order of
     * {@link #dataPlanes}: one value when every run took the same way in.
     */
    public List<String> entries() {
        return dataPlanes.stream().map(DataPlaneLine::entry).distinct().toList();
    }

    /** Whether a comparison line is its data plane's baseline, has one, or has none. */
    public enum Baseline {
        IS_BASELINE, PRESENT, MISSING
    }

    /**
     * A case on a data plane against bypass of the same data plane.
     *
     * @param row                the figures and their changes
     * @param summary            the case's runs
     * @param firstOfPlane       whether it starts a data plane after the first
     * @param baseline           whether it is the baseline, has one or has none
     * @param throughputInterval the throughput change's 95 % interval and verdict ({@link #changeInterval}); empty
     *                           for the baseline
     * @param p99Interval        as {@code throughputInterval} for p99
     * @param meshCpuInterval    as {@code throughputInterval} for mesh CPU per transaction
     * @param errors             failed samples at the compared client count, over its runs
     */
    public record ComparisonLine(ComparisonRow row, CaseSummary summary, boolean firstOfPlane, Baseline baseline,
            String throughputInterval, String p99Interval, String meshCpuInterval, long errors) {
    }

    /**
     * A case's latency statistics.
     *
     * @param summary the case on its data plane
     * @param values  one spread per {@link LatencyStatistic}, in its order ({@code null}: not measured)
     */
    public record LatencyLine(CaseSummary summary, List<Spread> values) {
        public LatencyLine {
            values = Collections.unmodifiableList(new ArrayList<>(values)); // holds nulls: List.copyOf would refuse
        }
    }

    /**
     * CPU per transaction by component.
     *
     * @param columns the cases, one column each
     * @param lines   components in the order traffic meets them, each role ending in its total
     */
    public record ComponentTable(List<CaseSummary> columns, List<ComponentLine> lines) {
        public ComponentTable {
            columns = List.copyOf(columns);
            lines = List.copyOf(lines);
        }

        /** Whether there is nothing to show. */
        public boolean isEmpty() {
            return lines.isEmpty();
        }
    }

    /**
     * One component's line, or its role's total.
     *
     * @param component the component's name; {@code null} on a role's total line
     * @param role      its role
     * @param values    one spread per column ({@code null}: not measured)
     */
    public record ComponentLine(String component, ComponentRole role, List<Spread> values) {
        public ComponentLine {
            values = Collections.unmodifiableList(new ArrayList<>(values)); // holds nulls: List.copyOf would refuse
        }

        /** Whether this is a role's total. */
        public boolean total() {
            return component == null;
        }
    }

    /**
     * A data plane label and what its runs recorded of it.
     *
     * @param label       the label
     * @param versions    per component kind, in the order the runs list them: {@code kind: v1 / v2}; empty when not
     *                    recorded
     * @param workers     the proxies' worker threads over its runs
     * @param sidecarMtls whether sidecars talk mTLS to each other
     * @param entry       how the load entered the mesh ({@link DataPlaneInfo#entry()}): through the ingress gateway or
     *                    straight to the sidecars (the label says {@code no ingress} for the latter, so it is one
     *                    value per label)
     * @param tlsProvider the TLS provider(s) over its runs
     * @param runIds      the runs that used it
     */
    public record DataPlaneLine(String label, List<String> versions, String workers, boolean sidecarMtls,
            String entry, String tlsProvider, List<String> runIds) {
        public DataPlaneLine {
            versions = List.copyOf(versions);
            runIds = List.copyOf(runIds);
        }
    }

    /** An input's name and value. */
    public record InputValue(String header, String value) {
    }

    /**
     * A run with the inputs that vary between runs.
     *
     * @param run     the run
     * @param summary its case on its data plane
     * @param varying its values of {@link ReportTables#varying()}, in that order
     * @param file    its results.json, relative to the results folder when inside it
     */
    public record RunLine(LoadedRun run, CaseSummary summary, List<String> varying, String file) {
        public RunLine {
            varying = List.copyOf(varying);
        }
    }

    /**
     * A step of a run.
     *
     * @param run       the run
     * @param summary   its case on its data plane
     * @param step      the step
     * @param firstStep whether it is the run's first step
     */
    public record StepLine(LoadedRun run, CaseSummary summary, StepResult step, boolean firstStep) {
    }

    /** A note of a run's conversion. */
    public record NoteLine(String runId, String note) {
    }

    /** The tables of {@code model}, quoting {@code study} next to the comparison. */
    public static ReportTables of(ReportModel model, PublishedFigures.EgressStudy study) {
        List<LoadedRun> runs = runsInReportOrder(model);
        List<String> targets = model.loaded().runs().stream().map(r -> r.results().inputs().target().id()).distinct()
                .sorted().toList();
        List<RunInputs> all = runs.stream().map(r -> r.results().inputs()).toList();
        List<Input> inputs = new ArrayList<>(INPUTS);
        if (all.stream().anyMatch(in -> in.cluster() != null)) {
            inputs.add(CLUSTER);
        }
        List<Input> shared = all.isEmpty() ? List.of() : inputs.stream()
                .filter(i -> all.stream().map(i.value()).distinct().count() == 1).toList();
        List<Input> varying = inputs.stream().filter(i -> !shared.contains(i)).toList();
        List<RunLine> runLines = runs.stream().map(r -> new RunLine(r, summaryOf(model, r),
                varying.stream().map(i -> i.value().apply(r.results().inputs())).toList(),
                SkippedLine.relative(model.loaded().directory(), r.file()))).toList();
        List<StepLine> steps = new ArrayList<>();
        for (LoadedRun r : runs) {
            CaseSummary c = summaryOf(model, r);
            boolean first = true;
            for (StepResult s : r.results().steps()) {
                steps.add(new StepLine(r, c, s, first));
                first = false;
            }
        }
        List<NoteLine> notes = runs.stream()
                .flatMap(r -> r.results().notes().stream().map(n -> new NoteLine(r.runId(), n))).toList();
        List<SkippedLine> skipped = SkippedLine.of(model.loaded().directory(), model.loaded().skipped());
        return new ReportTables(model, Answer.of(model), SittingTable.of(model), study, targets, comparison(model), AttributionTable.of(model), latency(model),
                components(model),
                dataPlanes(runs), shared.isEmpty() ? List.of() : shared.stream()
                        .map(i -> new InputValue(i.header(), i.value().apply(all.get(0)))).toList(),
                varying.stream().map(Input::header).toList(), runLines, steps, skipped, notes);
    }

    /** The tables of {@code model} with the study's findings shipped with charts. */
    public static ReportTables of(ReportModel model) {
        return of(model, PublishedFigures.load().egress());
    }

    /** Whether some case ran more than once on a data plane. */
    public boolean repeats() {
        return model.cases().stream().anyMatch(c -> c.runs().size() > 1);
    }

    /** The results folder the runs were read from. */
    public String directory() {
        return model.loaded().directory().toString();
    }

    private static List<ComparisonLine> comparison(ReportModel m) {
        List<ComparisonLine> lines = new ArrayList<>();
        String previousPlane = null;
        for (ComparisonRow r : m.comparison()) {
            CaseSummary c = m.cases().stream().filter(x -> x.caseId().equals(r.caseId())
                    && x.dataPlane().equals(r.dataPlane())).findFirst().orElseThrow();
            boolean base = r.caseId().equals(ResultsSchema.BASELINE_CASE);
            boolean firstOfPlane = previousPlane != null && !previousPlane.equals(r.dataPlane());
            previousPlane = r.dataPlane();
            Baseline b = base ? Baseline.IS_BASELINE : r.hasBaseline() ? Baseline.PRESENT : Baseline.MISSING;
            lines.add(new ComparisonLine(r, c, firstOfPlane, b,
                    base ? "" : changeInterval(m, c, StepResult::throughputPerSecond),
                    base ? "" : changeInterval(m, c, s -> s.latencyMs() == null ? null : (double) s.latencyMs().p99()),
                    base ? "" : changeInterval(m, c, s -> s.cpu() == null || s.cpu().mesh() == null ? null
                            : s.cpu().mesh().cpuMsPerTransaction()),
                    c.errors(m.clients())));
        }
        return lines;
    }

    /**
     * The change of {@code figure} against bypass of the same data plane with its 95% interval and verdict, e.g.
     * {@code "-12.3 ± 4.1 %, significant"}; {@code "one run: no interval"} with a single run on either side; empty
     * when there is no bypass, nothing measured, or a bypass value of 0.
     *
     * @param figure the figure of the report's step; {@code null} when not measured
     */
    static String changeInterval(ReportModel m, CaseSummary c, Function<StepResult, Double> figure) {
        CaseSummary bypass = m.baseline(c.dataPlane());
        if (bypass == null) {
            return "";
        }
        List<Double> base = values(bypass, m.clients(), figure);
        List<Double> cand = values(c, m.clients(), figure);
        if (base.stream().mapToDouble(Double::doubleValue).sum() == 0) {
            return "";
        }
        if (base.isEmpty() || cand.isEmpty()) {
            return "";
        }
        Comparison cmp = new Comparison(new Sample(base), new Sample(cand));
        return switch (cmp.verdict()) {
            case UNKNOWN -> "one run: no interval";
            case SIGNIFICANT -> String.format(Locale.ROOT, "%+.1f \u00b1 %.1f %%, significant", cmp.changePercent(),
                    cmp.changeHalfWidthPercent());
            case WITHIN_NOISE -> String.format(Locale.ROOT, "%+.1f \u00b1 %.1f %%, within noise", cmp.changePercent(),
                    cmp.changeHalfWidthPercent());
        };
    }

    /** One value per run of {@code c} that measured {@code figure} at {@code clients}. */
    private static List<Double> values(CaseSummary c, int clients, Function<StepResult, Double> figure) {
        return c.runs().stream().map(r -> r.results().step(clients)).flatMap(Optional::stream)
                .map(figure).filter(Objects::nonNull).toList();
    }

    private static List<LatencyLine> latency(ReportModel m) {
        return m.cases().stream().map(c -> new LatencyLine(c, Arrays.stream(LatencyStatistic.values())
                .map(s -> c.latency(m.clients(), s)).toList())).toList();
    }

    private static ComponentTable components(ReportModel m) {
        Map<String, ComponentRole> roles = new TreeMap<>();
        Map<String, Map<String, List<Double>>> perCase = new LinkedHashMap<>();
        for (CaseSummary c : m.cases()) {
            Map<String, List<Double>> byComponent = new TreeMap<>();
            for (LoadedRun r : c.runs()) {
                StepResult s = r.results().step(m.clients()).orElse(null);
                if (s == null || s.cpu() == null) {
                    continue;
                }
                for (ComponentCpu cc : s.cpu().components()) {
                    roles.put(cc.component(), cc.role());
                    byComponent.computeIfAbsent(cc.component(), k -> new ArrayList<>()).add(cc.cpuMsPerTransaction());
                }
            }
            perCase.put(c.key(), byComponent);
        }
        if (roles.isEmpty()) {
            return new ComponentTable(m.cases(), List.of());
        }
        // in the order traffic meets them: the ingress gateway, sidecars, then the egress gateway, then the SNI proxy;
        // each role ends in a total
        Comparator<String> byPath = Comparator.comparing((String n) -> roles.get(n))
                .thenComparing(ComponentNames.trafficOrder());
        List<String> names = roles.keySet().stream().sorted(byPath).toList();
        List<ComponentLine> lines = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            ComponentRole role = roles.get(name);
            lines.add(new ComponentLine(name, role, m.cases().stream().map(c -> {
                List<Double> v = perCase.get(c.key()).get(name);
                return v == null ? null : Spread.of(v.stream().filter(Objects::nonNull).toList());
            }).toList()));
            if (i + 1 == names.size() || roles.get(names.get(i + 1)) != role) {
                lines.add(new ComponentLine(null, role, m.cases().stream()
                        .map(c -> c.cpuPerTransaction(m.clients(), role)).toList()));
            }
        }
        return new ComponentTable(m.cases(), lines);
    }

    /**
     * One line per data plane (label): the versions of each component kind, the proxies' worker threads and TLS
     * provider over its runs (several values when its runs differ), and which runs used it.
     */
    private static List<DataPlaneLine> dataPlanes(List<LoadedRun> runs) {
        Map<String, List<LoadedRun>> byLabel = new LinkedHashMap<>();
        for (LoadedRun r : runs) {
            byLabel.computeIfAbsent(r.dataPlaneLabel(), k -> new ArrayList<>()).add(r);
        }
        List<DataPlaneLine> lines = new ArrayList<>();
        for (Map.Entry<String, List<LoadedRun>> e : byLabel.entrySet()) {
            List<DataPlaneInfo> planes = e.getValue().stream().map(LoadedRun::dataPlane).toList();
            // component kinds in the order the runs list them (each run's map is in traffic order)
            List<String> kinds = new ArrayList<>();
            for (DataPlaneInfo p : planes) {
                int at = 0;
                for (String kind : p.versions().keySet()) {
                    int i = kinds.indexOf(kind);
                    if (i < 0) {
                        kinds.add(at, kind);
                        i = at;
                    }
                    at = i + 1;
                }
            }
            List<String> versions = kinds.stream().map(k -> k + ": " + distinct(planes.stream()
                    .filter(p -> p.versions().containsKey(k)).toList(), p -> p.versions().get(k), "", " / ")).toList();
            lines.add(new DataPlaneLine(e.getKey(), versions,
                    distinct(planes, p -> p.workers() == null ? null : p.workers().toString(), "not recorded", ", "),
                    planes.get(0).sidecarMtls(), planes.get(0).entry(),
                    distinct(planes, DataPlaneInfo::tlsProvider, "not recorded", ", "),
                    e.getValue().stream().map(LoadedRun::runId).toList()));
        }
        return lines;
    }

    /** The distinct values of {@code value} over {@code planes}, in order; {@code missing} stands for null. */
    private static String distinct(List<DataPlaneInfo> planes, Function<DataPlaneInfo, String> value, String missing,
            String separator) {
        return planes.stream().map(p -> Objects.requireNonNullElse(value.apply(p), missing)).distinct()
                .collect(Collectors.joining(separator));
    }

    /** An input shown per run, or once when every run has the same value. */
    private record Input(String header, Function<RunInputs, String> value) {
    }

    private static final List<Input> INPUTS = List.of(
            new Input("data plane", in -> in.dataPlaneOrUnknown().label()),
            new Input("target", in -> in.target().id()),
            new Input("client steps", in -> in.clientSteps().stream().map(String::valueOf)
                    .collect(Collectors.joining(", "))),
            new Input("load", ReportTables::load),
            new Input("step (s)", in -> Integer.toString(in.stepSeconds())),
            new Input("warm-up (s)", in -> Integer.toString(in.warmupSeconds())),
            new Input("think time (ms)", in -> Integer.toString(in.thinkTimeMs())),
            new Input("customers", in -> Integer.toString(in.customers())),
            new Input("meshbench", in -> in.versions().kit()),
            new Input("JDK", in -> in.versions().jdk()),
            new Input("JMeter", in -> in.versions().jmeter()),
            new Input("machine", in -> in.machine().cores() + " cores, "
                    + BigDecimal.valueOf(in.machine().memoryBytes() / (double) (1L << 30)).setScale(1, RoundingMode.HALF_UP)
                    .toPlainString() + " GiB, "
                    + in.machine().os()));

    /**
     * How hard a run was driven, the method its figures come from: a closed loop, a fixed rate given by hand, or a
     * fixed rate a calibration chose (which run, its maximum, the fraction).
     */
    static String load(RunInputs in) {
        var m = in.measurementOrDefault();
        if (m.targetRatePerSecond().isEmpty()) {
            return "closed loop (clients send back to back: throughput is what the machine gives)";
        }
        String rates = m.targetRatePerSecond().stream().distinct().map(dev.meshbench.model.settings.Parsers::plain)
                .collect(Collectors.joining(", ")) + " req/s";
        var c = m.calibration();
        return c == null ? "fixed rate " + rates + " (given)"
                : String.format(java.util.Locale.ROOT, "fixed rate %s, calibrated: %s of %s's closed-loop maximum %.1f tx/s at %d "
                        + "clients (run %s%s)", rates, dev.meshbench.model.settings.Parsers.plain(c.fraction()), c.caseId(),
                        c.maxPerSecond(), c.clients(), c.runId(), c.steady() ? "" : ", not steady");
    }

    /** Shown after {@link #INPUTS} when some run recorded its cluster (a report's runs share one target). */
    private static final Input CLUSTER = new Input("cluster", in -> in.cluster() == null ? "not recorded"
            : in.cluster().summary());

    private static CaseSummary summaryOf(ReportModel m, LoadedRun r) {
        return m.cases().stream().filter(c -> c.runs().contains(r)).findFirst().orElseThrow();
    }

    private static List<LoadedRun> runsInReportOrder(ReportModel m) {
        return m.cases().stream().flatMap(c -> c.runs().stream()).toList();
    }

}
