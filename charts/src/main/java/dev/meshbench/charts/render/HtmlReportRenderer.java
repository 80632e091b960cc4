package dev.meshbench.charts.render;

import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.charts.load.SkippedRun;
import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.ComparisonRow;
import dev.meshbench.charts.model.LatencyStatistic;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.Spread;
import dev.meshbench.results.ComponentCpu;
import dev.meshbench.results.ComponentNames;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWork;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The report page: one self-contained {@code index.html} (inline CSS, no scripts, images and CSV beside it)
 * with the figures, their numbers as tables, every run's inputs, what was skipped and why, and how the numbers
 * were made.
 */
public final class HtmlReportRenderer {
    /** File names the page links to. */
    public static final String THROUGHPUT_PNG = "throughput.png";
    public static final String LATENCY_PNG = "latency.png";
    public static final String CPU_PNG = "cpu-per-tx.png";
    public static final String STEPS_CSV = "steps.csv";
    public static final String COMPARISON_CSV = "comparison.csv";

    /** Changes beyond this many percent are colored (red worse, green better). */
    private static final double MARKED_CHANGE = 5;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'",
            Locale.ROOT).withZone(ZoneOffset.UTC);

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

    /** The page for {@code model}, generated at {@code now}. */
    public static String render(ReportModel model, Instant now) {
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>meshbench report</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        h.append("<h1>meshbench report: what the mesh data plane costs</h1>\n");
        intro(h, model, now);
        warnings(h, model);
        if (!model.cases().isEmpty()) {
            comparison(h, model);
            figures(h, model);
            components(h, model);
            steps(h, model);
            runs(h, model);
        }
        skipped(h, model);
        notes(h, model);
        method(h, model);
        h.append("<h2>Files</h2>\n<ul class=\"files\">\n");
        for (String[] f : new String[][] {{THROUGHPUT_PNG, "throughput chart"}, {LATENCY_PNG, "response-time chart"},
                {CPU_PNG, "mesh CPU chart"}, {STEPS_CSV, "every run and step, one row each"},
                {COMPARISON_CSV, "each case against bypass of the same data plane"}}) {
            h.append("<li><a href=\"").append(f[0]).append("\">").append(f[0]).append("</a>: ").append(f[1])
                    .append("</li>\n");
        }
        h.append("</ul>\n<p class=\"muted\">Generated ").append(TIME.format(now))
                .append(" by meshbench charts from the results.json files only; rebuild it any time without "
                        + "running anything.</p>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void intro(StringBuilder h, ReportModel m, Instant now) {
        int runs = m.loaded().runs().size();
        h.append("<p class=\"lead\">");
        if (runs == 0) {
            h.append("No usable run was found in <code>").append(esc(m.loaded().directory().toString()))
                    .append("</code>; see <a href=\"#skipped\">what was skipped</a>.</p>\n");
            return;
        }
        int caseCount = m.caseIds().size();
        int planeCount = m.dataPlanes().size();
        h.append(runs).append(runs == 1 ? " run" : " runs").append(" of ").append(caseCount)
                .append(caseCount == 1 ? " case" : " cases").append(" on ").append(planeCount)
                .append(planeCount == 1 ? " data plane" : " data planes").append(" (")
                .append(esc(m.cases().stream().map(Labels::caseWithRuns).collect(Collectors.joining(", "))))
                .append(") on the <b>").append(m.loaded().runs().stream().map(r -> esc(r.results().inputs().target().id()))
                        .distinct().sorted().collect(Collectors.joining("</b> and <b>"))).append("</b> target")
                .append(m.loaded().runs().stream().map(r -> r.results().inputs().target()).distinct().count() > 1 ? "s" : "")
                .append(", read from <code>")
                .append(esc(m.loaded().directory().toString())).append("</code>. Every run stepped through ")
                .append(m.clientSteps().stream().map(String::valueOf).collect(Collectors.joining(", ")))
                .append(" concurrent clients. Response time and CPU are compared at <b>").append(m.clients())
                .append(" clients</b>.");
        if (m.cases().stream().anyMatch(c -> c.runs().size() > 1)) {
            h.append(" Where a case ran more than once on a data plane, figures are the mean over those runs and the "
                    + "charts and tables show the lowest and highest run.");
        }
        if (planeCount > 1) {
            h.append(" Runs of different data planes are never mixed: each case has one series per data plane, "
                    + "compared against bypass on the same data plane.");
        }
        h.append("</p>\n");
    }

    private static void warnings(StringBuilder h, ReportModel m) {
        List<String> w = new ArrayList<>(m.warnings());
        if (!m.loaded().skipped().isEmpty()) {
            w.add(m.loaded().skipped().size() + (m.loaded().skipped().size() == 1 ? " file was" : " files were")
                    + " skipped; see <a href=\"#skipped\">Skipped</a>.");
        }
        for (String s : w) {
            String sentence = Character.toUpperCase(s.charAt(0)) + s.substring(1);
            h.append("<div class=\"warn\">").append(s.contains("<a ") ? sentence : esc(sentence)).append("</div>\n");
        }
    }

    private static void comparison(StringBuilder h, ReportModel m) {
        h.append("<h2 id=\"comparison\">Each case against bypass of the same data plane at ").append(m.clients())
                .append(" clients</h2>\n");
        h.append("<p>&Delta; is the change in percent of the <code>bypass</code> value on the same data plane; a "
                + "data plane without a bypass run says so instead. <i>Peak</i> is the highest "
                + "throughput of any step. For throughput, negative is worse; for response time and CPU, positive "
                + "is worse; changes beyond 5&nbsp;% are red (worse) or green (better). The "
                + "study reports about -10&nbsp;% throughput for mtls and -24&nbsp;% for sni. <i>95&nbsp;% CI</i>: with "
                + "repeated runs, the throughput change's 95&nbsp;% confidence interval by Welch's t (the runs of each case "
                + "as independent repeats, unequal variances) and whether it is beyond noise (the interval excludes 0); "
                + "one run on either side gives no interval. With repeated runs each value is the mean over the runs "
                + "&plusmn; the half-width of its 95&nbsp;% confidence interval (Student's t, the runs as independent "
                + "repeats). At a fixed rate (<code>meshbench.rate</code>) throughput is the offered load: compare "
                + "p99 and CPU per transaction, with their intervals under &Delta; 95&nbsp;% CI.</p>\n");
        h.append("<div class=\"wide\"><table>\n<tr><th class=\"l\">data plane</th><th class=\"l\">case</th>"
                + "<th>runs</th>"
                + "<th>throughput<br>tx/s</th><th>&Delta;</th><th>&Delta; 95&nbsp;% CI</th><th>peak<br>tx/s</th><th>&Delta;</th>"
                + "<th>p99<br>ms</th><th>&Delta;</th><th>&Delta; 95&nbsp;% CI</th><th>mesh CPU<br>ms/tx</th><th>&Delta;</th><th>&Delta; 95&nbsp;% CI</th>"
                + "<th>app CPU<br>ms/tx</th><th>&Delta;</th><th>errors</th></tr>\n");
        String previousPlane = null;
        for (ComparisonRow r : m.comparison()) {
            CaseSummary c = m.cases().stream().filter(x -> x.caseId().equals(r.caseId())
                    && x.dataPlane().equals(r.dataPlane())).findFirst().orElseThrow();
            boolean base = r.caseId().equals(ResultsSchema.BASELINE_CASE);
            boolean firstOfPlane = previousPlane != null && !previousPlane.equals(r.dataPlane());
            previousPlane = r.dataPlane();
            String classes = ((firstOfPlane ? "first " : "") + (base ? "base" : "")).trim();
            h.append(classes.isEmpty() ? "<tr>" : "<tr class=\"" + classes + "\">").append("<td class=\"l\">")
                    .append(esc(r.dataPlane())).append("</td><td class=\"l\">").append(swatch(m, c))
                    .append(esc(r.caseId())).append("</td><td>").append(r.runs()).append("</td>");
            Baseline b = base ? Baseline.IS_BASELINE : r.hasBaseline() ? Baseline.PRESENT : Baseline.MISSING;
            cell(h, r.throughput(), 1);
            change(h, r.throughputChange(), true, b, r.dataPlane());
            h.append("<td class=\"l\">").append(esc(base ? "" : throughputInterval(m, c))).append("</td>");
            cell(h, r.peak(), 1);
            change(h, r.peakChange(), true, b, r.dataPlane());
            cell(h, r.p99(), 1);
            change(h, r.p99Change(), false, b, r.dataPlane());
            h.append("<td class=\"l\">").append(esc(base ? "" : changeInterval(m, c, s -> s.latencyMs() == null ? null : (double) s.latencyMs().p99()))).append("</td>");
            cell(h, r.meshCpu(), 3);
            change(h, r.meshCpuChange(), false, b, r.dataPlane());
            h.append("<td class=\"l\">").append(esc(base ? "" : changeInterval(m, c,
                    s -> s.cpu() == null || s.cpu().mesh() == null ? null : s.cpu().mesh().cpuMsPerTransaction()))).append("</td>");
            cell(h, r.appCpu(), 3);
            change(h, r.appCpuChange(), false, b, r.dataPlane());
            long errors = c.errors(m.clients());
            h.append(errors > 0 ? "<td class=\"bad\">" : "<td>").append(errors).append("</td></tr>\n");
        }
        h.append("</table></div>\n<p class=\"muted\">Small numbers under a value: lowest and highest run. Data: <a href=\"")
                .append(COMPARISON_CSV).append("\">").append(COMPARISON_CSV).append("</a>.</p>\n");
    }

    /**
     * The throughput change against bypass of the same data plane with its 95% interval and verdict, e.g.
     * {@code "-12.3 ± 4.1 %, significant"}; says why when there is none.
     */
    static String throughputInterval(ReportModel m, CaseSummary c) {
        return changeInterval(m, c, StepResult::throughputPerSecond);
    }

    /** As {@link #throughputInterval} for any figure of the report's step ({@code figure}: {@code null} when not measured). */
    static String changeInterval(ReportModel m, CaseSummary c, java.util.function.Function<StepResult, Double> figure) {
        var bypass = m.cases().stream().filter(x -> x.caseId().equals(ResultsSchema.BASELINE_CASE)
                && x.dataPlane().equals(c.dataPlane())).findFirst();
        if (bypass.isEmpty()) {
            return "";
        }
        var base = values(bypass.get(), m.clients(), figure);
        var cand = values(c, m.clients(), figure);
        if (base.stream().mapToDouble(Double::doubleValue).sum() == 0) {
            return "";
        }
        if (base.isEmpty() || cand.isEmpty()) {
            return "";
        }
        var cmp = new dev.meshbench.results.stats.Comparison(new dev.meshbench.results.stats.Sample(base),
                new dev.meshbench.results.stats.Sample(cand));
        return switch (cmp.verdict()) {
            case UNKNOWN -> "one run: no interval";
            case SIGNIFICANT -> String.format(java.util.Locale.ROOT, "%+.1f \u00b1 %.1f %%, significant", cmp.changePercent(),
                    cmp.changeHalfWidthPercent());
            case WITHIN_NOISE -> String.format(java.util.Locale.ROOT, "%+.1f \u00b1 %.1f %%, within noise", cmp.changePercent(),
                    cmp.changeHalfWidthPercent());
        };
    }

    /** One value per run of {@code c} that measured {@code figure} at {@code clients}. */
    private static List<Double> values(CaseSummary c, int clients, java.util.function.Function<StepResult, Double> figure) {
        return c.runs().stream().map(r -> r.results().step(clients)).flatMap(java.util.Optional::stream)
                .map(figure).filter(java.util.Objects::nonNull).toList();
    }

    private static void figures(StringBuilder h, ReportModel m) {
        h.append("<h2 id=\"throughput\">Throughput</h2>\n<figure><img src=\"").append(THROUGHPUT_PNG)
                .append("\" width=\"").append(ChartStyle.WIDTH).append("\" alt=\"Throughput in transactions per "
                        + "second against concurrent clients, one line per case and data plane\">\n<figcaption>Successful "
                        + "transactions per second in each step's measured window (the step minus its warm-up), "
                        + "against the number of concurrent JMeter clients.</figcaption></figure>\n");
        h.append("<h2 id=\"latency\">Response time at ").append(m.clients()).append(" clients</h2>\n")
                .append("<figure><img src=\"").append(LATENCY_PNG).append("\" width=\"").append(ChartStyle.WIDTH)
                .append("\" alt=\"Average, median, p90, p95 and p99 response time per case and data plane\">\n<figcaption>JMeter's "
                        + "elapsed time of successful requests, in milliseconds. Percentiles come from one histogram "
                        + "of all samples of the step after warm-up.</figcaption></figure>\n");
        h.append("<table>\n<tr><th class=\"l\">case &middot; data plane</th>");
        for (LatencyStatistic s : LatencyStatistic.values()) {
            h.append("<th>").append(s.label()).append(" (ms)</th>");
        }
        h.append("</tr>\n");
        for (CaseSummary c : m.cases()) {
            h.append("<tr><td class=\"l\">").append(swatch(m, c)).append(esc(c.key())).append("</td>");
            for (LatencyStatistic s : LatencyStatistic.values()) {
                cell(h, c.latency(m.clients(), s), 1);
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
        h.append("<h2 id=\"cpu\">Mesh CPU per transaction at ").append(m.clients()).append(" clients</h2>\n")
                .append("<figure><img src=\"").append(CPU_PNG).append("\" width=\"").append(ChartStyle.WIDTH)
                .append("\" alt=\"Mesh CPU milliseconds per transaction per case and data plane\">\n<figcaption>CPU time (user + "
                        + "system) of all mesh components (sidecars, egress gateway, SNI proxy) during the measured "
                        + "window, divided by the transactions in that window: CPU milliseconds per transaction."
                        + "</figcaption></figure>\n");
    }

    private static void components(StringBuilder h, ReportModel m) {
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
            return;
        }
        h.append("<h3>CPU per transaction by component at ").append(m.clients()).append(" clients (ms)</h3>\n")
                .append("<table>\n<tr><th class=\"l\">component</th><th class=\"l\">role</th>");
        for (CaseSummary c : m.cases()) {
            h.append("<th>").append(swatch(m, c)).append(esc(c.caseId())).append("<br>").append(esc(c.dataPlane()))
                    .append("</th>");
        }
        h.append("</tr>\n");
        // in the order traffic meets them: sidecars, then the gateway, then the SNI proxy; each role ends in a total
        Comparator<String> byPath = Comparator.comparing((String n) -> roles.get(n))
                .thenComparing(ComponentNames.trafficOrder());
        List<String> names = roles.keySet().stream().sorted(byPath).toList();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            ComponentRole role = roles.get(name);
            h.append("<tr><td class=\"l\">").append(esc(name)).append("</td><td class=\"l\">").append(role.id())
                    .append("</td>");
            for (CaseSummary c : m.cases()) {
                List<Double> v = perCase.get(c.key()).get(name);
                cell(h, v == null ? null : Spread.of(v.stream().filter(Objects::nonNull).toList()), 3);
            }
            h.append("</tr>\n");
            if (i + 1 == names.size() || roles.get(names.get(i + 1)) != role) {
                h.append("<tr class=\"total\"><td class=\"l\">").append(role.id()).append(" total</td><td></td>");
                for (CaseSummary c : m.cases()) {
                    cell(h, c.cpuPerTransaction(m.clients(), role), 3);
                }
                h.append("</tr>\n");
            }
        }
        h.append("</table>\n");
    }

    private static void steps(StringBuilder h, ReportModel m) {
        h.append("<h2 id=\"steps\">All steps</h2>\n<p>One row per run and step. Latency in ms; CPU in ms per "
                + "transaction. The application's work per transaction: MongoDB commands the services sent (including "
                + "reward updates run after the answer), calls between services, and bytes through the first mesh hop "
                + "on the MongoDB path (none in bypass); the five cases differ only on that path, so these say how "
                + "much of a transaction each case's difference can touch. Host: the machine's CPU busy over all cores, "
                + "the mean number of runnable threads and the load generator's own CPU (local target). A step marked "
                + "<b>saturated</b> ran above the run's threshold of host CPU: "
                + esc(dev.meshbench.results.StepHost.SATURATED_MEANING.substring("saturated: ".length())) + ". Data: <a href=\"").append(STEPS_CSV).append("\">").append(STEPS_CSV)
                .append("</a>.</p>\n<div class=\"wide\"><table>\n<tr><th class=\"l\">run</th><th class=\"l\">case</th>"
                        + "<th class=\"l\">data plane</th><th>clients</th>"
                        + "<th>transactions</th><th>errors</th><th>warm-up<br>skipped</th><th>throughput<br>(tx/s)"
                        + "</th><th>avg</th><th>median</th><th>p90</th><th>p95</th><th>p99</th><th>max</th>"
                        + "<th>mesh CPU<br>(ms/tx)</th><th>app CPU<br>(ms/tx)</th><th>MongoDB<br>cmds/tx</th>"
                        + "<th>service<br>calls/tx</th><th>MongoDB path<br>bytes/tx</th><th>host CPU<br>busy %</th>"
                        + "<th>run<br>queue</th><th>JMeter<br>CPU %</th></tr>\n");
        for (LoadedRun r : runsInReportOrder(m)) {
            CaseSummary c = summaryOf(m, r);
            boolean first = true;
            for (StepResult s : r.results().steps()) {
                LatencyStats l = s.latencyMs();
                h.append(first ? "<tr class=\"first\">" : "<tr>").append("<td class=\"l\">").append(esc(r.runId())).append("</td><td class=\"l\">")
                        .append(swatch(m, c)).append(esc(r.caseId())).append("</td><td class=\"l\">")
                        .append(esc(r.dataPlaneLabel())).append("</td><td>").append(s.clients())
                        .append("</td><td>").append(s.transactions()).append("</td>")
                        .append(s.errors() > 0 ? "<td class=\"bad\">" : "<td>").append(s.errors()).append("</td><td>")
                        .append(s.warmupSamplesSkipped()).append("</td><td>")
                        .append(Numbers.fixed(s.throughputPerSecond(), 1))
                        .append(s.notSteady() ? " <span class=\"bad\" title=\"" + esc(dev.meshbench.results.StepDrift.NOT_STEADY_MEANING)
                                + "\">not steady</span>" : "")
                        .append(s.rate() == null ? "" : s.rateNotHeld()
                                ? " <span class=\"bad\" title=\"" + esc(dev.meshbench.results.StepRate.NOT_HELD_MEANING) + "\">rate not held: "
                                        + Numbers.fixed(s.rate().achievedPerSecond(), 1) + " of " + Numbers.fixed(s.rate().targetPerSecond(), 1) + " req/s</span>"
                                : " <span title=\"fixed arrival rate (meshbench.rate), achieved of target, requests per second\">at "
                                        + Numbers.fixed(s.rate().achievedPerSecond(), 1) + " of " + Numbers.fixed(s.rate().targetPerSecond(), 1) + " req/s</span>")
                        .append("</td>");
                if (l == null) {
                    h.append("<td colspan=\"6\" class=\"l\">no successful request</td>");
                } else {
                    h.append("<td>").append(Numbers.fixed(l.avg(), 1)).append("</td><td>").append(l.median())
                            .append("</td><td>").append(l.p90()).append("</td><td>").append(l.p95())
                            .append("</td><td>").append(l.p99()).append("</td><td>").append(l.max()).append("</td>");
                }
                Double mesh = s.cpu() == null || s.cpu().mesh() == null ? null
                        : s.cpu().mesh().cpuMsPerTransaction();
                Double app = s.cpu() == null || s.cpu().app() == null ? null : s.cpu().app().cpuMsPerTransaction();
                StepWork w = s.work();
                h.append("<td>").append(mesh == null ? "" : Numbers.fixed(mesh, 3)).append("</td><td>")
                        .append(app == null ? "" : Numbers.fixed(app, 3)).append("</td><td>")
                        .append(w == null || w.mongoCommandsPerTransaction() == null ? "" : Numbers.fixed(w.mongoCommandsPerTransaction(), 2))
                        .append("</td><td>")
                        .append(w == null || w.interServiceCallsPerTransaction() == null ? "" : Numbers.fixed(w.interServiceCallsPerTransaction(), 2))
                        .append("</td><td>")
                        .append(w == null || w.mongoPathBytesPerTransaction() == null ? "" : Numbers.fixed(w.mongoPathBytesPerTransaction(), 0))
                        .append("</td>");
                dev.meshbench.results.StepHost host = s.host();
                if (host == null) {
                    h.append("<td></td><td></td><td></td></tr>\n");
                } else {
                    h.append(host.saturated() ? "<td class=\"bad\">" : "<td>").append(Numbers.fixed(host.busyPercent(), 1))
                            .append(host.saturated() ? " saturated" : "").append("</td><td>")
                            .append(Numbers.fixed(host.runQueue(), 1)).append("</td><td>")
                            .append(host.loadGeneratorCpuPercent() == null ? "" : Numbers.fixed(host.loadGeneratorCpuPercent(), 0))
                            .append("</td></tr>\n");
                }
                first = false;
            }
        }
        h.append("</table></div>\n");
    }

    /** An input shown per run, or once when every run has the same value. */
    private record Input(String header, Function<RunInputs, String> value) {
    }

    private static final List<Input> INPUTS = List.of(
            new Input("data plane", in -> in.dataPlaneOrUnknown().label()),
            new Input("target", in -> in.target().id()),
            new Input("client steps", in -> in.clientSteps().stream().map(String::valueOf)
                    .collect(Collectors.joining(", "))),
            new Input("step (s)", in -> Integer.toString(in.stepSeconds())),
            new Input("warm-up (s)", in -> Integer.toString(in.warmupSeconds())),
            new Input("think time (ms)", in -> Integer.toString(in.thinkTimeMs())),
            new Input("customers", in -> Integer.toString(in.customers())),
            new Input("meshbench", in -> in.versions().kit()),
            new Input("JDK", in -> in.versions().jdk()),
            new Input("JMeter", in -> in.versions().jmeter()),
            new Input("machine", in -> in.machine().cores() + " cores, "
                    + Numbers.fixed(in.machine().memoryBytes() / (double) (1L << 30), 1) + " GiB, "
                    + in.machine().os()));

    /** Shown after {@link #INPUTS} when some run recorded its cluster (a report's runs share one target). */
    private static final Input CLUSTER = new Input("cluster", in -> in.cluster() == null ? "not recorded"
            : in.cluster().summary());

    private static void runs(StringBuilder h, ReportModel m) {
        List<LoadedRun> loaded = runsInReportOrder(m);
        List<RunInputs> all = loaded.stream().map(r -> r.results().inputs()).toList();
        List<Input> inputs = new ArrayList<>(INPUTS);
        if (all.stream().anyMatch(in -> in.cluster() != null)) {
            inputs.add(CLUSTER);
        }
        List<Input> shared = inputs.stream()
                .filter(i -> all.stream().map(i.value()).distinct().count() == 1).toList();
        List<Input> varying = inputs.stream().filter(i -> !shared.contains(i)).toList();
        h.append("<h2 id=\"runs\">Runs and their inputs</h2>\n");
        dataPlanes(h, loaded);
        if (!shared.isEmpty()) {
            h.append("<p>Shared by every run:</p>\n<table>\n");
            for (Input i : shared) {
                h.append("<tr><th class=\"l\">").append(esc(i.header())).append("</th><td class=\"l\">")
                        .append(esc(i.value().apply(all.get(0)))).append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        h.append("<div class=\"wide\"><table>\n<tr><th class=\"l\">run</th><th class=\"l\">case</th>"
                + "<th class=\"l\">started</th>");
        for (Input i : varying) {
            h.append("<th class=\"l\">").append(esc(i.header())).append("</th>");
        }
        h.append("<th class=\"l\">file</th></tr>\n");
        for (LoadedRun r : loaded) {
            RunInputs in = r.results().inputs();
            h.append("<tr><td class=\"l\">").append(esc(in.runId())).append("</td><td class=\"l\">")
                    .append(swatch(m, summaryOf(m, r))).append(esc(in.caseId())).append("</td><td class=\"l\">")
                    .append(TIME.format(in.startTime())).append("</td>");
            for (Input i : varying) {
                h.append("<td class=\"l\">").append(esc(i.value().apply(in))).append("</td>");
            }
            h.append("<td class=\"l\"><code>").append(esc(relative(m, r.file().toString())))
                    .append("</code></td></tr>\n");
        }
        h.append("</table></div>\n");
    }

    /**
     * One row per data plane (label): the versions of each component kind, the proxies' worker threads and TLS
     * provider over its runs (several values when its runs differ), and which runs used it.
     */
    private static void dataPlanes(StringBuilder h, List<LoadedRun> runs) {
        Map<String, List<LoadedRun>> byLabel = new LinkedHashMap<>();
        for (LoadedRun r : runs) {
            byLabel.computeIfAbsent(r.dataPlaneLabel(), k -> new ArrayList<>()).add(r);
        }
        h.append("<p>Data planes (the proxies that carried the mesh traffic):</p>\n<div class=\"wide\"><table>\n"
                + "<tr><th class=\"l\">data plane</th><th class=\"l\">versions</th><th>workers</th>"
                + "<th class=\"l\">sidecar mTLS</th><th class=\"l\">TLS provider</th><th class=\"l\">runs</th>"
                + "</tr>\n");
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
            String versions = kinds.isEmpty() ? "not recorded" : kinds.stream()
                    .map(k -> esc(k) + ": " + esc(distinct(planes.stream().filter(p -> p.versions().containsKey(k))
                            .toList(), p -> p.versions().get(k), "", " / ")))
                    .collect(Collectors.joining("<br>"));
            h.append("<tr><td class=\"l\">").append(esc(e.getKey())).append("</td><td class=\"l\">")
                    .append(versions).append("</td><td>")
                    .append(esc(distinct(planes, p -> p.workers() == null ? null : p.workers().toString(),
                            "not recorded", ", ")))
                    .append("</td><td class=\"l\">").append(planes.get(0).sidecarMtls() ? "yes" : "no")
                    .append("</td><td class=\"l\">")
                    .append(esc(distinct(planes, DataPlaneInfo::tlsProvider, "not recorded", ", ")))
                    .append("</td><td class=\"l\">")
                    .append(esc(e.getValue().stream().map(LoadedRun::runId).collect(Collectors.joining(", "))))
                    .append("</td></tr>\n");
        }
        h.append("</table></div>\n");
    }

    /** The distinct values of {@code value} over {@code planes}, in order; {@code missing} stands for null. */
    private static String distinct(List<DataPlaneInfo> planes, Function<DataPlaneInfo, String> value, String missing,
            String separator) {
        return planes.stream().map(p -> Objects.requireNonNullElse(value.apply(p), missing)).distinct()
                .collect(Collectors.joining(separator));
    }

    private static void skipped(StringBuilder h, ReportModel m) {
        h.append("<h2 id=\"skipped\">Skipped</h2>\n");
        if (m.loaded().skipped().isEmpty()) {
            h.append("<p>Nothing was skipped.</p>\n");
            return;
        }
        h.append("<p>These files are not in the figures or tables above.</p>\n<table>\n<tr><th class=\"l\">file</th>"
                + "<th class=\"l\">reason</th></tr>\n");
        for (SkippedRun s : m.loaded().skipped()) {
            h.append("<tr><td class=\"l\"><code>").append(esc(relative(m, s.file().toString())))
                    .append("</code></td><td class=\"l\">").append(esc(s.reason())).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static void notes(StringBuilder h, ReportModel m) {
        List<LoadedRun> withNotes = runsInReportOrder(m).stream().filter(r -> !r.results().notes().isEmpty())
                .toList();
        if (withNotes.isEmpty()) {
            return;
        }
        h.append("<h2 id=\"notes\">Converter notes</h2>\n<p>What the conversion of each run noticed.</p>\n<ul>\n");
        for (LoadedRun r : withNotes) {
            for (String n : r.results().notes()) {
                h.append("<li><b>").append(esc(r.runId())).append("</b>: ").append(esc(n)).append("</li>\n");
            }
        }
        h.append("</ul>\n");
    }

    private static void method(StringBuilder h, ReportModel m) {
        h.append("<h2 id=\"method\">How the numbers are made</h2>\n<ul>\n")
                .append("<li>Each step runs a fixed number of concurrent JMeter clients for the step's duration. "
                        + "The first warm-up seconds of every step are skipped, for latency and CPU alike; the rest "
                        + "is the <i>measured window</i>.</li>\n")
                .append("<li><b>Transactions</b> are successful samples in the window; <b>errors</b> are failed "
                        + "samples (<code>success=false</code>). Throughput = transactions / window seconds.</li>\n")
                .append("<li><b>Response time</b> statistics cover successful samples only (JMeter's own aggregate "
                        + "report includes failures; a fast-failing case would otherwise look fast). Percentiles "
                        + "come from one HdrHistogram (3 significant digits) per run and step, never from averages "
                        + "of averages.</li>\n")
                .append("<li><b>CPU</b> of a component in the window is the difference of its cumulative CPU time, "
                        + "interpolated linearly between samples (about one per second) at the window's edges. "
                        + "CPU per transaction = CPU milliseconds / transactions. Mesh = sidecars + egress gateway "
                        + "+ SNI proxy; app = auth + customer + flight + booking.</li>\n")
                .append("<li>Runs are grouped by case and <b>data plane</b> (its name, plus &ldquo;no sidecar "
                        + "mTLS&rdquo; when sidecars talk plain HTTP to each other); groups are never mixed. Runs "
                        + "that did not record a data plane (schema version 1) ran on the Netty relays and are shown "
                        + "as &ldquo;netty (no sidecar mTLS)&rdquo;.</li>\n")
                .append("<li>Repeats of a case on a data plane are shown as the mean over runs with the lowest and "
                        + "highest run; the change against bypass compares means on the same data plane.</li>\n")
                .append("<li>A run is left out when it failed, did not finish, cannot be read, or its target or "
                        + "client steps differ from most runs.</li>\n</ul>\n");
    }

    private static void cell(StringBuilder h, Spread s, int decimals) {
        h.append("<td>");
        if (s != null) {
            h.append(Numbers.fixed(s.mean(), decimals));
            if (s.halfWidth95() != null) {
                h.append("<span class=\"ci\" title=\"95&nbsp;% confidence interval of the mean over ").append(s.n())
                        .append(" runs (Student's t)\"> &plusmn;&nbsp;").append(Numbers.fixed(s.halfWidth95(), decimals)).append("</span>");
            }
            if (s.varies()) {
                h.append("<span class=\"spread\">").append(Numbers.fixed(s.min(), decimals)).append("&ndash;")
                        .append(Numbers.fixed(s.max(), decimals)).append("</span>");
            }
        }
        h.append("</td>");
    }

    /** Whether a comparison row is its data plane's baseline, has one, or has none. */
    private enum Baseline {
        IS_BASELINE, PRESENT, MISSING
    }

    private static void change(StringBuilder h, Double percent, boolean higherIsBetter, Baseline base,
            String dataPlane) {
        switch (base) {
            case IS_BASELINE -> {
                h.append("<td class=\"muted\">baseline</td>");
                return;
            }
            case MISSING -> {
                h.append("<td class=\"muted\" title=\"no ").append(ResultsSchema.BASELINE_CASE)
                        .append(" run on data plane ").append(esc(dataPlane)).append("\">no ")
                        .append(ResultsSchema.BASELINE_CASE).append(" run</td>");
                return;
            }
            case PRESENT -> {
                // compared below
            }
        }
        if (percent == null) {
            h.append("<td></td>");
            return;
        }
        boolean worse = higherIsBetter ? percent < -MARKED_CHANGE : percent > MARKED_CHANGE;
        boolean better = higherIsBetter ? percent > MARKED_CHANGE : percent < -MARKED_CHANGE;
        h.append(worse ? "<td class=\"bad\">" : better ? "<td class=\"good\">" : "<td>")
                .append(esc(Numbers.change(percent)).replace(" %", "&nbsp;%")).append("</td>");
    }

    private static String swatch(ReportModel m, CaseSummary summary) {
        java.awt.Color c = Labels.color(m, summary);
        return String.format(Locale.ROOT, "<span class=\"swatch\" style=\"background:#%06x\"></span>",
                c.getRGB() & 0xffffff);
    }

    private static CaseSummary summaryOf(ReportModel m, LoadedRun r) {
        return m.cases().stream().filter(c -> c.runs().contains(r)).findFirst().orElseThrow();
    }

    private static List<LoadedRun> runsInReportOrder(ReportModel m) {
        return m.cases().stream().flatMap(c -> c.runs().stream()).toList();
    }

    private static String relative(ReportModel m, String file) {
        String dir = m.loaded().directory().toString();
        return file.startsWith(dir + java.io.File.separator) ? file.substring(dir.length() + 1) : file;
    }

    /** {@code s} safe as HTML text and attribute value: {@code < > & "} escaped. */
    public static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }
}
