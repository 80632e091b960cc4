package dev.meshbench.charts.render;

import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.charts.model.Answer;
import dev.meshbench.charts.model.AttributionTable;
import dev.meshbench.charts.model.ComparisonRow;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.SittingTable;
import dev.meshbench.charts.model.Spread;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.MeshPart;
import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.SittingInfo;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWork;
import dev.meshbench.results.stats.Interval;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's CSV files. Numbers use a decimal point and no grouping whatever the default locale; an
 * empty cell means "not measured" (no transactions, no CPU samples, no baseline). Lines end with {@code \n}.
 */
public final class CsvReportWriter {
    /** Header of steps.csv. */
    public static final List<String> STEPS_HEADER = List.of("runId", "caseId", "dataPlane", "target", "clients",
            "measuredSeconds", "samples", "warmupSamplesSkipped", "lateSamplesSkipped", "transactions", "errors",
            "throughputPerSecond", "latencyMinMs", "latencyAvgMs", "latencyMedianMs", "latencyP90Ms", "latencyP95Ms",
            "latencyP99Ms", "latencyMaxMs", "meshCpuMs", "meshCpuMsPerTransaction", "appCpuMs",
            "appCpuMsPerTransaction", "databaseCpuMsPerTransaction", "loadCpuMsPerTransaction",
            "mongoCommandsPerTransaction", "interServiceCallsPerTransaction", "mongoPathBytesPerTransaction",
            "hostBusyPercent", "hostRunQueue", "loadGeneratorCpuPercent", "saturated", "steady", "targetRatePerSecond",
            "achievedRatePerSecond", "rateHeld");
    /** Header of labels.csv. */
    public static final List<String> LABELS_HEADER = List.of("runId", "caseId", "dataPlane", "target", "clients", "label",
            "samples", "transactions", "errors", "throughputPerSecond", "latencyAvgMs", "latencyMedianMs", "latencyP90Ms",
            "latencyP95Ms", "latencyP99Ms", "latencyMaxMs");
    /** Header of comparison.csv. */
    public static final List<String> COMPARISON_HEADER = List.of("caseId", "dataPlane", "runs", "clients",
            "throughputPerSecond", "throughputMin", "throughputMax", "throughputChangePercent",
            "peakThroughputPerSecond", "peakThroughputChangePercent", "p99Ms", "p99MinMs", "p99MaxMs",
            "p99ChangePercent", "meshCpuMsPerTransaction", "meshCpuMin", "meshCpuMax", "meshCpuChangePercent",
            "appCpuMsPerTransaction", "appCpuChangePercent");
    /** Header of attribution.csv. */
    public static final List<String> ATTRIBUTION_HEADER = List.of("caseId", "dataPlane", "clients", "runs", "part",
            "side", "cpuMsPerTransaction", "cpuMsPerTransactionMin", "cpuMsPerTransactionMax", "halfWidth95",
            "changeMsPerTransaction", "changeHalfWidth95", "changeVerdict", "changePoints", "changePointsHalfWidth95",
            "note");
    /** Header of answer.csv. */
    public static final List<String> ANSWER_HEADER = List.of("dataPlane", "caseId", "clients", "targetRatePerSecond",
            "method", "sittings", "pairing", "rounds", "caseRuns", "bypassRuns", "mongoPathChangeMsPerTransaction",
            "mongoPathChangeHalfWidth95", "mongoPathChangePoints", "mongoPathChangePointsHalfWidth95", "mongoPathVerdict",
            "p99ChangeMs", "p99ChangeHalfWidth95", "p99Verdict", "p50ChangeMs", "p50ChangeHalfWidth95", "p50Verdict",
            "sentence");
    /** Header of sitting.csv. */
    public static final List<String> SITTING_HEADER = List.of("sitting", "method", "position", "round", "caseId", "runId",
            "dataPlane", "calibration", "switchSeconds", "targetRatePerSecond", "achievedRatePerSecond", "rateHeld",
            "throughputPerSecond", "switched");
    /** The {@code part} of attribution.csv's rows for the two sides' totals. */
    public static final String MONGO_PATH = "mongo-path";
    public static final String SHARED = "shared";

    private CsvReportWriter() {
    }

    /**
     * One row per run and step, in report order (data plane, case, run id, run's step order); {@code dataPlane} is
     * the data plane's label ({@code netty}, {@code envoy}, {@code netty (no sidecar mTLS)}).
     */
    public static String steps(ReportModel model) {
        StringBuilder b = new StringBuilder();
        line(b, STEPS_HEADER);
        for (LoadedRun run : model.cases().stream().flatMap(c -> c.runs().stream()).toList()) {
            for (StepResult s : run.results().steps()) {
                LatencyStats l = s.latencyMs();
                List<String> row = new ArrayList<>(List.of(run.runId(), run.caseId(), run.dataPlaneLabel(),
                        run.results().inputs().target().id(), Integer.toString(s.clients()),
                        Numbers.plain(s.measuredSeconds(), 3), Long.toString(s.samples()),
                        Long.toString(s.warmupSamplesSkipped()), Long.toString(s.lateSamplesSkipped()),
                        Long.toString(s.transactions()), Long.toString(s.errors()),
                        Numbers.plain(s.throughputPerSecond(), 3)));
                if (l == null) {
                    row.addAll(List.of("", "", "", "", "", "", ""));
                } else {
                    row.addAll(List.of(Long.toString(l.min()), Numbers.plain(l.avg(), 3), Long.toString(l.median()),
                            Long.toString(l.p90()), Long.toString(l.p95()), Long.toString(l.p99()),
                            Long.toString(l.max())));
                }
                RoleCpu mesh = s.cpu() == null ? null : s.cpu().mesh();
                RoleCpu app = s.cpu() == null ? null : s.cpu().app();
                row.add(mesh == null ? "" : Numbers.plain(mesh.cpuMillis(), 3));
                row.add(perTx(mesh));
                row.add(app == null ? "" : Numbers.plain(app.cpuMillis(), 3));
                row.add(perTx(app));
                row.add(perTx(s.cpu() == null ? null : s.cpu().role(ComponentRole.DATABASE)));
                row.add(perTx(s.cpu() == null ? null : s.cpu().role(ComponentRole.LOAD)));
                StepWork w = s.work();
                row.add(w == null || w.mongoCommandsPerTransaction() == null ? "" : Numbers.plain(w.mongoCommandsPerTransaction(), 3));
                row.add(w == null || w.interServiceCallsPerTransaction() == null ? "" : Numbers.plain(w.interServiceCallsPerTransaction(), 3));
                row.add(w == null || w.mongoPathBytesPerTransaction() == null ? "" : Numbers.plain(w.mongoPathBytesPerTransaction(), 1));
                var host = s.host();
                row.add(host == null ? "" : Numbers.plain(host.busyPercent(), 1));
                row.add(host == null ? "" : Numbers.plain(host.runQueue(), 2));
                row.add(host == null || host.loadGeneratorCpuPercent() == null ? "" : Numbers.plain(host.loadGeneratorCpuPercent(), 1));
                row.add(host == null ? "" : Boolean.toString(host.saturated()));
                row.add(s.drift() == null ? "" : Boolean.toString(s.drift().steady()));
                row.add(s.rate() == null ? "" : Numbers.plain(s.rate().targetPerSecond(), 3));
                row.add(s.rate() == null ? "" : Numbers.plain(s.rate().achievedPerSecond(), 3));
                row.add(s.rate() == null ? "" : Boolean.toString(s.rate().held()));
                line(b, row);
            }
        }
        return b.toString();
    }

    /**
     * One row per run, step and request type (JMeter label), in the order of {@link #steps} and then by label; runs
     * converted before schema version 6 have no rows. Latency cells are empty for a label without transactions.
     */
    public static String labels(ReportModel model) {
        StringBuilder b = new StringBuilder();
        line(b, LABELS_HEADER);
        for (LoadedRun run : model.cases().stream().flatMap(c -> c.runs().stream()).toList()) {
            for (StepResult s : run.results().steps()) {
                for (dev.meshbench.results.LabelResult r : s.labels()) {
                    LatencyStats l = r.latencyMs();
                    List<String> row = new ArrayList<>(List.of(run.runId(), run.caseId(), run.dataPlaneLabel(),
                            run.results().inputs().target().id(), Integer.toString(s.clients()), r.label(),
                            Long.toString(r.samples()), Long.toString(r.transactions()), Long.toString(r.errors()),
                            Numbers.plain(r.throughputPerSecond(), 3)));
                    if (l == null) {
                        row.addAll(List.of("", "", "", "", "", ""));
                    } else {
                        row.addAll(List.of(Numbers.plain(l.avg(), 3), Long.toString(l.median()), Long.toString(l.p90()),
                                Long.toString(l.p95()), Long.toString(l.p99()), Long.toString(l.max())));
                    }
                    line(b, row);
                }
            }
        }
        return b.toString();
    }

    /**
     * One row per case and data plane: its figures at the report's client count and the change against bypass of
     * the same data plane (empty when that data plane has no bypass run).
     */
    public static String comparison(ReportModel model) {
        StringBuilder b = new StringBuilder();
        line(b, COMPARISON_HEADER);
        for (ComparisonRow r : model.comparison()) {
            List<String> row = new ArrayList<>(List.of(r.caseId(), r.dataPlane(), Integer.toString(r.runs()),
                    Integer.toString(model.clients())));
            spread(row, r.throughput(), 3);
            row.add(percent(r.throughputChange()));
            row.add(r.peak() == null ? "" : Numbers.plain(r.peak().mean(), 3));
            row.add(percent(r.peakChange()));
            spread(row, r.p99(), 3);
            row.add(percent(r.p99Change()));
            spread(row, r.meshCpu(), 4);
            row.add(percent(r.meshCpuChange()));
            row.add(r.appCpu() == null ? "" : Numbers.plain(r.appCpu().mean(), 4));
            row.add(percent(r.appCpuChange()));
            line(b, row);
        }
        return b.toString();
    }

    /**
     * One row per case, data plane and part of mesh CPU per transaction at the report's client count
     * ({@link AttributionTable}): each {@link MeshPart} (its id in lower case with dashes, e.g. {@code sidecars-mongo}),
     * then the sides' totals {@value #MONGO_PATH} and {@value #SHARED}; {@code side} says which side a part is on.
     * Values are ms per transaction: the mean over the case's attributed runs, lowest and highest run, the mean's 95%
     * half-width; the change against bypass of the same data plane with its 95% half-width (Welch) and verdict
     * ({@code significant}, {@code within-noise}, {@code unknown}); the change in points, percent of bypass's mean
     * mesh CPU per transaction (empty for bypass and without one). A case without an attribution has one row whose
     * {@code note} says why.
     */
    public static String attribution(ReportModel model) {
        AttributionTable table = AttributionTable.of(model);
        StringBuilder b = new StringBuilder();
        line(b, ATTRIBUTION_HEADER);
        for (AttributionTable.Line l : table.lines()) {
            List<String> head = List.of(l.summary().caseId(), l.summary().dataPlane(), Integer.toString(model.clients()),
                    Integer.toString(l.runs()));
            if (!l.attributed()) {
                List<String> row = new ArrayList<>(head);
                row.addAll(List.of("", "", "", "", "", "", "", "", "", "", "", l.absent()));
                line(b, row);
                continue;
            }
            for (MeshPart p : MeshPart.values()) {
                attributionRow(b, head, p.name().toLowerCase(Locale.ROOT).replace('_', '-'), p.onMongoPath(),
                        l.parts().get(p));
            }
            attributionRow(b, head, MONGO_PATH, true, l.mongoPath());
            attributionRow(b, head, SHARED, false, l.shared());
        }
        return b.toString();
    }

    /**
     * The answer ({@link Answer}): one row per case other than bypass and data plane, in report order, with what its
     * sentence says as numbers: the MongoDB path's change against bypass in ms per transaction and in points of
     * bypass's mesh CPU per transaction, the P99's and P50's in ms, each with its 95% half-width and verdict
     * ({@code significant}, {@code within-noise}, {@code unknown}: one round), how the runs were paired
     * ({@code round}, {@code repeat}, {@code unpaired}; empty when not compared) and from how many rounds; then the
     * sentence itself. {@code targetRatePerSecond} is empty for a closed loop; {@code method} is {@code fresh} for runs
     * that recorded no sitting.
     */
    public static String answer(ReportModel model) {
        StringBuilder b = new StringBuilder();
        line(b, ANSWER_HEADER);
        for (Answer.Plane p : Answer.of(model).planes()) {
            for (Answer.Sentence s : p.sentences()) {
                List<String> row = new ArrayList<>(List.of(p.dataPlane(), s.caseId(), Integer.toString(model.clients()),
                        s.summary().runs().stream().map(r -> answerRate(r, model.clients())).filter(x -> !x.isEmpty())
                                .distinct().collect(java.util.stream.Collectors.joining(" ")),
                        s.summary().runs().stream().map(r -> {
                            SittingInfo si = SittingTable.sitting(r);
                            return si == null ? SittingInfo.FRESH : si.method();
                        }).distinct().sorted().collect(java.util.stream.Collectors.joining(" ")),
                        String.join(" ", s.sittings()),
                        s.pairing() == null ? "" : s.pairing().name().toLowerCase(Locale.ROOT),
                        s.pairing() == null || s.pairing() == Answer.Pairing.UNPAIRED ? "" : Integer.toString(s.pairs()),
                        s.pairing() == null ? "" : Integer.toString(s.caseRuns()),
                        s.pairing() == null ? "" : Integer.toString(s.bypassRuns())));
                change(row, s.mongoPath(), 4);
                Interval points = s.mongoPath() == null ? null : s.mongoPath().points();
                row.add(points == null ? "" : Numbers.plain(points.estimate(), 2));
                row.add(points == null || !points.isKnown() ? "" : Numbers.plain(points.halfWidth(), 2));
                row.add(verdict(s.mongoPath()));
                change(row, s.p99(), 3);
                row.add(verdict(s.p99()));
                change(row, s.p50(), 3);
                row.add(verdict(s.p50()));
                row.add(s.line());
                line(b, row);
            }
        }
        return b.toString();
    }

    /**
     * The sittings ({@link SittingTable}): one row per window, sittings by id and each in position order (the
     * calibration, position 0, first): its round, case, run, data plane, whether it is the calibration, how long the
     * switch into its case took (empty for the first window and the fresh method), the fixed rate it held (target,
     * achieved, held; empty for a closed loop), its throughput (a calibration's: bypass's closed-loop maximum) and
     * what the switch changed, {@code ; }-separated.
     */
    public static String sitting(ReportModel model) {
        StringBuilder b = new StringBuilder();
        line(b, SITTING_HEADER);
        for (SittingTable.Sitting st : SittingTable.of(model).sittings()) {
            for (SittingTable.Window w : st.windows()) {
                StepResult s = w.step();
                var rate = s == null ? null : s.rate();
                line(b, List.of(st.id(), w.sitting().method(), Integer.toString(w.sitting().position()),
                        Integer.toString(w.sitting().round()), w.caseId(), w.run().runId(), w.run().dataPlaneLabel(),
                        Boolean.toString(w.calibration()),
                        w.sitting().switchSeconds() == null ? "" : Numbers.plain(w.sitting().switchSeconds(), 3),
                        rate == null ? "" : Numbers.plain(rate.targetPerSecond(), 3),
                        rate == null ? "" : Numbers.plain(rate.achievedPerSecond(), 3),
                        rate == null ? "" : Boolean.toString(rate.held()),
                        s == null ? "" : Numbers.plain(s.throughputPerSecond(), 3),
                        String.join("; ", w.sitting().switched())));
            }
        }
        return b.toString();
    }

    private static String answerRate(LoadedRun r, int clients) {
        Double rate = Answer.targetRate(r, clients);
        return rate == null ? "" : Numbers.plain(rate, 3);
    }

    private static void change(List<String> row, Answer.Change c, int decimals) {
        row.add(c == null ? "" : Numbers.plain(c.value().estimate(), decimals));
        row.add(c == null || !c.value().isKnown() ? "" : Numbers.plain(c.value().halfWidth(), decimals));
    }

    private static String verdict(Answer.Change c) {
        return c == null ? "" : c.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static void attributionRow(StringBuilder b, List<String> head, String part, boolean mongoPath,
            AttributionTable.Figure f) {
        List<String> row = new ArrayList<>(head);
        row.add(part);
        row.add(mongoPath ? MONGO_PATH : SHARED);
        spread(row, f.value(), 4);
        row.add(f.value().halfWidth95() == null ? "" : Numbers.plain(f.value().halfWidth95(), 4));
        Interval c = f.change();
        row.add(c == null ? "" : Numbers.plain(c.estimate(), 4));
        row.add(c == null || !c.isKnown() ? "" : Numbers.plain(c.halfWidth(), 4));
        row.add(f.verdict() == null ? "" : f.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        Interval points = f.points();
        row.add(points == null ? "" : Numbers.plain(points.estimate(), 2));
        row.add(points == null || !points.isKnown() ? "" : Numbers.plain(points.halfWidth(), 2));
        row.add("");
        line(b, row);
    }

    private static void spread(List<String> row, Spread s, int decimals) {
        if (s == null) {
            row.addAll(List.of("", "", ""));
        } else {
            row.addAll(List.of(Numbers.plain(s.mean(), decimals), Numbers.plain(s.min(), decimals),
                    Numbers.plain(s.max(), decimals)));
        }
    }

    private static String percent(Double p) {
        return p == null ? "" : Numbers.plain(p, 1);
    }

    private static String perTx(RoleCpu r) {
        return r == null || r.cpuMsPerTransaction() == null ? "" : Numbers.plain(r.cpuMsPerTransaction(), 4);
    }

    /**
     * Appends one CSV line of {@code cells} to {@code b}: comma-separated, a cell quoted (RFC 4180) only when it
     * holds a comma, quote or line break, ending in {@code \n}. Every CSV file of the reports is written this way.
     */
    public static void line(StringBuilder b, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(quote(cells.get(i)));
        }
        b.append('\n');
    }

    private static String quote(String cell) {
        if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) {
            return cell;
        }
        return '"' + cell.replace("\"", "\"\"") + '"';
    }
}
