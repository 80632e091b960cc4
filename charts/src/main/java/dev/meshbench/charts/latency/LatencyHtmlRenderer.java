package dev.meshbench.charts.latency;

import dev.meshbench.charts.render.ChartStyle;
import dev.meshbench.charts.render.Numbers;
import dev.meshbench.charts.render.Templates;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.LoadPhase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The latency report's page: one self-contained {@code index.html} (the egress report's inline CSS, no scripts, the
 * chart and CSV beside it) with what the study is and how each figure was measured, one table per data plane with
 * the gist's figures next to ours, failed cells and skipped files with their reasons, and the added-latency chart
 * with its numbers. A pure function of {@link LatencyTables}: it formats the rows computed there into the records
 * below and evaluates the template {@code latency-report.peb} ({@link Templates}), which holds the markup and the prose
 * and escapes everything the runs wrote.
 */
public final class LatencyHtmlRenderer {
    private LatencyHtmlRenderer() {
    }

    /** The page for {@code model}, generated at {@code now}. */
    public static String render(LatencyReportModel model, Instant now) {
        return render(LatencyTables.of(model), now);
    }

    /** The page for {@code tables}, generated at {@code now}. */
    public static String render(LatencyTables t, Instant now) {
        return Templates.render("latency-report", context(t, now));
    }

    /** A data plane's table. */
    public record Plane(String name, long passed, int cells, String description, String runsWith, List<Row> rows) {
    }

    /**
     * A cell's line: our figures next to the gist's, formatted (empty where not measured). {@code errors} is
     * {@code null} when not measured; {@code failure} is the reason of a failed run shown instead of figures;
     * {@code behind} whether the open loop fell behind its schedule, and {@code behindReason} why.
     */
    public record Row(String graph, int scale, String ingress, String sidecar, String p99, String gistP99, String p50,
            String gistP50, String maxQps, String gistMaxQps, String p90, String p999, String serviceP50,
            String serviceP99, String rateTarget, String rateAchieved, Errors errors, boolean measured,
            String failure, boolean behind, String behindReason, String runId) {
    }

    /** A cell's failed requests, and per phase how many of how many requests failed, with what. */
    public record Errors(long count, String maxRate, String atFraction) {
    }

    /** A failed run, and the passed run shown instead ({@code null}: none). */
    public record Failed(String dataPlane, String cell, String runId, String started, String reason,
            String shownRunId) {
    }

    /** A source of added latency (a data plane or the gist) and whether it is the gist. */
    public record Source(String name, boolean gist) {
    }

    /** A line of the added-latency table: one figure per source, in the order of the sources. */
    public record AddedRow(String graphScale, String mesh, List<Added> figures) {
    }

    /** Added P50 and P99 in ms, or why the bar is missing ({@code missing} is then not {@code null}). */
    public record Added(String p50, String p99, String missing, boolean gist) {
    }

    /** The bars a source left out: the baselines without a figure, and the cells without one. */
    public record LeftOut(String source, boolean gist, List<String> baselines, List<String> cells) {
    }

    /** A note a cell's run wrote. */
    public record Note(String cell, String runId, String note) {
    }

    /** The template's variables for {@code t}. */
    static Map<String, Object> context(LatencyTables t, Instant now) {
        LatencyReportModel m = t.model();
        Map<String, Object> c = new HashMap<>();
        c.put("generated", Templates.time(now));
        c.put("files", Map.of("csv", LatencyReport.CSV, "png", LatencyReport.PNG));
        c.put("chartWidth", ChartStyle.WIDTH);
        c.put("gistSource", m.gist().source());
        c.put("gistCells", m.gist().rows().size());
        c.put("directory", m.loaded().directory().toString());
        c.put("fraction", t.fraction());
        c.put("fellBehind", cells(t.fellBehind()));
        c.put("withErrors", cells(t.withErrors()));
        c.put("failedCount", m.loaded().failed().size());
        c.put("skipped", t.skipped());
        c.put("connections", t.connections());
        c.put("maxSeconds", t.maxSeconds());
        c.put("openSeconds", t.openSeconds());
        c.put("generators", t.generators());
        c.put("where", t.where());
        c.put("planes", t.planes().stream().map(p -> new Plane(p.name(), p.passed(), p.cells(), p.description(),
                p.runsWith(), m.rows(p.name()).stream().map(LatencyHtmlRenderer::row).toList())).toList());
        c.put("failed", t.failed().stream().map(f -> new Failed(f.cell().dataPlane(), f.cell().cell().id(),
                f.cell().runId(), Templates.time(f.cell().startTime()), f.cell().results().failureReason(),
                f.shownRunId())).toList());
        List<String> sources = new ArrayList<>(m.dataPlanes());
        sources.add(AddedLatency.GIST);
        c.put("sources", sources.stream().map(s -> new Source(AddedLatencyChartRenderer.sourceName(s),
                AddedLatency.GIST.equals(s))).toList());
        c.put("added", m.meshCells().stream().map(cell -> new AddedRow(cell.graph() + "/" + cell.scale(), cell.mesh(),
                sources.stream().map(s -> added(m, s, cell)).toList())).toList());
        c.put("leftOut", t.leftOut().stream().map(l -> new LeftOut(AddedLatencyChartRenderer.sourceName(l.source()),
                l.gist(), ids(l.baselines()), ids(l.cells()))).toList());
        List<Note> notes = new ArrayList<>();
        for (LoadedCell cell : t.withNotes()) {
            for (String n : cell.results().notes()) {
                notes.add(new Note(cell.dataPlane() + " " + cell.cell().id(), cell.runId(), n));
            }
        }
        c.put("notes", notes);
        return c;
    }

    private static Row row(LatencyRow r) {
        LoadedCell failure = r.measured() == null ? r.failure() : null;
        Errors errors = null;
        if (r.errors() != null) {
            LatencyCellResults cell = r.measured().results();
            errors = new Errors(r.errors(), phaseErrors(cell.maxRate()), phaseErrors(cell.atFraction()));
        }
        return new Row(r.cell().graph(), r.cell().scale(), r.cell().ingressId(), r.cell().sidecarId(),
                fixed(r.p99Ms(), 3), fixed(r.gistP99Ms(), 3), fixed(r.p50Ms(), 3), fixed(r.gistP50Ms(), 3),
                fixed(r.maxQps(), 0), fixed(r.gistMaxQps(), 0), fixed(r.p90Ms(), 3), fixed(r.p999Ms(), 3),
                fixed(r.serviceP50Ms(), 3), fixed(r.serviceP99Ms(), 3), fixed(r.rateTarget(), 0),
                fixed(r.rateAchieved(), 0), errors, r.measured() != null,
                failure == null ? null : failure.results().failureReason(),
                Boolean.TRUE.equals(r.fellBehind()), r.fellBehindReason(),
                r.measured() != null ? r.runId() : failure != null ? failure.runId() : "");
    }

    /** A phase's failed requests: {@code 2 of 1200 {connect=2}}. */
    private static String phaseErrors(LoadPhase p) {
        return p.errorCount() + " of " + p.requests() + (p.errors().isEmpty() ? "" : " " + p.errors());
    }

    private static Added added(LatencyReportModel m, String source, CellId cell) {
        AddedLatency a = m.added(source).stream().filter(x -> x.cell().equals(cell)).findFirst().orElseThrow();
        boolean gist = AddedLatency.GIST.equals(source);
        return a.missing() != null ? new Added(null, null, a.missing(), gist)
                : new Added(Numbers.fixed(a.p50Ms(), 3), Numbers.fixed(a.p99Ms(), 3), null, gist);
    }

    /** {@code rows} as the warnings list them: {@code netty single/1/none/sidecar}. */
    private static List<String> cells(List<LatencyRow> rows) {
        return rows.stream().map(r -> r.dataPlane() + " " + r.cell()).toList();
    }

    private static List<String> ids(List<CellId> cells) {
        return cells.stream().map(CellId::id).toList();
    }

    private static String fixed(Double value, int decimals) {
        return value == null ? "" : Numbers.fixed(value, decimals);
    }
}
