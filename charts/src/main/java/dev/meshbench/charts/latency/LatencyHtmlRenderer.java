package dev.meshbench.charts.latency;

import static dev.meshbench.charts.html.Html.code;
import static dev.meshbench.charts.html.Html.el;
import static dev.meshbench.charts.html.Html.entity;
import static dev.meshbench.charts.html.Html.fragment;
import static dev.meshbench.charts.html.Html.link;
import static dev.meshbench.charts.html.Html.td;
import static dev.meshbench.charts.html.Html.tdL;
import static dev.meshbench.charts.html.Html.text;
import static dev.meshbench.charts.html.Html.th;
import static dev.meshbench.charts.html.Html.thL;

import dev.meshbench.charts.html.Element;
import dev.meshbench.charts.html.Html;
import dev.meshbench.charts.html.Node;
import dev.meshbench.charts.render.ChartStyle;
import dev.meshbench.charts.render.HtmlReportRenderer;
import dev.meshbench.charts.render.Numbers;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.LoadPhase;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The latency report's page: one self-contained {@code index.html} (the egress report's inline CSS, no scripts, the
 * chart and CSV beside it) with what the study is and how each figure was measured, one table per data plane with
 * the gist's figures next to ours, failed cells and skipped files with their reasons, and the added-latency chart
 * with its numbers. A pure function of {@link LatencyTables}, built with the {@link Html} builder so everything the
 * runs wrote is escaped by construction.
 */
public final class LatencyHtmlRenderer {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    /** A no-break space, written as {@code &nbsp;}. */
    private static final String NBSP = "\u00a0";

    private static final String CSS = HtmlReportRenderer.CSS + """
            tr.behind td{background:#fff6e0}tr.absent td{color:#888}td.gist{background:#f7f7f7;color:#444}
            .flag{display:inline-block;background:#b36b00;color:#fff;font-weight:600;font-size:.8rem;padding:0 .35em;
            border-radius:3px}.flag.failed{background:#b00020}.why{display:block;color:#666;font-size:.8rem;white-space:normal;
            max-width:26rem}
            """;

    private LatencyHtmlRenderer() {
    }

    /** The page for {@code model}, generated at {@code now}. */
    public static String render(LatencyReportModel model, Instant now) {
        return render(LatencyTables.of(model), now);
    }

    /** The page for {@code tables}, generated at {@code now}. */
    public static String render(LatencyTables t, Instant now) {
        Element body = el("body");
        body.add(el("h1").text("meshbench latency study: what a sidecar and an ingress gateway add"));
        body.add(intro(t), warnings(t), method(t));
        for (LatencyTables.PlaneSummary plane : t.planes()) {
            body.add(table(t, plane));
        }
        body.add(failed(t), added(t), notes(t), skipped(t));
        body.add(el("h2").text("Files"), el("ul").cls("files").add(
                el("li").add(link(LatencyReport.CSV, LatencyReport.CSV), text(": one row per data plane and cell, "
                        + "ours next to the gist's (a cell without a passed run has empty measured columns)")),
                el("li").add(link(LatencyReport.PNG, LatencyReport.PNG), text(": the added-latency chart"))));
        body.add(el("p").cls("muted").text("Generated " + TIME.format(now) + " by meshbench charts from the "
                + "latency.json files only; rebuild it any time without running anything."));
        return Html.document(HtmlReportRenderer.page("meshbench latency report", CSS, body));
    }

    private static Node intro(LatencyTables t) {
        LatencyReportModel m = t.model();
        Element lead = el("p").cls("lead").add(text("meshbench's second study repeats "),
                el("a").attr("href", m.gist().source()).add(entity("ldquo"), text("Istio Latency Analysis"),
                        entity("rdquo")),
                text(", a gist by therealmitchconnors: how much latency an Istio sidecar and an Istio ingress gateway "
                        + "add to a trivial service. The matrix has " + m.gist().rows().size() + " cells: the service "
                        + "graph "), code("single"), text(" (one service that answers at once) or "), code("double"),
                text(" (a frontend that calls a backend), 1 or 5 replicas of every service (and of the gateway), with "
                        + "or without an ingress gateway, with or without a sidecar on every replica. A cell is "
                        + "written "), code("<graph>/<scale>/<ingress>/<sidecar>"), text(", e.g. "),
                code("double/5/gateway/sidecar"), text(". Each cell runs once per data plane."));
        Element read = el("p");
        String dir = m.loaded().directory().toString();
        if (t.planes().isEmpty()) {
            read.add(text("No latency cell was found in "), code(dir),
                    text("; the tables and chart below show the gist's figures only."));
        } else {
            read.add(text("Read from "), code(dir), text(": "));
            for (int i = 0; i < t.planes().size(); i++) {
                LatencyTables.PlaneSummary p = t.planes().get(i);
                read.add(i == 0 ? fragment() : text("; "), el("b").text(p.name()),
                        text(" " + p.passed() + " of " + p.cells() + " cells passed"));
            }
            read.text(".");
        }
        return fragment(lead, read);
    }

    private static Node warnings(LatencyTables t) {
        List<Node> w = new ArrayList<>();
        if (!t.fellBehind().isEmpty()) {
            w.add(fragment(text("In " + count(t.fellBehind().size(), "cell") + " the load generator "),
                    el("b").text("fell behind"), text(" its open-loop schedule (" + cellList(t.fellBehind())
                            + "): the rate offered was lower than asked, so those latencies were measured at less than "
                            + t.fraction() + " of MaxQPS. They are flagged in the tables.")));
        }
        if (!t.withErrors().isEmpty()) {
            w.add(text(count(t.withErrors().size(), "cell") + " had failed requests (" + cellList(t.withErrors())
                    + "); their errors are red in the tables."));
        }
        int failed = t.model().loaded().failed().size();
        if (failed > 0) {
            w.add(fragment(text(count(failed, "cell run") + " failed; see "), link("#failed", "Failed cells"),
                    text(".")));
        }
        int skipped = t.skipped().size();
        if (skipped > 0) {
            w.add(fragment(text(count(skipped, "file") + (skipped == 1 ? " was" : " were") + " skipped; see "),
                    link("#skipped", "Skipped"), text(".")));
        }
        return fragment(w.stream().map(n -> (Node) el("div").cls("warn").add(n)).toList());
    }

    private static String cellList(List<LatencyRow> rows) {
        return rows.stream().map(r -> r.dataPlane() + " " + r.cell()).collect(Collectors.joining(", "));
    }

    private static Node method(LatencyTables t) {
        Element list = el("ul");
        list.add(el("li").add(el("b").text("MaxQPS"), text(": a closed loop of " + orElse(t.connections(), "64")
                        + " connections (the gist's fortio "), code("-c 64 -qps 0"),
                text("), each sending its next request as soon as the previous answer arrived, for "
                        + orElse(t.maxSeconds(), "30") + " s; MaxQPS is the requests completed per second.")));
        list.add(el("li").add(el("b").text("P50, P90, P99, P99.9"), text(": an open loop at " + t.fraction()
                + " of that MaxQPS for " + orElse(t.openSeconds(), "30") + " s over the same connections. Requests "
                + "are due at fixed intended send times, and each latency counts from its intended send time, not "
                + "from when it was sent: a request that waited for a free connection or for a late generator "
                + "carries its wait, so there is no coordinated omission. Percentiles come from one HdrHistogram per "
                + "cell (3 significant digits).")));
        list.add(el("li").add(el("b").text("Fell behind"), text(": the generator could not keep the open loop's "
                + "schedule, so it offered less than the rate asked for; the cell is flagged and its latencies "
                + "describe a lighter load.")));
        list.add(el("li").add(el("b").text("Service P50, P99"), text(": the open loop's percentiles counted from "
                + "each request's actual send, as fortio counts them. The gap to P50 and P99 is time requests waited "
                + "behind their schedule: for a free connection, or for a generator that shares the CPUs with what it "
                + "measures. A large gap in a cell that fell behind says its latencies are mostly the generator's "
                + "wait, not the mesh's.")));
        list.add(el("li").add(el("b").text("Errors"), text(": failed requests of both phases; a cell with errors is "
                + "red.")));
        list.add(el("li").add(el("b").text("One run per cell"), text(": nothing is repeated, so no figure has a "
                + "confidence interval, and a difference of a few tens of microseconds between two cells may well be "
                + "noise.")));
        list.add(el("li").add(el("b").text("Added latency"), text(" (the chart): a cell's P50 or P99 minus that of "
                + "the same graph and scale without mesh ("), code("<graph>/<scale>/none/none"), text(") on the same "
                + "data plane. A difference of percentiles is not the percentile of the added time, but it is what "
                + "the gist's table allows to compare.")));
        list.add(el("li").add(el("b").text("Where it ran"), text(": "), where(t.where())));
        if (!t.generators().isEmpty()) {
            list.add(el("li").add(el("b").text("Load generator"), text(": " + t.generators() + ".")));
        }
        list.add(el("li").add(el("b").text("The gist's figures"), text(" (grey columns): fortio inside a Kubernetes "
                + "cluster with Istio, 64 connections, 30 s, MaxQPS with "), code("-qps 0"), text(", then P50 and P99 "
                + "at 75" + NBSP + "% of it, one run per cell. It published P50 and P99 in seconds; they are shown "
                + "here in milliseconds. Its "), code("No"), text("/"), code("Istio"), text(" ingress is our "),
                code("none"), text("/"), code("gateway"), text(", its sidecar our "), code("none"), text("/"),
                code("sidecar"), text(".")));
        return fragment(el("h2").attr("id", "method").text("What was measured, and how"), list);
    }

    /** Where the cells ran, and what that means for absolute figures. */
    private static Node where(LatencyTables.Where w) {
        if (w.cells() == 0) {
            return text("no cell was read.");
        }
        List<Node> nodes = new ArrayList<>();
        if (w.local() > 0) {
            nodes.add(text((w.local() == w.cells() ? "every cell" : count(w.local(), "cell")) + " ran on the "));
            nodes.add(el("b").text("local"));
            nodes.add(text(" target: all components and the load generator are processes on one machine ("
                    + w.localMachines() + ") talking over loopback, so every proxy and service shares the CPUs with "
                    + "the load generator. Absolute figures are not a cluster's, and MaxQPS least of all: compare "
                    + "cells with each other, and the gist's figures by their proportions."));
        }
        if (w.kubernetes() > 0) {
            nodes.add(text((w.local() == 0 ? "every cell" : " " + count(w.kubernetes(), "cell")) + " ran on a "));
            nodes.add(el("b").text("kubernetes"));
            nodes.add(text(" cluster, the generator inside it, as in the gist."));
        }
        return fragment(nodes);
    }

    private static Node table(LatencyTables t, LatencyTables.PlaneSummary plane) {
        Element table = el("table").add(
                el("tr").add(el("th").cls("l").attr("rowspan", "2").text("svc"), el("th").attr("rowspan", "2")
                                .text("scale"), el("th").cls("l").attr("rowspan", "2").text("ingress"),
                        el("th").cls("l").attr("rowspan", "2").text("sidecar"),
                        el("th").attr("colspan", "2").text("P99 ms"), el("th").attr("colspan", "2").text("P50 ms"),
                        el("th").attr("colspan", "2").text("MaxQPS"),
                        rowspan2("P90", "ms"), rowspan2("P99.9", "ms"), rowspan2("service", "P50 ms"),
                        rowspan2("service", "P99 ms"), rowspan2(t.fraction() + " asked", "req/s"),
                        rowspan2("achieved", "req/s"), rowspan2("errors"),
                        el("th").cls("l").attr("rowspan", "2").text("flags"),
                        el("th").cls("l").attr("rowspan", "2").text("run")),
                el("tr").add(th("ours"), th("gist"), th("ours"), th("gist"), th("ours"), th("gist")));
        for (LatencyRow r : t.model().rows(plane.name())) {
            boolean behind = Boolean.TRUE.equals(r.fellBehind());
            table.add(el("tr").cls(behind ? "behind" : r.measured() == null ? "absent" : null).add(
                    tdL(r.cell().graph()), td(Integer.toString(r.cell().scale())), tdL(r.cell().ingressId()),
                    tdL(r.cell().sidecarId()),
                    cell(r.p99Ms(), 3), gist(r.gistP99Ms(), 3), cell(r.p50Ms(), 3), gist(r.gistP50Ms(), 3),
                    cell(r.maxQps(), 0), gist(r.gistMaxQps(), 0), cell(r.p90Ms(), 3), cell(r.p999Ms(), 3),
                    cell(r.serviceP50Ms(), 3), cell(r.serviceP99Ms(), 3), cell(r.rateTarget(), 0),
                    cell(r.rateAchieved(), 0), errors(r), el("td").cls("l").add(flags(r)),
                    tdL(r.measured() != null ? r.runId() : r.failure() != null ? r.failure().runId() : "")));
        }
        return fragment(
                el("h2").attr("id", "plane-" + plane.name()).text(plane.name() + ": ours next to the gist's"),
                el("p").text(plane.description() + ". " + plane.runsWith() + ". Latencies in ms at " + t.fraction()
                        + " of MaxQPS; rates in requests/s."),
                el("div").cls("wide").add(table));
    }

    private static Element errors(LatencyRow r) {
        if (r.errors() == null) {
            return el("td");
        }
        if (r.errors() == 0) {
            return td("0");
        }
        LatencyCellResults c = r.measured().results();
        return el("td").cls("bad").attr("title", "MaxQPS phase: " + phaseErrors(c.maxRate()) + "; open loop: "
                + phaseErrors(c.atFraction())).text(Long.toString(r.errors()));
    }

    private static String phaseErrors(LoadPhase p) {
        return p.errorCount() + " of " + p.requests() + (p.errors().isEmpty() ? "" : " " + p.errors());
    }

    private static Node flags(LatencyRow r) {
        if (r.measured() == null) {
            if (r.failure() != null) {
                return fragment(el("span").cls("flag failed").text("failed"),
                        el("span").cls("why").text(r.failure().results().failureReason()));
            }
            return text("not run");
        }
        List<Node> f = new ArrayList<>();
        if (Boolean.TRUE.equals(r.fellBehind())) {
            f.add(fragment(el("span").cls("flag").text("fell behind"), el("span").cls("why").text(r.fellBehindReason())));
        }
        if (r.errors() > 0) {
            f.add(el("span").cls("flag failed").text("errors"));
        }
        return joined(f, " ");
    }

    private static Node failed(LatencyTables t) {
        Element h2 = el("h2").attr("id", "failed").text("Failed cells");
        if (t.failed().isEmpty()) {
            return fragment(h2, el("p").text("No cell failed."));
        }
        Element table = el("table").add(el("tr").add(thL("data plane"), thL("cell"), thL("run"), thL("started"),
                thL("reason"), thL("shown instead")));
        for (LatencyTables.FailedLine f : t.failed()) {
            LoadedCell c = f.cell();
            table.add(el("tr").add(tdL(c.dataPlane()), tdL(c.cell().id()), tdL(c.runId()),
                    tdL(TIME.format(c.startTime())), tdL(c.results().failureReason()),
                    tdL(f.shownRunId() == null ? "nothing: the cell has no figures" : "passed run " + f.shownRunId())));
        }
        return fragment(h2, el("p").text("Every failed run, with the reason the orchestrator recorded. A failed cell "
                + "has no figures above unless a passed run of it is shown."), table);
    }

    private static Node added(LatencyTables t) {
        LatencyReportModel m = t.model();
        List<String> sources = new ArrayList<>(m.dataPlanes());
        sources.add(AddedLatency.GIST);
        Element names = el("tr").add(el("th").cls("l").attr("rowspan", "2").text("graph/scale"),
                el("th").cls("l").attr("rowspan", "2").text("mesh"));
        Element units = el("tr");
        for (String s : sources) {
            names.add(el("th").attr("colspan", "2").cls(AddedLatency.GIST.equals(s) ? "gist" : null)
                    .text(AddedLatencyChartRenderer.sourceName(s)));
            units.add(th("+P50 ms"), th("+P99 ms"));
        }
        Element table = el("table").add(names, units);
        for (CellId cell : m.meshCells()) {
            Element row = el("tr").add(tdL(cell.graph() + "/" + cell.scale()), tdL(cell.mesh()));
            for (String s : sources) {
                AddedLatency a = m.added(s).stream().filter(x -> x.cell().equals(cell)).findFirst().orElseThrow();
                if (a.missing() != null) {
                    row.add(el("td").attr("colspan", "2").cls("muted").attr("title", a.missing()).text("no bar"));
                } else {
                    String cls = AddedLatency.GIST.equals(s) ? "gist" : null;
                    row.add(el("td").cls(cls).text(Numbers.fixed(a.p50Ms(), 3)),
                            el("td").cls(cls).text(Numbers.fixed(a.p99Ms(), 3)));
                }
            }
            table.add(row);
        }
        return fragment(
                el("h2").attr("id", "added").text("Latency the mesh adds"),
                el("figure").add(el("img").attr("src", LatencyReport.PNG).attr("width", ChartStyle.WIDTH)
                                .attr("alt", "P50 and P99 added by a gateway, a sidecar and both over the same graph "
                                        + "and scale without mesh, per data plane and in the gist"),
                        el("figcaption").add(text("Each bar: a cell's P50 or P99 minus that of "),
                                code("<graph>/<scale>/none/none"), text(" on the same data plane; one panel per data "
                                        + "plane, on a shared scale, and a grey one with the same differences in the "
                                        + "gist's published table, on its own scale. A missing bar means the cell or "
                                        + "its baseline has no passed run (listed below). One run per cell, so no "
                                        + "interval. The numbers:"))),
                el("div").cls("wide").add(table),
                leftOut(t));
    }

    /** Per data plane (and the gist), the baselines and cells whose absence leaves bars out. */
    private static Node leftOut(LatencyTables t) {
        if (t.leftOut().isEmpty()) {
            return fragment();
        }
        Element list = el("ul");
        for (LatencyTables.LeftOut l : t.leftOut()) {
            List<Node> parts = new ArrayList<>();
            if (!l.baselines().isEmpty()) {
                int n = l.baselines().size();
                parts.add(fragment(text((l.gist() ? "no row for the baseline" : "no passed baseline")
                                + (n == 1 ? " " : "s ")), codes(l.baselines()),
                        text(", so no cell of " + (n == 1 ? "its" : "their") + " graph and scale has a bar")));
            }
            if (!l.cells().isEmpty()) {
                parts.add(fragment(text(l.gist() ? "no row for " : "no passed run of "), codes(l.cells())));
            }
            list.add(el("li").add(el("b").text(AddedLatencyChartRenderer.sourceName(l.source())), text(": "),
                    joined(parts, "; "), text(".")));
        }
        return fragment(el("p").text("Bars left out:"), list);
    }

    private static Node codes(List<CellId> cells) {
        return joined(cells.stream().map(c -> (Node) code(c.id())).toList(), ", ");
    }

    private static Node notes(LatencyTables t) {
        if (t.withNotes().isEmpty()) {
            return fragment();
        }
        Element list = el("ul");
        for (LoadedCell c : t.withNotes()) {
            for (String n : c.results().notes()) {
                list.add(el("li").add(el("b").text(c.dataPlane() + " " + c.cell().id()),
                        text(" (" + c.runId() + "): " + n)));
            }
        }
        return fragment(el("h2").attr("id", "notes").text("Cell notes"),
                el("p").text("What each run noticed while it ran."), list);
    }

    private static Node skipped(LatencyTables t) {
        return HtmlReportRenderer.skippedSection(t.skipped(), "These files are not in the tables or the chart.");
    }

    private static Element cell(Double value, int decimals) {
        return td(value == null ? "" : Numbers.fixed(value, decimals));
    }

    private static Element gist(Double value, int decimals) {
        return el("td").cls("gist").text(value == null ? "" : Numbers.fixed(value, decimals));
    }

    /** {@code nodes} with {@code separator} text between them. */
    private static Node joined(List<? extends Node> nodes, String separator) {
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            if (i > 0) {
                out.add(text(separator));
            }
            out.add(nodes.get(i));
        }
        return fragment(out);
    }

    private static Element rowspan2(String... lines) {
        Element th = el("th").attr("rowspan", "2");
        for (int i = 0; i < lines.length; i++) {
            th.add(i == 0 ? fragment() : el("br"), text(lines[i]));
        }
        return th;
    }

    private static String orElse(String value, String fallback) {
        return value.isEmpty() ? fallback : value;
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
