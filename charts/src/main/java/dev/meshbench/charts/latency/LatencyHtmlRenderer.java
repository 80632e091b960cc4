package dev.meshbench.charts.latency;

import static dev.meshbench.charts.render.HtmlReportRenderer.esc;

import dev.meshbench.charts.load.SkippedRun;
import dev.meshbench.charts.render.ChartStyle;
import dev.meshbench.charts.render.HtmlReportRenderer;
import dev.meshbench.charts.render.Numbers;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.LoadPhase;
import dev.meshbench.results.TargetKind;
import java.io.File;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The latency report's page: one self-contained {@code index.html} (the egress report's inline CSS, no scripts, the
 * chart and CSV beside it) with what the study is and how each figure was measured, one table per data plane with
 * the gist's figures next to ours, failed cells and skipped files with their reasons, and the added-latency chart
 * with its numbers.
 */
public final class LatencyHtmlRenderer {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    private static final String CSS = HtmlReportRenderer.CSS + """
            tr.behind td{background:#fff6e0}tr.absent td{color:#888}td.gist{background:#f7f7f7;color:#444}
            .flag{display:inline-block;background:#b36b00;color:#fff;font-weight:600;font-size:.8rem;padding:0 .35em;
            border-radius:3px}.flag.failed{background:#b00020}.why{display:block;color:#666;font-size:.8rem;white-space:normal;
            max-width:26rem}
            """;

    /** What each known data plane is, for the page. */
    private static final Map<String, String> DATA_PLANES = Map.of(
            DataPlaneInfo.NETTY, "meshbench's Netty relays standing in for Envoy as sidecar and ingress gateway",
            DataPlaneInfo.ENVOY, "Envoy as sidecar and ingress gateway");

    private LatencyHtmlRenderer() {
    }

    /** The page for {@code model}, generated at {@code now}. */
    public static String render(LatencyReportModel model, Instant now) {
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>meshbench latency report</title>\n<style>\n").append(CSS)
                .append("</style>\n</head>\n<body>\n");
        h.append("<h1>meshbench latency study: what a sidecar and an ingress gateway add</h1>\n");
        intro(h, model);
        warnings(h, model);
        method(h, model);
        for (String plane : model.dataPlanes()) {
            table(h, model, plane);
        }
        failed(h, model);
        added(h, model);
        notes(h, model);
        skipped(h, model);
        h.append("<h2>Files</h2>\n<ul class=\"files\">\n")
                .append("<li><a href=\"").append(LatencyReport.CSV).append("\">").append(LatencyReport.CSV)
                .append("</a>: one row per data plane and cell, ours next to the gist's (a cell without a passed run "
                        + "has empty measured columns)</li>\n")
                .append("<li><a href=\"").append(LatencyReport.PNG).append("\">").append(LatencyReport.PNG)
                .append("</a>: the added-latency chart</li>\n</ul>\n");
        h.append("<p class=\"muted\">Generated ").append(TIME.format(now))
                .append(" by meshbench charts from the latency.json files only; rebuild it any time without running "
                        + "anything.</p>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void intro(StringBuilder h, LatencyReportModel m) {
        h.append("<p class=\"lead\">meshbench's second study repeats <a href=\"").append(esc(m.gist().source()))
                .append("\">&ldquo;Istio Latency Analysis&rdquo;</a>, a gist by therealmitchconnors: how much latency "
                        + "an Istio sidecar and an Istio ingress gateway add to a trivial service. The matrix has ")
                .append(m.gist().rows().size()).append(" cells: the service graph <code>single</code> (one service "
                        + "that answers at once) or <code>double</code> (a frontend that calls a backend), 1 or 5 "
                        + "replicas of every service (and of the gateway), with or without an ingress gateway, with or "
                        + "without a sidecar on every replica. A cell is written "
                        + "<code>&lt;graph&gt;/&lt;scale&gt;/&lt;ingress&gt;/&lt;sidecar&gt;</code>, e.g. "
                        + "<code>double/5/gateway/sidecar</code>. Each cell runs once per data plane.</p>\n");
        h.append("<p>");
        if (m.dataPlanes().isEmpty()) {
            h.append("No latency cell was found in <code>").append(esc(m.loaded().directory().toString()))
                    .append("</code>; the tables and chart below show the gist's figures only.");
        } else {
            h.append("Read from <code>").append(esc(m.loaded().directory().toString())).append("</code>: ")
                    .append(m.dataPlanes().stream().map(p -> {
                        long passed = m.rows(p).stream().filter(r -> r.measured() != null).count();
                        return "<b>" + esc(p) + "</b> " + passed + " of " + m.rows(p).size() + " cells passed";
                    }).collect(Collectors.joining("; "))).append(".");
        }
        h.append("</p>\n");
    }

    private static void warnings(StringBuilder h, LatencyReportModel m) {
        List<String> w = new ArrayList<>();
        List<LatencyRow> behind = m.fellBehind();
        if (!behind.isEmpty()) {
            w.add("In " + count(behind.size(), "cell") + " the load generator <b>fell behind</b> its open-loop schedule "
                    + "(" + esc(behind.stream().map(r -> r.dataPlane() + " " + r.cell()).collect(Collectors.joining(", ")))
                    + "): the rate offered was lower than asked, so those latencies were measured at less than "
                    + esc(AddedLatencyChartRenderer.fraction(m)) + " of MaxQPS. They are flagged in the tables.");
        }
        List<LatencyRow> errors = m.rows().stream().filter(r -> r.errors() != null && r.errors() > 0).toList();
        if (!errors.isEmpty()) {
            w.add(count(errors.size(), "cell") + " had failed requests ("
                    + esc(errors.stream().map(r -> r.dataPlane() + " " + r.cell()).collect(Collectors.joining(", ")))
                    + "); their errors are red in the tables.");
        }
        if (!m.loaded().failed().isEmpty()) {
            w.add(count(m.loaded().failed().size(), "cell run") + " failed; see <a href=\"#failed\">Failed cells</a>.");
        }
        if (!m.loaded().skipped().isEmpty()) {
            w.add(count(m.loaded().skipped().size(), "file") + (m.loaded().skipped().size() == 1 ? " was" : " were")
                    + " skipped; see <a href=\"#skipped\">Skipped</a>.");
        }
        for (String s : w) {
            h.append("<div class=\"warn\">").append(s).append("</div>\n");
        }
    }

    private static void method(StringBuilder h, LatencyReportModel m) {
        List<LatencyCellResults> cells = m.loaded().passed().stream().map(LoadedCell::results).toList();
        String connections = distinct(cells, c -> c.maxRate().connections() + "");
        String fraction = AddedLatencyChartRenderer.fraction(m);
        h.append("<h2 id=\"method\">What was measured, and how</h2>\n<ul>\n");
        h.append("<li><b>MaxQPS</b>: a closed loop of ").append(esc(orElse(connections, "64")))
                .append(" connections (the gist's fortio <code>-c 64 -qps 0</code>), each sending its next request as "
                        + "soon as the previous answer arrived, for ")
                .append(esc(orElse(distinct(cells, c -> Numbers.plain(c.maxRate().seconds(), 1)), "30"))).append(" s; "
                        + "MaxQPS is the requests completed per second.</li>\n");
        h.append("<li><b>P50, P90, P99, P99.9</b>: an open loop at ").append(esc(fraction))
                .append(" of that MaxQPS for ")
                .append(esc(orElse(distinct(cells, c -> Numbers.plain(c.atFraction().seconds(), 1)), "30")))
                .append(" s over the same connections. Requests are due at fixed intended send times, and each latency "
                        + "counts from its intended send time, not from when it was sent: a request that waited for a "
                        + "free connection or for a late generator carries its wait, so there is no coordinated "
                        + "omission. Percentiles come from one HdrHistogram per cell (3 significant digits).</li>\n");
        h.append("<li><b>Fell behind</b>: the generator could not keep the open loop's schedule, so it offered less than "
                + "the rate asked for; the cell is flagged and its latencies describe a lighter load.</li>\n");
        h.append("<li><b>Service P50, P99</b>: the open loop's percentiles counted from each request's actual send, as "
                + "fortio counts them. The gap to P50 and P99 is time requests waited behind their schedule: for a "
                + "free connection, or for a generator that shares the CPUs with what it measures. A large gap in a "
                + "cell that fell behind says its latencies are mostly the generator's wait, not the mesh's.</li>\n");
        h.append("<li><b>Errors</b>: failed requests of both phases; a cell with errors is red.</li>\n");
        h.append("<li><b>One run per cell</b>: nothing is repeated, so no figure has a confidence interval, and a "
                + "difference of a few tens of microseconds between two cells may well be noise.</li>\n");
        h.append("<li><b>Added latency</b> (the chart): a cell's P50 or P99 minus that of the same graph and scale "
                + "without mesh (<code>&lt;graph&gt;/&lt;scale&gt;/none/none</code>) on the same data plane. A "
                + "difference of percentiles is not the percentile of the added time, but it is what the gist's "
                + "table allows to compare.</li>\n");
        h.append("<li><b>Where it ran</b>: ").append(where(m)).append("</li>\n");
        String generators = distinct(cells, LatencyCellResults::generator);
        if (!generators.isEmpty()) {
            h.append("<li><b>Load generator</b>: ").append(esc(generators)).append(".</li>\n");
        }
        h.append("<li><b>The gist's figures</b> (grey columns): fortio inside a Kubernetes cluster with Istio, 64 "
                + "connections, 30 s, MaxQPS with <code>-qps 0</code>, then P50 and P99 at 75&nbsp;% of it, one run "
                + "per cell. It published P50 and P99 in seconds; they are shown here in milliseconds. Its "
                + "<code>No</code>/<code>Istio</code> ingress is our <code>none</code>/<code>gateway</code>, its "
                + "sidecar our <code>none</code>/<code>sidecar</code>.</li>\n");
        h.append("</ul>\n");
    }

    /** Where the cells ran, and what that means for absolute figures. */
    private static String where(LatencyReportModel m) {
        List<LatencyCellResults> cells = Stream.concat(m.loaded().passed().stream(), m.loaded().failed().stream())
                .map(LoadedCell::results).toList();
        if (cells.isEmpty()) {
            return "no cell was read.";
        }
        StringBuilder b = new StringBuilder();
        List<LatencyCellResults> local = cells.stream().filter(c -> c.target() == TargetKind.LOCAL).toList();
        if (!local.isEmpty()) {
            b.append(local.size() == cells.size() ? "every cell" : count(local.size(), "cell"))
                    .append(" ran on the <b>local</b> target: all components and the load generator are processes on "
                            + "one machine (")
                    .append(esc(distinct(local, c -> c.machine().cores() + " cores, " + c.machine().os())))
                    .append(") talking over loopback, so every proxy and service shares the CPUs with the load "
                            + "generator. Absolute figures are not a cluster's, and MaxQPS least of all: compare cells "
                            + "with each other, and the gist's figures by their proportions.");
        }
        long kubernetes = cells.size() - local.size();
        if (kubernetes > 0) {
            b.append(local.isEmpty() ? "every cell" : " " + count((int) kubernetes, "cell"))
                    .append(" ran on a <b>kubernetes</b> cluster, the generator inside it, as in the gist.");
        }
        return b.toString();
    }

    private static void table(StringBuilder h, LatencyReportModel m, String plane) {
        String fraction = AddedLatencyChartRenderer.fraction(m);
        h.append("<h2 id=\"plane-").append(esc(plane)).append("\">").append(esc(plane))
                .append(": ours next to the gist's</h2>\n");
        List<DataPlaneInfo> infos = Stream.concat(m.loaded().passed().stream(), m.loaded().failed().stream())
                .filter(c -> c.dataPlane().equals(plane)).map(c -> c.results().dataPlane()).distinct().toList();
        h.append("<p>").append(esc(DATA_PLANES.getOrDefault(plane, "data plane " + plane))).append(". ")
                .append(esc(infos.stream().map(d -> d.label() + ": " + d.versionsText()
                        + (d.workers() == null ? "" : ", " + d.workers() + " worker threads per proxy"))
                        .distinct().collect(Collectors.joining("; "))))
                .append(". Latencies in ms at ").append(esc(fraction)).append(" of MaxQPS; rates in requests/s.</p>\n");
        h.append("<div class=\"wide\"><table>\n<tr><th class=\"l\" rowspan=\"2\">svc</th><th rowspan=\"2\">scale</th>"
                + "<th class=\"l\" rowspan=\"2\">ingress</th><th class=\"l\" rowspan=\"2\">sidecar</th>"
                + "<th colspan=\"2\">P99 ms</th><th colspan=\"2\">P50 ms</th><th colspan=\"2\">MaxQPS</th>"
                + "<th rowspan=\"2\">P90<br>ms</th><th rowspan=\"2\">P99.9<br>ms</th>"
                + "<th rowspan=\"2\">service<br>P50 ms</th><th rowspan=\"2\">service<br>P99 ms</th><th rowspan=\"2\">")
                .append(esc(fraction)).append(" asked<br>req/s</th><th rowspan=\"2\">achieved<br>req/s</th>"
                        + "<th rowspan=\"2\">errors</th><th class=\"l\" rowspan=\"2\">flags</th>"
                        + "<th class=\"l\" rowspan=\"2\">run</th></tr>\n"
                        + "<tr><th>ours</th><th>gist</th><th>ours</th><th>gist</th><th>ours</th><th>gist</th></tr>\n");
        for (LatencyRow r : m.rows(plane)) {
            boolean behind = Boolean.TRUE.equals(r.fellBehind());
            h.append(behind ? "<tr class=\"behind\">" : r.measured() == null ? "<tr class=\"absent\">" : "<tr>")
                    .append("<td class=\"l\">").append(esc(r.cell().graph())).append("</td><td>").append(r.cell().scale())
                    .append("</td><td class=\"l\">").append(r.cell().ingressId()).append("</td><td class=\"l\">")
                    .append(r.cell().sidecarId()).append("</td>");
            cell(h, r.p99Ms(), 3);
            gist(h, r.gistP99Ms(), 3);
            cell(h, r.p50Ms(), 3);
            gist(h, r.gistP50Ms(), 3);
            cell(h, r.maxQps(), 0);
            gist(h, r.gistMaxQps(), 0);
            cell(h, r.p90Ms(), 3);
            cell(h, r.p999Ms(), 3);
            cell(h, r.serviceP50Ms(), 3);
            cell(h, r.serviceP99Ms(), 3);
            cell(h, r.rateTarget(), 0);
            cell(h, r.rateAchieved(), 0);
            errors(h, r);
            h.append("<td class=\"l\">").append(flags(r)).append("</td><td class=\"l\">")
                    .append(esc(r.measured() != null ? r.runId() : r.failure() != null ? r.failure().runId() : ""))
                    .append("</td></tr>\n");
        }
        h.append("</table></div>\n");
    }

    private static void errors(StringBuilder h, LatencyRow r) {
        if (r.errors() == null) {
            h.append("<td></td>");
            return;
        }
        if (r.errors() == 0) {
            h.append("<td>0</td>");
            return;
        }
        LatencyCellResults c = r.measured().results();
        h.append("<td class=\"bad\" title=\"").append(esc("MaxQPS phase: " + phaseErrors(c.maxRate())
                        + "; open loop: " + phaseErrors(c.atFraction())))
                .append("\">").append(r.errors()).append("</td>");
    }

    private static String phaseErrors(LoadPhase p) {
        return p.errorCount() + " of " + p.requests() + (p.errors().isEmpty() ? "" : " " + p.errors());
    }

    private static String flags(LatencyRow r) {
        if (r.measured() == null) {
            if (r.failure() != null) {
                return "<span class=\"flag failed\">failed</span><span class=\"why\">"
                        + esc(r.failure().results().failureReason()) + "</span>";
            }
            return "not run";
        }
        List<String> f = new ArrayList<>();
        if (Boolean.TRUE.equals(r.fellBehind())) {
            f.add("<span class=\"flag\">fell behind</span><span class=\"why\">" + esc(r.fellBehindReason()) + "</span>");
        }
        if (r.errors() > 0) {
            f.add("<span class=\"flag failed\">errors</span>");
        }
        return String.join(" ", f);
    }

    private static void failed(StringBuilder h, LatencyReportModel m) {
        h.append("<h2 id=\"failed\">Failed cells</h2>\n");
        if (m.loaded().failed().isEmpty()) {
            h.append("<p>No cell failed.</p>\n");
            return;
        }
        h.append("<p>Every failed run, with the reason the orchestrator recorded. A failed cell has no figures above "
                + "unless a passed run of it is shown.</p>\n<table>\n<tr><th class=\"l\">data plane</th>"
                + "<th class=\"l\">cell</th><th class=\"l\">run</th><th class=\"l\">started</th>"
                + "<th class=\"l\">reason</th><th class=\"l\">shown instead</th></tr>\n");
        for (LoadedCell c : m.loaded().failed()) {
            String shown = m.row(c.dataPlane(), c.cell()).map(LatencyRow::runId).orElse(null);
            h.append("<tr><td class=\"l\">").append(esc(c.dataPlane())).append("</td><td class=\"l\">")
                    .append(esc(c.cell().id())).append("</td><td class=\"l\">").append(esc(c.runId()))
                    .append("</td><td class=\"l\">").append(TIME.format(c.startTime())).append("</td><td class=\"l\">")
                    .append(esc(c.results().failureReason())).append("</td><td class=\"l\">")
                    .append(shown == null ? "nothing: the cell has no figures" : "passed run " + esc(shown))
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static void added(StringBuilder h, LatencyReportModel m) {
        h.append("<h2 id=\"added\">Latency the mesh adds</h2>\n<figure><img src=\"").append(LatencyReport.PNG)
                .append("\" width=\"").append(ChartStyle.WIDTH).append("\" alt=\"P50 and P99 added by a gateway, a "
                        + "sidecar and both over the same graph and scale without mesh, per data plane and in the gist"
                        + "\">\n<figcaption>Each bar: a cell's P50 or P99 minus that of <code>&lt;graph&gt;/&lt;scale&gt;"
                        + "/none/none</code> on the same data plane; one panel per data plane, on a shared scale, and "
                        + "a grey one with the same differences in the gist's published table, on its own scale. A "
                        + "missing bar means the cell or its baseline has no passed run (listed below). One run per "
                        + "cell, so no interval. The numbers:</figcaption></figure>\n");
        List<String> sources = new ArrayList<>(m.dataPlanes());
        sources.add(AddedLatency.GIST);
        h.append("<div class=\"wide\"><table>\n<tr><th class=\"l\" rowspan=\"2\">graph/scale</th>"
                + "<th class=\"l\" rowspan=\"2\">mesh</th>");
        for (String s : sources) {
            h.append("<th colspan=\"2\"").append(AddedLatency.GIST.equals(s) ? " class=\"gist\"" : "").append(">")
                    .append(esc(AddedLatencyChartRenderer.sourceName(s))).append("</th>");
        }
        h.append("</tr>\n<tr>");
        sources.forEach(s -> h.append("<th>+P50 ms</th><th>+P99 ms</th>"));
        h.append("</tr>\n");
        for (CellId cell : m.meshCells()) {
            h.append("<tr><td class=\"l\">").append(esc(cell.graph() + "/" + cell.scale())).append("</td><td class=\"l\">")
                    .append(cell.mesh()).append("</td>");
            for (String s : sources) {
                AddedLatency a = m.added(s).stream().filter(x -> x.cell().equals(cell)).findFirst().orElseThrow();
                if (a.missing() != null) {
                    h.append("<td colspan=\"2\" class=\"muted\" title=\"").append(esc(a.missing()))
                            .append("\">no bar</td>");
                } else {
                    String cls = AddedLatency.GIST.equals(s) ? "<td class=\"gist\">" : "<td>";
                    h.append(cls).append(Numbers.fixed(a.p50Ms(), 3)).append("</td>").append(cls)
                            .append(Numbers.fixed(a.p99Ms(), 3)).append("</td>");
                }
            }
            h.append("</tr>\n");
        }
        h.append("</table></div>\n");
        leftOut(h, m, sources);
    }

    /** Per data plane (and the gist), the baselines and cells whose absence leaves bars out. */
    private static void leftOut(StringBuilder h, LatencyReportModel m, List<String> sources) {
        List<String> lines = new ArrayList<>();
        for (String s : sources) {
            boolean gist = AddedLatency.GIST.equals(s);
            Predicate<CellId> has = gist ? c -> m.gist().row(c).isPresent()
                    : c -> m.row(s, c).map(r -> r.measured() != null).orElse(false);
            List<AddedLatency> missing = m.added(s).stream().filter(a -> a.missing() != null).toList();
            List<String> baselines = missing.stream().map(a -> a.cell().baseline()).filter(has.negate()).distinct()
                    .map(LatencyHtmlRenderer::code).toList();
            List<String> cells = missing.stream().map(AddedLatency::cell).filter(c -> has.test(c.baseline()))
                    .map(LatencyHtmlRenderer::code).toList();
            List<String> parts = new ArrayList<>();
            if (!baselines.isEmpty()) {
                parts.add((gist ? "no row for the baseline" : "no passed baseline") + (baselines.size() == 1 ? " " : "s ")
                        + String.join(", ", baselines) + ", so no cell of " + (baselines.size() == 1 ? "its" : "their")
                        + " graph and scale has a bar");
            }
            if (!cells.isEmpty()) {
                parts.add((gist ? "no row for " : "no passed run of ") + String.join(", ", cells));
            }
            if (!parts.isEmpty()) {
                lines.add("<li><b>" + esc(AddedLatencyChartRenderer.sourceName(s)) + "</b>: " + String.join("; ", parts)
                        + ".</li>\n");
            }
        }
        if (!lines.isEmpty()) {
            h.append("<p>Bars left out:</p>\n<ul>\n");
            lines.forEach(h::append);
            h.append("</ul>\n");
        }
    }

    private static String code(CellId cell) {
        return "<code>" + esc(cell.id()) + "</code>";
    }

    private static void notes(StringBuilder h, LatencyReportModel m) {
        List<LoadedCell> withNotes = Stream.concat(m.loaded().passed().stream(), m.loaded().failed().stream())
                .filter(c -> !c.results().notes().isEmpty()).sorted(LoadedCell.REPORT_ORDER).toList();
        if (withNotes.isEmpty()) {
            return;
        }
        h.append("<h2 id=\"notes\">Cell notes</h2>\n<p>What each run noticed while it ran.</p>\n<ul>\n");
        for (LoadedCell c : withNotes) {
            for (String n : c.results().notes()) {
                h.append("<li><b>").append(esc(c.dataPlane() + " " + c.cell().id())).append("</b> (")
                        .append(esc(c.runId())).append("): ").append(esc(n)).append("</li>\n");
            }
        }
        h.append("</ul>\n");
    }

    private static void skipped(StringBuilder h, LatencyReportModel m) {
        h.append("<h2 id=\"skipped\">Skipped</h2>\n");
        if (m.loaded().skipped().isEmpty()) {
            h.append("<p>Nothing was skipped.</p>\n");
            return;
        }
        h.append("<p>These files are not in the tables or the chart.</p>\n<table>\n<tr><th class=\"l\">file</th>"
                + "<th class=\"l\">reason</th></tr>\n");
        String dir = m.loaded().directory().toString() + File.separator;
        for (SkippedRun s : m.loaded().skipped()) {
            String file = s.file().toString();
            h.append("<tr><td class=\"l\"><code>").append(esc(file.startsWith(dir) ? file.substring(dir.length()) : file))
                    .append("</code></td><td class=\"l\">").append(esc(s.reason())).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static void cell(StringBuilder h, Double value, int decimals) {
        h.append("<td>").append(value == null ? "" : Numbers.fixed(value, decimals)).append("</td>");
    }

    private static void gist(StringBuilder h, Double value, int decimals) {
        h.append("<td class=\"gist\">").append(value == null ? "" : Numbers.fixed(value, decimals)).append("</td>");
    }

    private static <T> String distinct(List<T> items, Function<T, String> value) {
        return items.stream().map(value).distinct().sorted().collect(Collectors.joining(", "));
    }

    private static String orElse(String value, String fallback) {
        return value.isEmpty() ? fallback : value;
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
