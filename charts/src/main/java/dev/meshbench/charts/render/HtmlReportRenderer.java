package dev.meshbench.charts.render;

import dev.meshbench.charts.model.AttributionTable;
import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.LatencyStatistic;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.ReportTables;
import dev.meshbench.charts.model.SittingTable;
import dev.meshbench.charts.model.Spread;
import dev.meshbench.charts.study.PublishedFigures;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.MeshPart;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.StepDrift;
import dev.meshbench.results.StepHost;
import dev.meshbench.results.StepRate;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.StepWork;
import dev.meshbench.results.stats.NoiseFloor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report page: one self-contained {@code index.html} (inline CSS, no scripts, images and CSV beside it)
 * with the figures, their numbers as tables, every run's inputs, what was skipped and why, and how the numbers
 * were made. A pure function of {@link ReportTables}: it formats the rows computed there into the records below
 * and evaluates the template {@code report.peb} ({@link Templates}), which holds the markup and the prose and
 * escapes everything a run wrote.
 */
public final class HtmlReportRenderer {
    /** File names the page links to. */
    public static final String THROUGHPUT_PNG = "throughput.png";
    public static final String LATENCY_PNG = "latency.png";
    public static final String CPU_PNG = "cpu-per-tx.png";
    public static final String LABELS_PNG = "labels-p99.png";
    public static final String STEPS_CSV = "steps.csv";
    /** Every run's steps per request type (JMeter label). */
    public static final String LABELS_CSV = "labels.csv";
    public static final String COMPARISON_CSV = "comparison.csv";
    /** The answer: one row per case against bypass, what its sentence says. */
    public static final String ANSWER_CSV = "answer.csv";
    /** The sittings, one row per window in position order. */
    public static final String SITTING_CSV = "sitting.csv";
    public static final String ATTRIBUTION_CSV = "attribution.csv";

    /** Changes beyond this many percent are colored (red worse, green better). */
    private static final double MARKED_CHANGE = 5;

    private HtmlReportRenderer() {
    }

    /** The page for {@code model} with the study's findings shipped with charts, generated at {@code now}. */
    public static String render(ReportModel model, Instant now) {
        return render(ReportTables.of(model), now);
    }

    /** The page as written into {@code outDir}: it links each run's JMeter dashboard relative to that folder. */
    public static String render(ReportModel model, Instant now, java.nio.file.Path outDir) {
        Map<String, Object> c = context(ReportTables.of(model), now, outDir);
        return Templates.render("report", c);
    }

    /**
     * The link from {@code outDir} to the JMeter dashboard in {@code run}'s folder ({@code dashboard/index.html}, made
     * by JMeter's report generator after the run), or {@code null} without one or without an output folder.
     */
    static String dashboard(dev.meshbench.charts.load.LoadedRun run, java.nio.file.Path outDir) {
        if (outDir == null || run.file() == null || run.file().getParent() == null) {
            return null;
        }
        java.nio.file.Path index = run.file().getParent().resolve("dashboard").resolve("index.html");
        return java.nio.file.Files.isRegularFile(index)
                ? outDir.toAbsolutePath().normalize().relativize(index.toAbsolutePath().normalize()).toString().replace('\\', '/')
                : null;
    }

    /** The page for {@code tables}, generated at {@code now}. */
    public static String render(ReportTables tables, Instant now) {
        return Templates.render("report", context(tables, now));
    }

    /**
     * A figure of a table cell, formatted: the mean over the runs, the half-width of its 95 % interval
     * ({@code null} with one run), and the lowest and highest run ({@code null} when they do not differ).
     */
    public record Value(String mean, String halfWidth, int runs, String min, String max) {
        static Value of(Spread s, int decimals) {
            if (s == null) {
                return null;
            }
            return new Value(Numbers.fixed(s.mean(), decimals),
                    s.halfWidth95() == null ? null : Numbers.fixed(s.halfWidth95(), decimals), s.n(),
                    s.varies() ? Numbers.fixed(s.min(), decimals) : null,
                    s.varies() ? Numbers.fixed(s.max(), decimals) : null);
        }
    }

    /** A change in percent against bypass, signed, and whether it is beyond the marked change (5 %) either way. */
    public record Change(String percent, boolean worse, boolean better) {
        static Change of(Double percent, boolean higherIsBetter) {
            if (percent == null) {
                return null;
            }
            return new Change(Numbers.signed(percent, 1),
                    higherIsBetter ? percent < -MARKED_CHANGE : percent > MARKED_CHANGE,
                    higherIsBetter ? percent > MARKED_CHANGE : percent < -MARKED_CHANGE);
        }
    }

    /** What the study published for a case that cost throughput: its change in percent. */
    public record Loss(String percent, String caseId) {
    }

    /** A line of the comparison table; {@code baseline} says whether the case is, has or lacks its bypass. */
    public record ComparedCase(String dataPlane, String color, String caseId, int runs, boolean first,
            ReportTables.Baseline baseline, Value throughput, Change throughputChange, String throughputInterval,
            Value peak, Change peakChange, Value p99, Change p99Change, String p99Interval, Value meshCpu,
            Change meshCpuChange, String meshCpuInterval, Value appCpu, Change appCpuChange, long errors) {
    }

    /** A case of the attribution table: its runs ({@code "1 of 2"} when not all are attributed) and figures. */
    public record AttributedCase(String dataPlane, String color, String caseId, String runs, boolean first,
            ReportTables.Baseline baseline, String absent, List<Part> mongo, Part mongoPath, Points points,
            List<Part> shared, Part sharedTotal) {
    }

    /** A figure of the attribution table with its change against bypass in ms/tx ({@code null}: none). */
    public record Part(Value value, String change, String changeHalfWidth) {
        static Part of(AttributionTable.Figure f) {
            Value v = Value.of(f.value(), 3);
            if (f.change() == null) {
                return new Part(v, null, null);
            }
            return new Part(v, Numbers.signed(f.change().estimate(), 3),
                    f.change().isKnown() ? Numbers.fixed(f.change().halfWidth(), 3) : null);
        }
    }

    /** The MongoDB path's change in points with its interval, and its verdict (a {@code Comparison.Verdict}). */
    public record Points(String points, String verdict) {
    }

    /** The noise floor of a data plane: {@code measured} is false without repeats. */
    public record Noise(String dataPlane, int cases, boolean measured, String moved, int runs, int degreesOfFreedom,
            int repeats, String detectable, int repeatsForSuggested, int normalRepeatsForSuggested) {
    }

    /** A line of the response-time table. */
    public record LatencyCase(String color, String key, List<Value> values) {
    }

    /** A table of response time per request type: its data plane, case columns and rows. */
    public record LabelView(String dataPlane, List<ComponentColumn> columns, List<LabelRow> rows) {
    }

    /** A request type's row: per case, rate, P50, P99 and the P99's change against bypass. */
    public record LabelRow(String label, List<LabelCell> cells) {
    }

    /** One case's cell of a request type's row. */
    public record LabelCell(Value rate, Value p50, Value p99, Change p99Change) {
    }

    /** A column of the component table. */
    public record ComponentColumn(String color, String caseId, String dataPlane) {
    }

    /** A component's line of the component table, or its role's total ({@code name} is then {@code null}). */
    public record ComponentRow(String name, String role, List<Value> values) {
    }

    /**
     * A line of the steps table. {@code latency} is avg, median, p90, p95, p99 and max, {@code null} without a
     * successful request; {@code rate}, {@code overran} and {@code host} are {@code null} where not recorded.
     */
    public record StepRow(boolean first, String runId, String color, String caseId, String dataPlane, int clients,
            long transactions, long errors, long warmupSkipped, String throughput, boolean notSteady, Rate rate,
            Overran overran, List<String> latency, String meshCpu, String appCpu, String mongoCommands,
            String serviceCalls, String mongoPathBytes, Host host) {
    }

    /** The fixed rate a step achieved of its target, requests per second, and whether it held. */
    public record Rate(String achieved, String target, boolean held) {
    }

    /** How long a step that overran ran, and its plan, seconds. */
    public record Overran(String seconds, int planned) {
    }

    /** The host during a step: CPU busy %, run queue, the load generator's CPU %. */
    public record Host(String busy, boolean saturated, String runQueue, String loadGenerator) {
    }

    /** A run with when it started and the inputs that vary between runs. */
    public record RunRow(String runId, String color, String caseId, String started, List<String> varying,
            String file, String dashboard) {
    }

    /** A data plane's answer: its heading and one sentence per case other than bypass. */
    public record AnswerPlane(String heading, List<AnswerSentence> sentences) {
    }

    /** A case's sentence: its color, its name and the rest of the sentence. */
    public record AnswerSentence(String color, String caseId, String text) {
    }

    /**
     * A sitting: its id, method, data planes, the cases of a round in order (the table's columns), its calibration in
     * words ({@code null} when its calibration run is not in the report) and one row per round.
     */
    public record SittingView(String id, String method, boolean switched, String dataPlanes, int rounds,
            List<ComponentColumn> columns, String calibration, List<RoundRow> rows) {
    }

    /** A round of a sitting: one cell per column ({@code null}: no usable run of that case in that round). */
    public record RoundRow(int round, List<WindowCell> cells) {
    }

    /**
     * A case-window: its position in the sitting, run, how long the switch into it took ({@code null}: not switched,
     * {@code first} says whether it opened the sitting), what the switch changed, the fixed rate it held
     * ({@code null} for a closed loop), and the JVM still compiling while it measured ({@code null}: none).
     */
    public record WindowCell(int position, String runId, String switchSeconds, boolean first, String switched,
            Rate rate, String jitBusy) {
    }

    /** The template's variables for {@code t}. */
    static Map<String, Object> context(ReportTables t, Instant now) {
        return context(t, now, null);
    }

    /** The template's variables for {@code t}, with links relative to {@code outDir} (null: no run links). */
    static Map<String, Object> context(ReportTables t, Instant now, java.nio.file.Path outDir) {
        ReportModel m = t.model();
        Map<String, Object> c = new HashMap<>();
        c.put("generated", Templates.time(now));
        c.put("bypass", ResultsSchema.BASELINE_CASE);
        c.put("markedChange", Numbers.plain(MARKED_CHANGE, 0));
        c.put("files", Map.of("throughput", THROUGHPUT_PNG, "latency", LATENCY_PNG, "cpu", CPU_PNG,
                "labelsChart", LABELS_PNG, "steps", STEPS_CSV, "labels", LABELS_CSV, "comparison", COMPARISON_CSV,
                "attribution", ATTRIBUTION_CSV, "answer", ANSWER_CSV, "sitting", SITTING_CSV));
        c.put("chartWidth", ChartStyle.WIDTH);
        c.put("meshDefinition", ComponentRole.MESH.definition());
        c.put("appDefinition", ComponentRole.APP.definition());
        c.put("directory", t.directory());
        c.put("runCount", m.loaded().runs().size());
        c.put("caseCount", m.caseIds().size());
        c.put("planeCount", m.dataPlanes().size());
        c.put("casesWithRuns", m.cases().stream().map(Labels::caseWithRuns).toList());
        c.put("targets", t.targets());
        c.put("clientSteps", m.clientSteps());
        c.put("clients", m.clients());
        c.put("entries", t.entries());
        c.put("repeats", t.repeats());
        c.put("warnings", m.warnings());
        c.put("skipped", t.skipped());
        c.put("hasCases", !m.cases().isEmpty());
        c.put("losses", losses(t.study()));
        c.put("answer", t.answer().planes().stream().map(p -> new AnswerPlane(p.heading(), p.sentences().stream()
                .map(x -> new AnswerSentence(color(m, x.summary()), x.caseId(), x.text())).toList())).toList());
        c.put("withinNoise", dev.meshbench.charts.model.Answer.WITHIN_NOISE);
        sittings(c, t);
        c.put("throughputChart", m.hasClosedLoop());
        c.put("fixedRate", m.cases().stream().anyMatch(x -> !x.closedLoop()));
        c.put("comparison", t.comparison().stream().map(l -> compared(m, l)).toList());
        attribution(c, t);
        c.put("statistics", Arrays.stream(LatencyStatistic.values()).map(LatencyStatistic::label).toList());
        c.put("latency", t.latency().stream().map(l -> new LatencyCase(color(m, l.summary()), l.summary().key(),
                l.values().stream().map(v -> Value.of(v, 1)).toList())).toList());
        c.put("labelTables", dev.meshbench.charts.model.LabelTable.of(m).stream().map(lt -> new LabelView(lt.dataPlane(),
                lt.cases().stream().map(cs -> new ComponentColumn(color(m, cs), cs.caseId(), cs.dataPlane())).toList(),
                lt.rows().stream().map(r -> new LabelRow(r.label(), r.cells().stream().map(cell -> new LabelCell(
                        Value.of(cell.rate(), 1), Value.of(cell.p50(), 1), Value.of(cell.p99(), 1),
                        Change.of(cell.p99ChangePercent(), false))).toList())).toList())).toList());
        c.put("componentColumns", t.components().columns().stream().map(s -> new ComponentColumn(color(m, s),
                s.caseId(), s.dataPlane())).toList());
        c.put("components", t.components().lines().stream().map(l -> new ComponentRow(l.component(), l.role().id(),
                l.values().stream().map(v -> Value.of(v, 3)).toList())).toList());
        c.put("saturatedMeaning", StepHost.SATURATED_MEANING.substring("saturated: ".length()));
        c.put("meaning", Map.of("notSteady", StepDrift.NOT_STEADY_MEANING, "rateNotHeld", StepRate.NOT_HELD_MEANING,
                "overran", StepWindow.OVERRAN_MEANING, "jitBusy", dev.meshbench.results.StepWork.JIT_BUSY_MEANING));
        c.put("steps", t.steps().stream().map(l -> step(m, l)).toList());
        c.put("dataPlanes", t.dataPlanes());
        c.put("shared", t.shared());
        c.put("varying", t.varying());
        c.put("runs", t.runs().stream().map(r -> new RunRow(r.run().runId(), color(m, r.summary()),
                r.run().caseId(), Templates.time(r.run().results().inputs().startTime()), r.varying(), r.file(),
                dashboard(r.run(), outDir))).toList());
        c.put("notes", t.notes());
        return c;
    }

    /** What the study published for the cases that cost throughput, in its order. */
    static List<Loss> losses(PublishedFigures.EgressStudy study) {
        return study.throughputLosses().stream().map(c -> new Loss(c.throughputChangePercent().stripTrailingZeros()
                .toPlainString(), c.caseId())).toList();
    }

    private static ComparedCase compared(ReportModel m, ReportTables.ComparisonLine line) {
        var r = line.row();
        return new ComparedCase(r.dataPlane(), color(m, line.summary()), r.caseId(), r.runs(), line.firstOfPlane(),
                line.baseline(), Value.of(r.throughput(), 1), Change.of(r.throughputChange(), true),
                line.throughputInterval(), Value.of(r.peak(), 1), Change.of(r.peakChange(), true),
                Value.of(r.p99(), 1), Change.of(r.p99Change(), false), line.p99Interval(), Value.of(r.meshCpu(), 3),
                Change.of(r.meshCpuChange(), false), line.meshCpuInterval(), Value.of(r.appCpu(), 3),
                Change.of(r.appCpuChange(), false), line.errors());
    }

    private static void attribution(Map<String, Object> c, ReportTables t) {
        ReportModel m = t.model();
        AttributionTable a = t.attribution();
        c.put("mongoParts", MeshPart.side(true).stream().map(MeshPart::label).toList());
        c.put("sharedParts", MeshPart.side(false).stream().map(MeshPart::label).toList());
        List<AttributedCase> lines = new ArrayList<>();
        String previousPlane = null;
        for (AttributionTable.Line line : a.lines()) {
            CaseSummary s = line.summary();
            boolean first = previousPlane != null && !previousPlane.equals(s.dataPlane());
            previousPlane = s.dataPlane();
            String runs = line.runs() == s.runs().size() ? Integer.toString(line.runs())
                    : line.runs() + " of " + s.runs().size();
            if (!line.attributed()) {
                lines.add(new AttributedCase(s.dataPlane(), color(m, s), s.caseId(), runs, first, line.baseline(),
                        line.absent(), List.of(), null, null, List.of(), null));
                continue;
            }
            Points points = line.mongoPathPoints() == null ? null : new Points(
                    AttributionTable.signed(line.mongoPathPoints()), line.mongoPath().verdict().name());
            lines.add(new AttributedCase(s.dataPlane(), color(m, s), s.caseId(), runs, first, line.baseline(), null,
                    MeshPart.side(true).stream().map(p -> Part.of(line.parts().get(p))).toList(),
                    Part.of(line.mongoPath()), points,
                    MeshPart.side(false).stream().map(p -> Part.of(line.parts().get(p))).toList(),
                    Part.of(line.shared())));
        }
        c.put("attribution", lines);
        c.put("noise", a.noise().stream().map(n -> n.floor() == null
                ? new Noise(n.dataPlane(), n.cases(), false, null, n.runs(), 0, n.repeats(), null, 0, 0)
                : new Noise(n.dataPlane(), n.cases(), true, percent(n.floor().relativeSd()), n.runs(),
                        n.floor().degreesOfFreedom(), n.repeats(),
                        n.repeats() >= 2 ? percent(n.detectableDifference()) : null, n.repeatsForSuggested(),
                        n.normalRepeatsForSuggested())).toList());
        c.put("repeatsSetting", Catalogue.REPEATS.name());
        c.put("suggestedDifference", Numbers.plain(AttributionTable.SUGGESTED_DIFFERENCE * 100, 0));
        c.put("exampleNoise", Numbers.plain(AttributionTable.EXAMPLE_NOISE * 100, 0));
        c.put("exampleRepeats", NoiseFloor.repeatsFor(AttributionTable.EXAMPLE_NOISE,
                AttributionTable.SUGGESTED_DIFFERENCE));
    }

    private static void sittings(Map<String, Object> c, ReportTables t) {
        ReportModel m = t.model();
        SittingTable table = t.sittings();
        Map<String, String> calibrations = new HashMap<>();
        table.calibrations().forEach(x -> calibrations.put(x.runId(), x.summary()));
        List<SittingView> views = new ArrayList<>();
        for (SittingTable.Sitting st : table.sittings()) {
            List<ComponentColumn> columns = st.order().stream().map(caseId -> new ComponentColumn(
                    st.windows().stream().filter(w -> w.caseId().equals(caseId) && !w.calibration()).findFirst()
                            .map(w -> color(m, summaryOf(m, w.run()))).orElse("#999999"), caseId,
                    String.join(", ", st.dataPlanes()))).toList();
            List<RoundRow> rows = new ArrayList<>();
            for (int round = 1; round <= st.rounds(); round++) {
                int r = round;
                rows.add(new RoundRow(round, st.order().stream().map(caseId -> st.window(r, caseId).map(w -> {
                    var si = w.sitting();
                    var step = w.step();
                    Rate rate = step == null || step.rate() == null ? null : new Rate(
                            Numbers.fixed(step.rate().achievedPerSecond(), 1), Numbers.fixed(step.rate().targetPerSecond(), 1),
                            step.rate().held());
                    boolean first = st.windows().stream().filter(x -> !x.calibration()).findFirst()
                            .map(x -> x == w).orElse(false);
                    String jit = step == null ? null : step.busiestJit(w.run().results().inputs().measurementOrDefault())
                            .map(e -> e.getKey() + " " + Numbers.fixed(e.getValue(), 0) + "\u00a0ms").orElse(null);
                    return new WindowCell(si.position(), w.run().runId(),
                            si.switchSeconds() == null ? null : Numbers.fixed(si.switchSeconds(), 1), first,
                            String.join("; ", si.switched()), rate, jit);
                }).orElse(null)).toList()));
            }
            // its calibration run's, or its own warm-up's (recorded under the sitting's id)
            String calibration = st.calibration().map(w -> calibrations.get(w.run().runId()))
                    .orElse(calibrations.get(st.id()));
            views.add(new SittingView(st.id(), st.method(), st.switched(), String.join(", ", st.dataPlanes()),
                    st.rounds(), columns, calibration, rows));
        }
        c.put("sittings", views);
        // the calibrations that head no sitting's table: without a sitting record, or not in the folder
        java.util.Set<String> shown = new java.util.HashSet<>();
        table.sittings().forEach(st -> {
            st.calibration().ifPresent(w -> shown.add(w.run().runId()));
            shown.add(st.id());
        });
        c.put("calibrations", table.calibrations().stream().filter(x -> !shown.contains(x.runId()))
                .map(SittingTable.Calibration::summary).toList());
        c.put("bypassSwitches", table.sittings().stream().filter(SittingTable.Sitting::switched)
                .map(SittingTable.Sitting::bypassSwitch).filter(java.util.Objects::nonNull).distinct().toList());
        c.put("switchedSittings", table.sittings().stream().anyMatch(SittingTable.Sitting::switched));
    }

    private static CaseSummary summaryOf(ReportModel m, dev.meshbench.charts.load.LoadedRun r) {
        return m.cases().stream().filter(x -> x.runs().contains(r)).findFirst().orElseThrow();
    }

    private static StepRow step(ReportModel m, ReportTables.StepLine line) {
        StepResult s = line.step();
        RunInputs inputs = line.run().results().inputs();
        StepWindow window = inputs.steps().stream().filter(x -> x.clients() == s.clients()).findFirst().orElse(null);
        Overran overran = window != null && window.overran(inputs.stepSeconds())
                ? new Overran(Numbers.fixed(window.lengthMs() / 1000.0, 0), inputs.stepSeconds()) : null;
        Rate rate = s.rate() == null ? null : new Rate(Numbers.fixed(s.rate().achievedPerSecond(), 1),
                Numbers.fixed(s.rate().targetPerSecond(), 1), !s.rateNotHeld());
        LatencyStats l = s.latencyMs();
        List<String> latency = l == null ? null : List.of(Numbers.fixed(l.avg(), 1), String.valueOf(l.median()),
                String.valueOf(l.p90()), String.valueOf(l.p95()), String.valueOf(l.p99()), String.valueOf(l.max()));
        Double mesh = s.cpu() == null || s.cpu().mesh() == null ? null : s.cpu().mesh().cpuMsPerTransaction();
        Double app = s.cpu() == null || s.cpu().app() == null ? null : s.cpu().app().cpuMsPerTransaction();
        StepWork w = s.work();
        StepHost h = s.host();
        Host host = h == null ? null : new Host(Numbers.fixed(h.busyPercent(), 1), h.saturated(),
                Numbers.fixed(h.runQueue(), 1), fixedOrEmpty(h.loadGeneratorCpuPercent(), 0));
        return new StepRow(line.firstStep(), line.run().runId(), color(m, line.summary()), line.run().caseId(),
                line.run().dataPlaneLabel(), s.clients(), s.transactions(), s.errors(), s.warmupSamplesSkipped(),
                Numbers.fixed(s.throughputPerSecond(), 1), s.notSteady(), rate, overran, latency,
                fixedOrEmpty(mesh, 3), fixedOrEmpty(app, 3),
                fixedOrEmpty(w == null ? null : w.mongoCommandsPerTransaction(), 2),
                fixedOrEmpty(w == null ? null : w.interServiceCallsPerTransaction(), 2),
                fixedOrEmpty(w == null ? null : w.mongoPathBytesPerTransaction(), 0), host);
    }

    /** The color of a case and data plane, as in the charts: {@code #rrggbb}. */
    private static String color(ReportModel m, CaseSummary summary) {
        return String.format(Locale.ROOT, "#%06x", Labels.color(m, summary).getRGB() & 0xffffff);
    }

    private static String percent(double fraction) {
        return Numbers.fixed(fraction * 100, 1);
    }

    private static String fixedOrEmpty(Double value, int decimals) {
        return value == null ? "" : Numbers.fixed(value, decimals);
    }
}
