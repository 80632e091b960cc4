package dev.meshbench.charts.render;

import static dev.meshbench.charts.html.Html.code;
import static dev.meshbench.charts.html.Html.el;
import static dev.meshbench.charts.html.Html.entity;
import static dev.meshbench.charts.html.Html.fragment;
import static dev.meshbench.charts.html.Html.link;
import static dev.meshbench.charts.html.Html.td;
import static dev.meshbench.charts.html.Html.tdL;
import static dev.meshbench.charts.html.Html.text;
import static dev.meshbench.charts.html.Html.thL;

import dev.meshbench.charts.html.Element;
import dev.meshbench.charts.html.Html;
import dev.meshbench.charts.html.Node;
import dev.meshbench.charts.model.AttributionTable;
import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.LatencyStatistic;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.ReportTables;
import dev.meshbench.charts.model.SkippedLine;
import dev.meshbench.charts.model.Spread;
import dev.meshbench.charts.study.PublishedFigures;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.MeshPart;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.StepDrift;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.StepHost;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.StepRate;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWork;
import dev.meshbench.results.stats.NoiseFloor;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The report page: one self-contained {@code index.html} (inline CSS, no scripts, images and CSV beside it)
 * with the figures, their numbers as tables, every run's inputs, what was skipped and why, and how the numbers
 * were made. A pure function of {@link ReportTables}: it walks the rows computed there and formats them with the
 * {@link Html} builder, so everything a run wrote is escaped by construction.
 */
public final class HtmlReportRenderer {
    /** File names the page links to. */
    public static final String THROUGHPUT_PNG = "throughput.png";
    public static final String LATENCY_PNG = "latency.png";
    public static final String CPU_PNG = "cpu-per-tx.png";
    public static final String STEPS_CSV = "steps.csv";
    public static final String COMPARISON_CSV = "comparison.csv";
    public static final String ATTRIBUTION_CSV = "attribution.csv";

    /** Changes beyond this many percent are colored (red worse, green better). */
    private static final double MARKED_CHANGE = 5;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    /** A no-break space, written as {@code &nbsp;}. */
    private static final String NBSP = "\u00a0";

    /** The page's style sheet, inlined in every meshbench report page. */
    public static final String CSS = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:2rem auto;
            max-width:1200px;padding:0 1rem;color:#222;line-height:1.45}
            h1{font-size:1.7rem;margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
            .lead{color:#444}.muted{color:#666;font-size:.9rem}
            table{border-collapse:collapse;margin:.6rem 0 1rem;font-size:.9rem}
            th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:right;vertical-align:top}
            td{white-space:nowrap}.wide{overflow-x:auto}tr.first td{border-top:2px solid #999}
            .spread{display:block;color:#666;font-size:.8rem}.ci{color:#444;font-size:.85rem}tr.total td{font-weight:600;background:#fafafa}
            td.sum{font-weight:600}
            th{background:#f4f4f4}td.l,th.l{text-align:left}
            tr.base td{background:#f7fbff}td.bad{color:#b00020;font-weight:600}td.good{color:#1b7f3b}
            figure{margin:1rem 0}figure img{max-width:100%;border:1px solid #eee}
            figcaption{color:#444;font-size:.9rem;margin-top:.3rem}
            .warn{background:#fff6e0;border-left:4px solid #e0a000;padding:.5rem 1rem;margin:1rem 0}
            .swatch{display:inline-block;width:.8em;height:.8em;margin-right:.35em;border-radius:2px;vertical-align:-.05em}
            code{background:#f4f4f4;padding:0 .2em;border-radius:3px}
            ul.files li{margin:.1rem 0}
            """;

    private HtmlReportRenderer() {
    }

    /** The page for {@code model} with the study's findings shipped with charts, generated at {@code now}. */
    public static String render(ReportModel model, Instant now) {
        return render(ReportTables.of(model), now);
    }

    /** The page for {@code tables}, generated at {@code now}. */
    public static String render(ReportTables tables, Instant now) {
        return Html.document(page("meshbench report", CSS, body(tables, now)));
    }

    /** A page with {@code title}, the style sheet {@code css} (a constant of the code) and {@code body}. */
    public static Element page(String title, String css, Element body) {
        return el("html").attr("lang", "en").add(
                el("head").add(el("meta").attr("charset", "utf-8"),
                        el("meta").attr("name", "viewport").attr("content", "width=device-width, initial-scale=1"),
                        el("title").text(title),
                        el("style").add(Html.codeGeneratedMarkup(css))),
                body);
    }

    private static Element body(ReportTables t, Instant now) {
        Element body = el("body");
        body.add(el("h1").text("meshbench report: what the mesh data plane costs"));
        body.add(intro(t));
        body.add(warnings(t));
        if (!t.model().cases().isEmpty()) {
            body.add(comparison(t));
            body.add(attribution(t));
            body.add(figures(t));
            body.add(components(t));
            body.add(steps(t));
            body.add(runs(t));
        }
        body.add(skipped(t));
        body.add(notes(t));
        body.add(method());
        body.add(el("h2").text("Files"));
        Element files = el("ul").cls("files");
        for (String[] f : new String[][] {{THROUGHPUT_PNG, "throughput chart"}, {LATENCY_PNG, "response-time chart"},
                {CPU_PNG, "mesh CPU chart"}, {STEPS_CSV, "every run and step, one row each"},
                {COMPARISON_CSV, "each case against bypass of the same data plane"},
                {ATTRIBUTION_CSV, "mesh CPU per transaction on the MongoDB path and in the shared parts, per case"}}) {
            files.add(el("li").add(link(f[0], f[0]), text(": " + f[1])));
        }
        body.add(files);
        body.add(el("p").cls("muted").text("Generated " + TIME.format(now) + " by meshbench charts from the "
                + "results.json files only; rebuild it any time without running anything."));
        return body;
    }

    private static Element intro(ReportTables t) {
        ReportModel m = t.model();
        Element p = el("p").cls("lead");
        int runs = m.loaded().runs().size();
        if (runs == 0) {
            return p.add(text("No usable run was found in "), code(t.directory()), text("; see "),
                    link("#skipped", "what was skipped"), text("."));
        }
        int caseCount = m.caseIds().size();
        int planeCount = m.dataPlanes().size();
        p.text(count(runs, "run") + " of " + count(caseCount, "case") + " on " + count(planeCount, "data plane")
                + " (" + m.cases().stream().map(Labels::caseWithRuns).collect(Collectors.joining(", ")) + ") on the ");
        for (int i = 0; i < t.targets().size(); i++) {
            p.add(i == 0 ? fragment() : text(" and "), el("b").text(t.targets().get(i)));
        }
        p.add(text(t.targets().size() > 1 ? " targets, read from " : " target, read from "), code(t.directory()),
                text(". Every run stepped through " + m.clientSteps().stream().map(String::valueOf)
                        .collect(Collectors.joining(", ")) + " concurrent clients. Response time and CPU are compared at "),
                el("b").text(m.clients() + " clients"), text("."));
        List<String> entries = t.entries();
        if (entries.size() == 1) {
            p.text(" The load came " + entries.get(0) + ".");
        } else {
            p.text(" The load came " + String.join(" in some runs and ", entries) + " in others; runs that came "
                    + "straight to the sidecars are labelled no ingress and never mixed with the others.");
        }
        if (t.repeats()) {
            p.text(" Where a case ran more than once on a data plane, figures are the mean over those runs and the "
                    + "charts and tables show the lowest and highest run.");
        }
        if (planeCount > 1) {
            p.text(" Runs of different data planes are never mixed: each case has one series per data plane, "
                    + "compared against bypass on the same data plane.");
        }
        return p;
    }

    private static Node warnings(ReportTables t) {
        List<Node> w = new ArrayList<>();
        for (String s : t.model().warnings()) {
            w.add(el("div").cls("warn").text(Character.toUpperCase(s.charAt(0)) + s.substring(1)));
        }
        int skipped = t.skipped().size();
        if (skipped > 0) {
            w.add(el("div").cls("warn").add(text(skipped + (skipped == 1 ? " file was" : " files were")
                    + " skipped; see "), link("#skipped", "Skipped"), text(".")));
        }
        return fragment(w);
    }

    private static Node comparison(ReportTables t) {
        ReportModel m = t.model();
        Element intro = el("p").add(entity("Delta"), text(" is the change in percent of the "),
                code(ResultsSchema.BASELINE_CASE), text(" value on the same data plane; a data plane without a bypass "
                        + "run says so instead. "), el("i").text("Peak"), text(" is the highest throughput of any "
                        + "step. For throughput, negative is worse; for response time and CPU, positive is worse; "
                        + "changes beyond 5" + NBSP + "% are red (worse) or green (better)."),
                text(studySentence(t.study())), text(" "), el("i").text("95" + NBSP + "% CI"),
                text(": with repeated runs, the throughput change's 95" + NBSP + "% confidence interval by Welch's t "
                        + "(the runs of each case as independent repeats, unequal variances) and whether it is beyond "
                        + "noise (the interval excludes 0); one run on either side gives no interval. With repeated "
                        + "runs each value is the mean over the runs "), entity("plusmn"),
                text(" the half-width of its 95" + NBSP + "% confidence interval (Student's t, the runs as "
                        + "independent repeats). At a fixed rate ("), code("meshbench.rate"),
                text(") throughput is the offered load: compare p99 and CPU per transaction, with their intervals "
                        + "under "), entity("Delta"), text(" 95" + NBSP + "% CI. Mesh CPU is the total of every mesh "
                        + "component, including the parts every case shares (the ingress gateway, the sidecars' HTTP), "
                        + "which can move more between runs than the MongoDB path costs; "),
                link("#attribution", "Where the cost differs"), text(" separates them."));
        Element table = el("table").add(el("tr").add(thL("data plane"), thL("case"), th("runs"),
                th("throughput", "tx/s"), delta(), deltaCi(), th("peak", "tx/s"), delta(), th("p99", "ms"), delta(),
                deltaCi(), th("mesh CPU", "ms/tx"), delta(), deltaCi(), th("app CPU", "ms/tx"), delta(), th("errors")));
        for (ReportTables.ComparisonLine line : t.comparison()) {
            var r = line.row();
            boolean base = line.baseline() == ReportTables.Baseline.IS_BASELINE;
            table.add(el("tr").cls((line.firstOfPlane() ? "first " : "") + (base ? "base" : "")).add(
                    tdL(r.dataPlane()),
                    el("td").cls("l").add(swatch(m, line.summary()), text(r.caseId())),
                    td(Integer.toString(r.runs())),
                    cell(r.throughput(), 1),
                    change(r.throughputChange(), true, line.baseline(), r.dataPlane()),
                    tdL(line.throughputInterval()),
                    cell(r.peak(), 1),
                    change(r.peakChange(), true, line.baseline(), r.dataPlane()),
                    cell(r.p99(), 1),
                    change(r.p99Change(), false, line.baseline(), r.dataPlane()),
                    tdL(line.p99Interval()),
                    cell(r.meshCpu(), 3),
                    change(r.meshCpuChange(), false, line.baseline(), r.dataPlane()),
                    tdL(line.meshCpuInterval()),
                    cell(r.appCpu(), 3),
                    change(r.appCpuChange(), false, line.baseline(), r.dataPlane()),
                    el("td").cls(line.errors() > 0 ? "bad" : null).text(Long.toString(line.errors()))));
        }
        return fragment(
                el("h2").attr("id", "comparison").text("Each case against bypass of the same data plane at "
                        + m.clients() + " clients"),
                intro, wide(table),
                el("p").cls("muted").add(text("Small numbers under a value: lowest and highest run. Data: "),
                        link(COMPARISON_CSV, COMPARISON_CSV), text(".")));
    }

    private static Node attribution(ReportTables t) {
        ReportModel m = t.model();
        AttributionTable a = t.attribution();
        Element intro = el("p").add(text("Mesh CPU per transaction at " + m.clients() + " clients split where the "
                + "cases differ. "), el("b").text("MongoDB path"), text(": the egress gateway and the SNI proxy (all "
                + "their CPU: they carry nothing else) and each sidecar's CPU times its MongoDB share, the bytes "
                + "through its MongoDB listener over the bytes through all its listeners in the measured window. "),
                el("b").text("Shared"), text(": the ingress gateway and the rest of the sidecars' CPU (their "
                + "services' HTTP), the same work in every case at equal load. The two add up to the mesh CPU of the "
                + "table above. Each value is the mean over the case's runs in ms per transaction "), entity("plusmn"),
                text(" the half-width of its 95" + NBSP + "% confidence interval (Student's t); below it, "),
                entity("Delta"), text(" is the change against " + ResultsSchema.BASELINE_CASE + " on the same data "
                + "plane in ms per transaction "), entity("plusmn"), text(" the half-width of its 95" + NBSP
                + "% interval (Welch's t, the runs as independent repeats; one run on either side gives none). "
                + "A change whose interval excludes 0 is beyond noise. A case is attributed where its runs "
                + "counted the bytes through every sidecar's listeners (local runs since the kit records them; bypass "
                + "needs none); otherwise its row says why, and the converter notes say which sidecar was missing."));
        Element caption = el("p").add(el("b").text("Points"), text(": " + ResultsSchema.BASELINE_CASE + " has no "
                + "mesh component on its MongoDB path, so its MongoDB path is 0 and a change in percent of it means "
                + "nothing; a case's MongoDB-path change is given in points, percent of "
                + ResultsSchema.BASELINE_CASE + "'s mean mesh CPU per transaction on the same data plane (0.09 ms/tx "
                + "against a mesh CPU of 0.9 ms/tx is +10 points), with its 95" + NBSP + "% interval on the same "
                + "scale (" + ResultsSchema.BASELINE_CASE + "'s mesh CPU taken as exact). A sidecar's share is "
                + "apportioned by bytes, which assumes a byte costs it the same on every listener: HTTP is parsed "
                + "per request, the MongoDB listener relays TLS records (or wraps them once more in the mTLS cases), "
                + "so the sidecars' MongoDB share is an estimate; the egress gateway and SNI proxy are measured."));
        Element table = el("table").add(el("tr").add(el("th").attr("colspan", 3),
                        el("th").attr("colspan", 5).text("MongoDB path (differs between cases)"),
                        el("th").attr("colspan", 3).text("shared by every case")),
                el("tr").add(thL("data plane"), thL("case"), th("runs"),
                        th(MeshPart.EGRESS_GATEWAY.label(), "ms/tx"), th(MeshPart.SNI_PROXY.label(), "ms/tx"),
                        th(MeshPart.SIDECARS_MONGO.label(), "ms/tx"), th("MongoDB path", "ms/tx"),
                        el("th").add(entity("Delta"), text(" MongoDB path"), el("br"), text("points, 95" + NBSP + "% CI")),
                        th(MeshPart.INGRESS_GATEWAY.label(), "ms/tx"), th(MeshPart.SIDECARS_HTTP.label(), "ms/tx"),
                        th("shared", "ms/tx")));
        String previousPlane = null;
        for (AttributionTable.Line line : a.lines()) {
            CaseSummary c = line.summary();
            boolean base = line.baseline() == ReportTables.Baseline.IS_BASELINE;
            boolean first = previousPlane != null && !previousPlane.equals(c.dataPlane());
            previousPlane = c.dataPlane();
            Element row = el("tr").cls((first ? "first " : "") + (base ? "base" : "")).add(tdL(c.dataPlane()),
                    el("td").cls("l").add(swatch(m, c), text(c.caseId())),
                    td(line.runs() == c.runs().size() ? Integer.toString(line.runs())
                            : line.runs() + " of " + c.runs().size()));
            if (!line.attributed()) {
                table.add(row.add(el("td").attr("colspan", 8).cls("l muted").text("not attributed: " + line.absent())));
                continue;
            }
            for (MeshPart p : MeshPart.side(true)) {
                row.add(attributed(line.parts().get(p)));
            }
            row.add(attributed(line.mongoPath()).cls("sum"));
            row.add(pointsCell(line, c.dataPlane()));
            for (MeshPart p : MeshPart.side(false)) {
                row.add(attributed(line.parts().get(p)));
            }
            row.add(attributed(line.shared()).cls("sum"));
            table.add(row);
        }
        return fragment(el("h2").attr("id", "attribution").text("Where the cost differs: the MongoDB path and the "
                        + "shared parts at " + m.clients() + " clients"),
                intro, caption, wide(table), noise(a),
                el("p").cls("muted").add(text("Data: "), link(ATTRIBUTION_CSV, ATTRIBUTION_CSV), text(".")));
    }

    /** A figure of the attribution table: mean ± CI, lowest–highest run, and its change against bypass. */
    private static Element attributed(AttributionTable.Figure f) {
        Element td = cell(f.value(), 3);
        if (f.change() != null) {
            Element delta = el("span").cls("ci").add(el("br"), entity("Delta"),
                    text(" " + signed(f.change().estimate(), 3)));
            if (f.change().isKnown()) {
                delta.add(text(" "), entity("plusmn"), text(NBSP + Numbers.fixed(f.change().halfWidth(), 3)));
            }
            td.add(delta);
        }
        return td;
    }

    private static Element pointsCell(AttributionTable.Line line, String dataPlane) {
        switch (line.baseline()) {
            case IS_BASELINE -> {
                return el("td").cls("muted").text("baseline (0)");
            }
            case MISSING -> {
                return el("td").cls("muted").attr("title", "no " + ResultsSchema.BASELINE_CASE + " run with an "
                        + "attribution on data plane " + dataPlane).text("no " + ResultsSchema.BASELINE_CASE + " run");
            }
            case PRESENT -> {
                // below
            }
        }
        if (line.mongoPathPoints() == null) {
            return el("td");
        }
        String verdict = switch (line.mongoPath().verdict()) {
            case SIGNIFICANT -> "beyond noise";
            case WITHIN_NOISE -> "within noise";
            case UNKNOWN -> "no interval";
        };
        return el("td").add(el("b").text(AttributionTable.signed(line.mongoPathPoints()) + NBSP + "pts"),
                el("span").cls("spread").text(verdict));
    }

    /** The noise floor of each data plane, with the formulas it comes from. */
    private static Node noise(AttributionTable a) {
        Element list = el("ul");
        String repeats = Catalogue.REPEATS.name();
        String tenPercent = Numbers.plain(AttributionTable.SUGGESTED_DIFFERENCE * 100, 0) + NBSP + "%";
        for (AttributionTable.Noise n : a.noise()) {
            Element li = el("li").add(el("b").text(n.dataPlane()), text(": "));
            if (n.cases() == 0) {
                li.text("no run with an attribution, so no noise floor.");
            } else if (n.floor() == null) {
                li.text("each case ran once: no interval can be given and no noise measured. Run at least 2 repeats ("
                        + repeats + "=2) for intervals and a noise floor; the repeats a " + tenPercent + " difference "
                        + "needs follow from that noise, e.g. " + NoiseFloor.repeatsFor(AttributionTable.EXAMPLE_NOISE,
                        AttributionTable.SUGGESTED_DIFFERENCE) + " when the shared parts move "
                        + Numbers.plain(AttributionTable.EXAMPLE_NOISE * 100, 0) + NBSP + "% between repeats.");
            } else {
                li.text("the shared parts moved " + percent(n.floor().relativeSd()) + " between repeats (pooled "
                        + "relative standard deviation over " + n.runs() + " runs of " + n.cases() + " cases, "
                        + n.floor().degreesOfFreedom() + " degrees of freedom). ");
                if (n.repeats() >= 2) {
                    li.text("With " + n.repeats() + " runs per case the smallest difference a 95" + NBSP + "% interval "
                            + "tells from 0 is " + percent(n.detectableDifference()) + " of a figure's mean. ");
                } else {
                    li.text("Some case ran once: its changes have no interval. ");
                }
                li.text("A " + tenPercent + " difference needs " + n.repeatsForSuggested() + " runs per case ("
                        + repeats + ") to be seen beyond noise 80" + NBSP + "% of the time (the normal formula alone: "
                        + n.normalRepeatsForSuggested() + ").");
            }
            list.add(li);
        }
        return fragment(el("p").add(el("b").text("Noise floor"), text(": how much the parts identical in every case "
                        + "(the ingress gateway, the sidecars' HTTP share) moved between repeats of the same case: their "
                        + "pooled relative standard deviation s = " + SQRT + "(" + SUM + " (n" + SUB_I + " " + MINUS
                        + " 1) (s" + SUB_I + "/m" + SUB_I + ")" + SQUARED + " / " + SUM + " (n" + SUB_I + " " + MINUS
                        + " 1)) over each case's runs. The smallest detectable difference with n runs per case is "
                        + "t(0.975, 2(n " + MINUS + " 1)) " + MIDDOT + " s " + MIDDOT + " " + SQRT + "(2/n), the "
                        + "half-width of a difference's 95" + NBSP + "% interval (a true difference of that size is "
                        + "seen beyond noise about half the time). The runs per case for a difference d (two-sided 95"
                        + NBSP + "%, 80" + NBSP + "% power) are n = 2 (z(0.975) + z(0.8))" + SQUARED + " s" + SQUARED
                        + " / d" + SQUARED + " (z(0.975) = 1.960, z(0.8) = 0.842; s and d relative to the figure's "
                        + "mean), with, for a sitting's few runs, the t quantiles of 2(n " + MINUS + " 1) degrees of "
                        + "freedom in place of z: the smallest n " + GE + " 2 that satisfies it.")), list);
    }

    private static final String SQRT = "\u221a";
    private static final String SUM = "\u03a3";
    private static final String SUB_I = "\u1d62";
    private static final String MINUS = "\u2212";
    private static final String SQUARED = "\u00b2";
    private static final String MIDDOT = "\u00b7";
    private static final String GE = "\u2265";

    private static String percent(double fraction) {
        return Numbers.fixed(fraction * 100, 1) + NBSP + "%";
    }

    /** {@code value} with {@code decimals} places and its sign: +0.091, -0.004, 0.000 (never -0.000). */
    private static String signed(double value, int decimals) {
        String s = Numbers.fixed(value, decimals);
        if (s.matches("-0\\.0*")) {
            s = s.substring(1);
        }
        return value > 0 && !s.matches("0\\.0*") ? "+" + s : s;
    }

    /**
     * What the study published for the cases that cost throughput, e.g. " The study reports about -10 % throughput
     * for mtls and -24 % for sni." (no-break spaces before the percent signs); empty when it published none.
     */
    static String studySentence(PublishedFigures.EgressStudy study) {
        List<String> parts = study.throughputLosses().stream().map(c -> c.throughputChangePercent()
                .stripTrailingZeros().toPlainString() + NBSP + "%").toList();
        if (parts.isEmpty()) {
            return "";
        }
        List<String> ids = study.throughputLosses().stream().map(PublishedFigures.CaseFinding::caseId).toList();
        StringBuilder b = new StringBuilder(" The study reports about ").append(parts.get(0))
                .append(" throughput for ").append(ids.get(0));
        for (int i = 1; i < parts.size(); i++) {
            b.append(i + 1 == parts.size() ? " and " : ", ").append(parts.get(i)).append(" for ").append(ids.get(i));
        }
        return b.append('.').toString();
    }

    private static Node figures(ReportTables t) {
        ReportModel m = t.model();
        Element latency = el("table");
        Element header = el("tr").add(el("th").cls("l").add(text("case "), entity("middot"), text(" data plane")));
        for (LatencyStatistic s : LatencyStatistic.values()) {
            header.add(th(s.label() + " (ms)"));
        }
        latency.add(header);
        for (ReportTables.LatencyLine line : t.latency()) {
            Element row = el("tr").add(el("td").cls("l").add(swatch(m, line.summary()), text(line.summary().key())));
            line.values().forEach(v -> row.add(cell(v, 1)));
            latency.add(row);
        }
        return fragment(
                el("h2").attr("id", "throughput").text("Throughput"),
                figure(THROUGHPUT_PNG, "Throughput in transactions per second against concurrent clients, one line "
                        + "per case and data plane", text("Successful transactions per second in each step's measured "
                        + "window (the step minus its warm-up), against the number of concurrent JMeter clients.")),
                el("h2").attr("id", "latency").text("Response time at " + m.clients() + " clients"),
                figure(LATENCY_PNG, "Average, median, p90, p95 and p99 response time per case and data plane",
                        text("JMeter's elapsed time of successful requests, in milliseconds. Percentiles come from one "
                                + "histogram of all samples of the step after warm-up.")),
                latency,
                el("h2").attr("id", "cpu").text("Mesh CPU per transaction at " + m.clients() + " clients"),
                figure(CPU_PNG, "Mesh CPU milliseconds per transaction per case and data plane", fragment(text("CPU "
                        + "time (user + system) of all mesh components (" + ComponentRole.MESH.definition() + ") during "
                        + "the measured window, divided by the transactions in that window: CPU milliseconds per "
                        + "transaction. The parts every case shares are in it; "), link("#attribution",
                        "Where the cost differs"), text(" shows the MongoDB path alone."))));
    }

    private static Element figure(String png, String alt, Node caption) {
        return el("figure").add(el("img").attr("src", png).attr("width", ChartStyle.WIDTH).attr("alt", alt),
                el("figcaption").add(caption));
    }

    private static Node components(ReportTables t) {
        ReportTables.ComponentTable c = t.components();
        if (c.isEmpty()) {
            return fragment();
        }
        ReportModel m = t.model();
        Element header = el("tr").add(thL("component"), thL("role"));
        for (CaseSummary s : c.columns()) {
            header.add(el("th").add(swatch(m, s), text(s.caseId()), el("br"), text(s.dataPlane())));
        }
        Element table = el("table").add(header);
        for (ReportTables.ComponentLine line : c.lines()) {
            Element row = line.total()
                    ? el("tr").cls("total").add(tdL(line.role().id() + " total"), el("td"))
                    : el("tr").add(tdL(line.component()), tdL(line.role().id()));
            line.values().forEach(v -> row.add(cell(v, 3)));
            table.add(row);
        }
        return fragment(el("h3").text("CPU per transaction by component at " + m.clients() + " clients (ms)"), table);
    }

    private static Node steps(ReportTables t) {
        ReportModel m = t.model();
        Element intro = el("p").add(text("One row per run and step. Latency in ms; CPU in ms per transaction. The "
                + "application's work per transaction: MongoDB commands the services sent (including reward updates "
                + "run after the answer), calls between services, and bytes through the first mesh hop on the MongoDB "
                + "path (none in bypass); the five cases differ only on that path, so these say how much of a "
                + "transaction each case's difference can touch. Host: the machine's CPU busy over all cores, the "
                + "mean number of runnable threads and the load generator's own CPU (local target). A step marked "),
                el("b").text("saturated"), text(" ran above the run's threshold of host CPU: "
                        + StepHost.SATURATED_MEANING.substring("saturated: ".length()) + ". Data: "),
                link(STEPS_CSV, STEPS_CSV), text("."));
        Element table = el("table").add(el("tr").add(thL("run"), thL("case"), thL("data plane"), th("clients"),
                th("transactions"), th("errors"), th("warm-up", "skipped"), th("throughput", "(tx/s)"), th("avg"),
                th("median"), th("p90"), th("p95"), th("p99"), th("max"), th("mesh CPU", "(ms/tx)"),
                th("app CPU", "(ms/tx)"), th("MongoDB", "cmds/tx"), th("service", "calls/tx"),
                th("MongoDB path", "bytes/tx"), th("host CPU", "busy %"), th("run", "queue"), th("JMeter", "CPU %")));
        for (ReportTables.StepLine line : t.steps()) {
            StepResult s = line.step();
            Element row = el("tr").cls(line.firstStep() ? "first" : null).add(
                    tdL(line.run().runId()),
                    el("td").cls("l").add(swatch(m, line.summary()), text(line.run().caseId())),
                    tdL(line.run().dataPlaneLabel()),
                    td(Integer.toString(s.clients())), td(Long.toString(s.transactions())),
                    el("td").cls(s.errors() > 0 ? "bad" : null).text(Long.toString(s.errors())),
                    td(Long.toString(s.warmupSamplesSkipped())),
                    overran(throughput(s), line.run().results().inputs(), s.clients()));
            LatencyStats l = s.latencyMs();
            if (l == null) {
                row.add(el("td").attr("colspan", 6).cls("l").text("no successful request"));
            } else {
                row.add(td(Numbers.fixed(l.avg(), 1)), td(String.valueOf(l.median())), td(String.valueOf(l.p90())),
                        td(String.valueOf(l.p95())), td(String.valueOf(l.p99())), td(String.valueOf(l.max())));
            }
            Double mesh = s.cpu() == null || s.cpu().mesh() == null ? null : s.cpu().mesh().cpuMsPerTransaction();
            Double app = s.cpu() == null || s.cpu().app() == null ? null : s.cpu().app().cpuMsPerTransaction();
            StepWork w = s.work();
            row.add(td(fixedOrEmpty(mesh, 3)), td(fixedOrEmpty(app, 3)),
                    td(fixedOrEmpty(w == null ? null : w.mongoCommandsPerTransaction(), 2)),
                    td(fixedOrEmpty(w == null ? null : w.interServiceCallsPerTransaction(), 2)),
                    td(fixedOrEmpty(w == null ? null : w.mongoPathBytesPerTransaction(), 0)));
            StepHost host = s.host();
            if (host == null) {
                row.add(el("td"), el("td"), el("td"));
            } else {
                row.add(el("td").cls(host.saturated() ? "bad" : null).text(Numbers.fixed(host.busyPercent(), 1)
                                + (host.saturated() ? " saturated" : "")),
                        td(Numbers.fixed(host.runQueue(), 1)),
                        td(fixedOrEmpty(host.loadGeneratorCpuPercent(), 0)));
            }
            table.add(row);
        }
        return fragment(el("h2").attr("id", "steps").text("All steps"), intro, wide(table));
    }

    /** {@code cell}, flagged when the step of {@code clients} ran clearly longer than planned (its recorded window). */
    private static Element overran(Element cell, RunInputs inputs, int clients) {
        StepWindow w = inputs.steps().stream().filter(x -> x.clients() == clients).findFirst().orElse(null);
        if (w != null && w.overran(inputs.stepSeconds())) {
            cell.add(text(" "), el("span").cls("bad").attr("title", StepWindow.OVERRAN_MEANING)
                    .text("overran: " + Numbers.fixed(w.lengthMs() / 1000.0, 0) + " s of " + inputs.stepSeconds() + " s"));
        }
        return cell;
    }

    /** A step's throughput, flagged when not steady, with the fixed rate it held or did not hold. */
    private static Element throughput(StepResult s) {
        Element td = el("td").text(Numbers.fixed(s.throughputPerSecond(), 1));
        if (s.notSteady()) {
            td.add(text(" "), el("span").cls("bad").attr("title", StepDrift.NOT_STEADY_MEANING).text("not steady"));
        }
        if (s.rate() != null) {
            String rates = Numbers.fixed(s.rate().achievedPerSecond(), 1) + " of "
                    + Numbers.fixed(s.rate().targetPerSecond(), 1) + " req/s";
            td.add(text(" "), s.rateNotHeld()
                    ? el("span").cls("bad").attr("title", StepRate.NOT_HELD_MEANING).text("rate not held: " + rates)
                    : el("span").attr("title", "fixed arrival rate (meshbench.rate), achieved of target, requests "
                            + "per second").text("at " + rates));
        }
        return td;
    }

    private static Node runs(ReportTables t) {
        ReportModel m = t.model();
        List<Node> nodes = new ArrayList<>();
        nodes.add(el("h2").attr("id", "runs").text("Runs and their inputs"));
        nodes.add(el("p").text("Data planes (the proxies that carried the mesh traffic):"));
        Element planes = el("table").add(el("tr").add(thL("data plane"), thL("versions"), th("workers"),
                thL("sidecar mTLS"), thL("load"), thL("TLS provider"), thL("runs")));
        for (ReportTables.DataPlaneLine p : t.dataPlanes()) {
            Element versions = el("td").cls("l");
            if (p.versions().isEmpty()) {
                versions.text("not recorded");
            }
            for (int i = 0; i < p.versions().size(); i++) {
                versions.add(i == 0 ? fragment() : el("br"), text(p.versions().get(i)));
            }
            planes.add(el("tr").add(tdL(p.label()), versions, td(p.workers()), tdL(p.sidecarMtls() ? "yes" : "no"),
                    tdL(p.entry()), tdL(p.tlsProvider()), tdL(String.join(", ", p.runIds()))));
        }
        nodes.add(wide(planes));
        if (!t.shared().isEmpty()) {
            nodes.add(el("p").text("Shared by every run:"));
            Element shared = el("table");
            t.shared().forEach(i -> shared.add(el("tr").add(thL(i.header()), tdL(i.value()))));
            nodes.add(shared);
        }
        Element header = el("tr").add(thL("run"), thL("case"), thL("started"));
        t.varying().forEach(v -> header.add(thL(v)));
        header.add(thL("file"));
        Element table = el("table").add(header);
        for (ReportTables.RunLine r : t.runs()) {
            Element row = el("tr").add(tdL(r.run().runId()),
                    el("td").cls("l").add(swatch(m, r.summary()), text(r.run().caseId())),
                    tdL(TIME.format(r.run().results().inputs().startTime())));
            r.varying().forEach(v -> row.add(tdL(v)));
            row.add(el("td").cls("l").add(code(r.file())));
            table.add(row);
        }
        nodes.add(wide(table));
        return fragment(nodes);
    }

    private static Node skipped(ReportTables t) {
        return skippedSection(t.skipped(), "These files are not in the figures or tables above.");
    }

    /** A report's Skipped section: each file left out and why, after {@code whatMissing} (or that none was). */
    public static Node skippedSection(List<SkippedLine> skipped, String whatMissing) {
        Element h2 = el("h2").attr("id", "skipped").text("Skipped");
        if (skipped.isEmpty()) {
            return fragment(h2, el("p").text("Nothing was skipped."));
        }
        Element table = el("table").add(el("tr").add(thL("file"), thL("reason")));
        skipped.forEach(s -> table.add(el("tr").add(el("td").cls("l").add(code(s.file())), tdL(s.reason()))));
        return fragment(h2, el("p").text(whatMissing), table);
    }

    private static Node notes(ReportTables t) {
        if (t.notes().isEmpty()) {
            return fragment();
        }
        Element list = el("ul");
        t.notes().forEach(n -> list.add(el("li").add(el("b").text(n.runId()), text(": " + n.note()))));
        return fragment(el("h2").attr("id", "notes").text("Converter notes"),
                el("p").text("What the conversion of each run noticed."), list);
    }

    private static Node method() {
        return fragment(el("h2").attr("id", "method").text("How the numbers are made"), el("ul").add(
                el("li").add(text("Each step runs a fixed number of concurrent JMeter clients for the step's duration. "
                        + "The first warm-up seconds of every step are skipped, for latency and CPU alike; the rest is "
                        + "the "), el("i").text("measured window"), text(".")),
                el("li").add(el("b").text("Transactions"), text(" are successful samples in the window; "),
                        el("b").text("errors"), text(" are failed samples ("), code("success=false"),
                        text("). Throughput = transactions / window seconds.")),
                el("li").add(el("b").text("Response time"), text(" statistics cover successful samples only (JMeter's "
                        + "own aggregate report includes failures; a fast-failing case would otherwise look fast). "
                        + "Percentiles come from one HdrHistogram (3 significant digits) per run and step, never from "
                        + "averages of averages.")),
                el("li").add(el("b").text("CPU"), text(" of a component in the window is the difference of its "
                        + "cumulative CPU time, interpolated linearly between samples (about one per second) at the "
                        + "window's edges. CPU per transaction = CPU milliseconds / transactions. Mesh = "
                        + ComponentRole.MESH.definition() + "; app = " + ComponentRole.APP.definition() + ".")),
                el("li").add(text("Runs are grouped by case and "), el("b").text("data plane"), text(" (its name, plus "
                        + "\u201cno sidecar mTLS\u201d when sidecars talk plain HTTP to each other); groups are never "
                        + "mixed. Runs that did not record a data plane (schema version 1) ran on the Netty relays and "
                        + "are shown as \u201cnetty (no sidecar mTLS)\u201d.")),
                el("li").text("Repeats of a case on a data plane are shown as the mean over runs with the lowest and "
                        + "highest run; the change against bypass compares means on the same data plane."),
                el("li").text("A run is left out when it failed, did not finish, cannot be read, or its target or "
                        + "client steps differ from most runs.")));
    }

    /** A value with its 95 % interval (repeats) and its lowest and highest run (when they differ). */
    private static Element cell(Spread s, int decimals) {
        Element td = el("td");
        if (s != null) {
            td.text(Numbers.fixed(s.mean(), decimals));
            if (s.halfWidth95() != null) {
                td.add(el("span").cls("ci").attr("title", "95" + NBSP + "% confidence interval of the mean over "
                        + s.n() + " runs (Student's t)").add(text(" "), entity("plusmn"),
                        text(NBSP + Numbers.fixed(s.halfWidth95(), decimals))));
            }
            if (s.varies()) {
                td.add(el("span").cls("spread").add(text(Numbers.fixed(s.min(), decimals)), entity("ndash"),
                        text(Numbers.fixed(s.max(), decimals))));
            }
        }
        return td;
    }

    private static Element change(Double percent, boolean higherIsBetter, ReportTables.Baseline base,
            String dataPlane) {
        switch (base) {
            case IS_BASELINE -> {
                return el("td").cls("muted").text("baseline");
            }
            case MISSING -> {
                return el("td").cls("muted").attr("title", "no " + ResultsSchema.BASELINE_CASE
                        + " run on data plane " + dataPlane).text("no " + ResultsSchema.BASELINE_CASE + " run");
            }
            case PRESENT -> {
                // compared below
            }
        }
        if (percent == null) {
            return el("td");
        }
        boolean worse = higherIsBetter ? percent < -MARKED_CHANGE : percent > MARKED_CHANGE;
        boolean better = higherIsBetter ? percent > MARKED_CHANGE : percent < -MARKED_CHANGE;
        return el("td").cls(worse ? "bad" : better ? "good" : null)
                .text(Numbers.change(percent).replace(" %", NBSP + "%"));
    }

    /** The color of a case and data plane, as in the charts. */
    private static Element swatch(ReportModel m, CaseSummary summary) {
        java.awt.Color c = Labels.color(m, summary);
        return el("span").cls("swatch").attr("style", String.format(Locale.ROOT, "background:#%06x",
                c.getRGB() & 0xffffff));
    }

    private static String fixedOrEmpty(Double value, int decimals) {
        return value == null ? "" : Numbers.fixed(value, decimals);
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static Element wide(Element table) {
        return el("div").cls("wide").add(table);
    }

    /** A header cell, its lines separated by {@code <br>}. */
    private static Element th(String... lines) {
        Element th = el("th");
        for (int i = 0; i < lines.length; i++) {
            th.add(i == 0 ? fragment() : el("br"), text(lines[i]));
        }
        return th;
    }

    private static Element delta() {
        return el("th").add(entity("Delta"));
    }

    private static Element deltaCi() {
        return el("th").add(entity("Delta"), text(" 95" + NBSP + "% CI"));
    }
}
