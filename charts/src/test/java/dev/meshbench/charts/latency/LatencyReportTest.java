package dev.meshbench.charts.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.SkippedRun;
import dev.meshbench.charts.model.SkippedLine;
import dev.meshbench.charts.render.ChartStyle;
import dev.meshbench.charts.study.PublishedFigures;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.LoadPhase;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.io.ResultsJson;
import java.awt.image.BufferedImage;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.data.category.DefaultCategoryDataset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The latency report over cells written in the test: on netty a baseline run twice (the later one must win) and
 * once failed after both, a gateway cell, a sidecar cell that fell behind and had errors, a failed double baseline
 * and a double gateway cell that therefore has no baseline; on envoy a baseline, a gateway+sidecar cell and a
 * failed cell whose reason holds HTML; and one truncated latency.json.
 */
class LatencyReportTest {
    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final double EPS = 1e-9;

    @TempDir
    Path tmp;
    private Path latency;
    private Path out;

    @BeforeEach
    void writeCells() throws Exception {
        latency = tmp.resolve("results").resolve("latency");
        out = tmp.resolve("results").resolve("latency-report");
        // the later run of the baseline gets the id that sorts first, so the file read last is not the winner
        write(passed("a-netty-base-new", "netty", "single/1/none/none", "2026-11-22T10:00:00Z",
                open(0.100, 0.150, 0.500, 0.900, Map.of(), null), closed(20000, Map.of())));
        write(passed("z-netty-base-old", "netty", "single/1/none/none", "2026-11-22T09:00:00Z",
                open(9.0, 9.0, 9.0, 9.0, Map.of(), null), closed(1000, Map.of())));
        write(failed("netty-base-failed", "netty", "single/1/none/none", "2026-11-22T11:00:00Z",
                "a component died during the load: service-a exited with 137"));
        write(passed("netty-gw", "netty", "single/1/gateway/none", "2026-11-22T10:05:00Z",
                open(0.300, 0.400, 1.250, 2.000, Map.of(), null), closed(12000.5, Map.of())));
        write(passed("netty-sc", "netty", "single/1/none/sidecar", "2026-11-22T10:10:00Z",
                open(0.400, 0.600, 3.000, 8.000, Map.of("http-503", 3L), "send lag <250 ms> & rising"),
                closed(9000, Map.of("connect", 2L))));
        write(failed("netty-double-base", "netty", "double/1/none/none", "2026-11-22T10:15:00Z",
                "no request succeeded in the closed-loop phase"));
        write(passed("netty-double-gw", "netty", "double/1/gateway/none", "2026-11-22T10:20:00Z",
                open(1.0, 1.5, 4.0, 6.0, Map.of(), null), closed(3000, Map.of())));
        write(passed("envoy-base", "envoy", "single/1/none/none", "2026-11-22T12:00:00Z",
                open(0.200, 0.300, 0.900, 1.500, Map.of(), null), closed(15000, Map.of())));
        write(passed("envoy-gw-sc", "envoy", "single/1/gateway/sidecar", "2026-11-22T12:05:00Z",
                open(0.700, 1.100, 2.900, 4.000, Map.of(), null), closed(5000, Map.of())));
        write(failed("envoy-s5-base", "envoy", "single/5/none/none", "2026-11-22T12:10:00Z",
                "proxy said <b>503</b> & closed"));
        Path broken = latency.resolve("broken").resolve(ResultsSchema.LATENCY_FILE);
        Files.createDirectories(broken.getParent());
        Files.writeString(broken, "{\n  \"schemaVersion\": \"4\",\n  \"kind\": \"latency-cell\",\n  \"runId\": ");
    }

    @Test
    @DisplayName("latency.csv has one row per data plane and cell in the gist's order, ours beside the gist's in ms")
    void csvRows() throws Exception {
        LatencyReport.generate(latency, out, NOW);
        List<String> lines = Files.readAllLines(out.resolve(LatencyReport.CSV));
        assertEquals("data_plane,svc,scale,ingress,sidecar,p99_ms,p50_ms,p90_ms,p999_ms,max_qps,rate_75_target,"
                + "rate_75_achieved,errors,fell_behind,service_p50_ms,service_p99_ms,run_id,gist_p99_ms,gist_p50_ms,gist_max_qps", lines.get(0));
        assertEquals(1 + 2 * 16, lines.size(), "netty then envoy, the gist's 16 cells each");
        assertEquals(List.of("netty,single,1,none,none", "netty,double,1,none,none", "netty,single,1,gateway,none",
                "netty,double,1,gateway,none", "netty,single,1,gateway,sidecar", "netty,double,1,gateway,sidecar",
                "netty,single,1,none,sidecar", "netty,double,1,none,sidecar", "netty,single,5,none,none"),
                lines.subList(1, 10).stream().map(l -> String.join(",", List.of(l.split(",", -1)).subList(0, 5))).toList());
        assertTrue(lines.get(17).startsWith("envoy,single,1,none,none,"), lines.get(17));
        assertEquals("netty,single,1,none,none,0.5,0.1,0.15,0.9,20000,15000,14990,0,false,0.05,0.25,a-netty-base-new,"
                + "2.662,0.612,64000", lines.get(1));
        assertEquals("netty,single,1,none,sidecar,3,0.4,0.6,8,9000,6750,6740,5,true,0.2,1.5,netty-sc,17.214,9.103,6400",
                lines.get(7));
        // a failed cell, and one that never ran: measured columns empty, the gist's filled
        assertEquals("netty,double,1,none,none,,,,,,,,,,,,,447.564,6.938,1837", lines.get(2));
        assertEquals("netty,single,5,none,none,,,,,,,,,,,,,2.26841,0.57761,98789", lines.get(9));
        assertEquals("envoy,double,5,none,sidecar,,,,,,,,,,,,,66.0513,13.0243,4301", lines.get(32));
    }

    @Test
    @DisplayName("writes the same latency.csv under a ru-RU default locale")
    void csvIgnoresLocale() throws Exception {
        String csv = LatencyCsvWriter.csv(LatencyReport.model(latency));
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("ru-RU"));
        try {
            assertEquals(csv, LatencyCsvWriter.csv(LatencyReport.model(latency)));
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    @DisplayName("shows the most recent passed run of a cell; the older one is skipped as superseded, a later failure listed")
    void latestPassedWins() throws Exception {
        LatencyReportModel m = LatencyReport.model(latency);
        LatencyRow base = m.row("netty", CellId.parse("single/1/none/none")).orElseThrow();
        assertEquals("a-netty-base-new", base.runId());
        assertEquals(0.5, base.p99Ms(), EPS);
        assertNull(base.failure(), "a passed run hides the failed one in the row");
        SkippedRun old = skipped(m, "z-netty-base-old");
        assertTrue(old.reason().startsWith("superseded: a later passed run of cell single/1/none/none on netty is shown "
                + "(a-netty-base-new, started 2026-11-22T10:00:00Z)"), old.reason());
        assertTrue(m.loaded().failed().stream().anyMatch(c -> c.runId().equals("netty-base-failed")));
    }

    @Test
    @DisplayName("lists failed cells with their reason, per data plane in the gist's order")
    void failedCells() throws Exception {
        LatencyReportModel m = LatencyReport.model(latency);
        assertEquals(List.of("netty-base-failed", "netty-double-base", "envoy-s5-base"),
                m.loaded().failed().stream().map(LoadedCell::runId).toList());
        LatencyRow row = m.row("netty", CellId.parse("double/1/none/none")).orElseThrow();
        assertNull(row.measured());
        assertEquals("no request succeeded in the closed-loop phase", row.failure().results().failureReason());
        assertEquals(List.of("netty", "envoy"), m.dataPlanes());
    }

    @Test
    @DisplayName("skips an unreadable latency.json with its reason and reads the rest")
    void unreadableSkipped() throws Exception {
        LatencyReportModel m = LatencyReport.model(latency);
        SkippedRun broken = m.loaded().skipped().stream()
                .filter(s -> s.file().equals(latency.resolve("broken").resolve("latency.json"))).findFirst().orElseThrow();
        assertTrue(broken.reason().startsWith("truncated JSON"), broken.reason());
        assertEquals(2, m.loaded().skipped().size(), "the broken file and the superseded run");
        assertEquals(6, m.loaded().passed().size());
    }

    @Test
    @DisplayName("added latency is the cell minus its graph and scale's no-mesh cell, ours and the gist's")
    void addedLatency() throws Exception {
        LatencyReportModel m = LatencyReport.model(latency);
        AddedLatency gw = added(m, "netty", "single/1/gateway/none");
        assertEquals(0.300 - 0.100, gw.p50Ms(), EPS);
        assertEquals(1.250 - 0.500, gw.p99Ms(), EPS);
        assertNull(gw.missing());
        AddedLatency both = added(m, "envoy", "single/1/gateway/sidecar");
        assertEquals(0.5, both.p50Ms(), EPS);
        assertEquals(2.0, both.p99Ms(), EPS);
        AddedLatency gist = added(m, AddedLatency.GIST, "single/1/gateway/none");
        assertEquals(9.830 - 0.612, gist.p50Ms(), EPS);
        assertEquals(23.874 - 2.662, gist.p99Ms(), EPS);
        AddedLatency noBase = added(m, "netty", "double/1/gateway/none");
        assertNull(noBase.p50Ms());
        assertEquals("no passed run of the baseline double/1/none/none on netty", noBase.missing());
        assertEquals("no passed run of single/1/gateway/none on envoy", added(m, "envoy", "single/1/gateway/none").missing());

        assertEquals(12, m.meshCells().size());
        assertEquals(List.of("single/1/gateway/none", "single/1/none/sidecar", "single/1/gateway/sidecar"),
                m.meshCells().subList(0, 3).stream().map(CellId::id).toList());
        DefaultCategoryDataset netty = AddedLatencyChartRenderer.dataset(m, "netty");
        assertEquals(List.of("P50", "P99"), netty.getRowKeys());
        assertEquals("single/1 gateway", netty.getColumnKey(0));
        assertEquals("double/5 both", netty.getColumnKey(11));
        assertEquals(0.2, netty.getValue("P50", "single/1 gateway").doubleValue(), EPS);
        assertEquals(0.75, netty.getValue("P99", "single/1 gateway").doubleValue(), EPS);
        assertNull(netty.getValue("P50", "double/1 gateway"), "no baseline: the bar is left out");
        DefaultCategoryDataset envoy = AddedLatencyChartRenderer.dataset(m, "envoy");
        assertEquals(2.0, envoy.getValue("P99", "single/1 both").doubleValue(), EPS);
        DefaultCategoryDataset published = AddedLatencyChartRenderer.dataset(m, AddedLatency.GIST);
        assertEquals(List.of("gist P50", "gist P99"), published.getRowKeys());
        assertEquals(273.101 - 447.564, published.getValue("gist P99", "double/1 sidecar").doubleValue(), EPS);
        JFreeChart chart = AddedLatencyChartRenderer.chart(m);
        List<?> panels = ((CombinedDomainCategoryPlot) chart.getPlot()).getSubplots();
        assertEquals(3, panels.size(), "netty, envoy, gist");
        assertEquals(((CategoryPlot) panels.get(0)).getRangeAxis().getRange(),
                ((CategoryPlot) panels.get(1)).getRangeAxis().getRange(), "the data planes share a scale");
        assertEquals(List.of("P50", "P99", "gist P50", "gist P99"), legend(chart));
    }

    @Test
    @DisplayName("added-latency.png decodes at the report's chart width and the chart's height")
    void png() throws Exception {
        LatencyReport.generate(latency, out, NOW);
        for (String f : LatencyReport.FILES) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        BufferedImage image = ImageIO.read(out.resolve(LatencyReport.PNG).toFile());
        assertNotNull(image, "the PNG decodes");
        assertEquals(ChartStyle.WIDTH, image.getWidth());
        assertEquals(AddedLatencyChartRenderer.HEIGHT, image.getHeight());
    }

    @Test
    @DisplayName("index.html escapes what the runs wrote, flags fell-behind and errors, lists failures and missing bars")
    void html() throws Exception {
        LatencyReport.generate(latency, out, NOW);
        String html = Files.readString(out.resolve(LatencyReport.HTML)).replaceAll("\\s+", " ");
        for (String expected : List.of("proxy said &lt;b&gt;503&lt;/b&gt; &amp; closed",
                "<span class=\"flag\">fell behind</span><span class=\"why\">send lag &lt;250 ms&gt; &amp; rising</span>",
                "<tr class=\"behind\">", "<td class=\"bad\" title=\"MaxQPS phase: 2 of", ">5</td>",
                "<h2 id=\"plane-netty\">netty: ours next to the gist's</h2>",
                "<h2 id=\"plane-envoy\">envoy: ours next to the gist's</h2>",
                "href=\"https://gist.github.com/therealmitchconnors/9a0a8230a5f4c5d5738917d6e836983e\"",
                "<img src=\"added-latency.png\"", "href=\"latency.csv\"", "no coordinated omission",
                "One run per cell</b>: nothing is repeated, so no figure has a confidence interval",
                "shares the CPUs with the load generator", "2 cores, Linux 6.1 amd64",
                "<li><b>netty</b>: no passed baselines <code>double/1/none/none</code>, <code>single/5/none/none</code>, "
                + "<code>double/5/none/none</code>, so no cell of their graph and scale has a bar; no passed run of "
                + "<code>single/1/gateway/sidecar</code>.</li>", "title=\"no passed run of the baseline double/1/none/none on netty\"",
                "<td class=\"gist\">447.564</td>",
                "<td class=\"l\">netty-base-failed</td>", "passed run a-netty-base-new",
                "nothing: the cell has no figures",
                "<th rowspan=\"2\">service<br>P99 ms</th>", "<b>Service P50, P99</b>: the open loop's percentiles counted from each "
                + "request's actual send", "superseded", "truncated JSON", "2026-11-23 12:00:00 UTC")) {
            assertTrue(html.contains(expected), expected);
        }
        assertFalse(html.contains("<b>503</b>"), "a failure reason is text, not markup");
        assertFalse(html.contains("<250 ms>"), "a fell-behind reason is text, not markup");
        assertTrue(html.indexOf("id=\"failed\"") < html.indexOf("<img src=\"added-latency.png\""),
                "the chart comes after the tables and failed cells");
    }

    @Test
    @DisplayName("index.html escapes what the cells wrote, in text and in attributes: versions, machine, generator, "
            + "error kinds, reasons, notes")
    void htmlEscapesWhatCellsWrote() throws Exception {
        String evil = "<script>alert(1)</script> & \"co\" 'x'";
        String escaped = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot; &#39;x&#39;";
        Path cells = tmp.resolve("hostile");
        LatencyCellResults p = passed("h-base", "netty", "single/1/none/none", "2026-11-22T10:00:00Z",
                open(0.100, 0.150, 0.500, 0.900, Map.of(evil, 3L), "lag " + evil), closed(20000, Map.of()));
        ResultsJson.writeJson(cells.resolve("h-base").resolve(ResultsSchema.LATENCY_FILE), new LatencyCellResults(
                ResultsSchema.VERSION, ResultsSchema.LATENCY_KIND, "h-base", "single/1/none/none", "single", 1, false,
                false, TargetKind.LOCAL, new DataPlaneInfo("netty", Map.of("sidecar", "relay " + evil), 2, false, false,
                        null), new Machine(2, 8L << 30, "Linux " + evil), "0.1.0-SNAPSHOT", "17.0.12",
                "loadgen " + evil, "2026-11-22T10:00:00Z", RunStatus.PASSED, null, Map.of(), p.maxRate(), 0.75,
                p.atFraction(), Map.of(), List.of("note " + evil)));
        ResultsJson.writeJson(cells.resolve("h-failed").resolve(ResultsSchema.LATENCY_FILE), failed("h-failed",
                "netty", "single/1/gateway/none", "2026-11-22T10:05:00Z", "reason " + evil));
        LatencyReport.generate(cells, tmp.resolve("hostile-report"), NOW);
        String html = Files.readString(tmp.resolve("hostile-report").resolve(LatencyReport.HTML)).replaceAll("\\s+", " ");
        for (String expected : List.of("sidecar=relay " + escaped, "2 cores, Linux " + escaped,
                "<li><b>Load generator</b>: loadgen " + escaped + ".</li>",
                "open loop: 3 of 1000 {" + escaped + "=3}\">3</td>",
                "<span class=\"why\">lag " + escaped + "</span>",
                "<span class=\"flag failed\">failed</span><span class=\"why\">reason " + escaped + "</span>",
                "<td class=\"l\">reason " + escaped + "</td>",
                "<li><b>netty single/1/none/none</b> (h-base): note " + escaped + "</li>")) {
            assertTrue(html.contains(expected), expected);
        }
        assertFalse(html.contains("<script>"), "no script element came from the cells");
        assertFalse(html.contains("\"co\""), "no quote came from the cells to end an attribute");
        assertFalse(html.contains("'x'"), "no bare apostrophe came from the cells");
    }

    @Test
    @DisplayName("the console table has the gist's columns per data plane and flags fallen-behind cells")
    void consoleTable() throws Exception {
        String text = LatencyReport.consoleTable(LatencyReport.model(latency));
        List<String> lines = text.lines().toList();
        assertEquals("netty: 4 of 16 cells passed; P99 and P50 in ms at 75 % of MaxQPS", lines.get(0));
        assertTrue(lines.get(1).matches("Svc +Scale +Ingress +Sidecar +P99 +P50 +MaxQPS \\| +gist P99 +P50 +MaxQPS"),
                lines.get(1));
        assertTrue(lines.get(2).matches("single +1 +none +none +0\\.500 +0\\.100 +20000 \\| +2\\.662 +0\\.612 +64000"),
                lines.get(2));
        assertTrue(lines.get(3).endsWith("  failed"), lines.get(3));
        assertTrue(lines.get(8).endsWith("FELL BEHIND (from the actual send: P50 0.200, P99 1.500), 5 errors"), lines.get(8));
        assertTrue(text.contains("failed envoy single/5/none/none (envoy-s5-base): proxy said <b>503</b> & closed\n"));
        assertTrue(text.contains("failed netty single/1/none/none (netty-base-failed): a component died during the "
                + "load: service-a exited with 137 [passed run a-netty-base-new shown]\n"));
        assertTrue(text.contains("skipped " + latency.resolve("broken").resolve("latency.json") + ": truncated JSON"));
    }

    @Test
    @DisplayName("an empty folder gives a report of the gist's figures alone; a missing folder is an error")
    void emptyFolder() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        LatencyReportModel m = LatencyReport.generate(empty, out, NOW);
        assertEquals(List.of(), m.dataPlanes());
        assertEquals(List.of(String.join(",", LatencyCsvWriter.HEADER)),
                Files.readAllLines(out.resolve(LatencyReport.CSV)));
        assertEquals(1, ((CombinedDomainCategoryPlot) AddedLatencyChartRenderer.chart(m).getPlot()).getSubplots().size(),
                "the gist's panel");
        assertNotNull(ImageIO.read(out.resolve(LatencyReport.PNG).toFile()));
        assertTrue(Files.readString(out.resolve(LatencyReport.HTML)).contains("No latency cell was found in"));
        assertTrue(LatencyReport.consoleTable(m).startsWith("no latency cell in "));
        assertThrows(NoSuchFileException.class, () -> LatencyReport.model(tmp.resolve("absent")));
    }

    @Test
    @DisplayName("the page's tables: per data plane what passed, flagged rows, shared settings, where cells ran, failures and bars left out")
    void pageTables() throws Exception {
        LatencyTables t = LatencyTables.of(LatencyReport.model(latency));
        assertEquals(List.of(new LatencyTables.PlaneSummary("netty", 4, 16,
                        "meshbench's Netty relays standing in for Envoy as sidecar and ingress gateway",
                        "netty (no sidecar mTLS): sidecar=netty 1.0, 2 worker threads per proxy"),
                new LatencyTables.PlaneSummary("envoy", 2, 16, "Envoy as sidecar and ingress gateway",
                        "envoy (no sidecar mTLS): sidecar=envoy 1.0, 2 worker threads per proxy")), t.planes());
        assertEquals(List.of("netty single/1/none/sidecar"), t.fellBehind().stream()
                .map(r -> r.dataPlane() + " " + r.cell().id()).toList());
        assertEquals(List.of("netty single/1/none/sidecar"), t.withErrors().stream()
                .map(r -> r.dataPlane() + " " + r.cell().id()).toList());
        assertEquals(List.of("75 %", "64", "30", "30", "meshbench loadgen 0.1.0"),
                List.of(t.fraction(), t.connections(), t.maxSeconds(), t.openSeconds(), t.generators()));
        assertEquals(new LatencyTables.Where(9, 9, "2 cores, Linux 6.1 amd64", 0), t.where());
        assertEquals(List.of("netty-base-failed -> a-netty-base-new", "netty-double-base -> null",
                "envoy-s5-base -> null"), t.failed().stream()
                .map(f -> f.cell().runId() + " -> " + f.shownRunId()).toList());
        LatencyTables.LeftOut netty = t.leftOut().get(0);
        assertEquals("netty", netty.source());
        assertEquals(List.of("double/1/none/none", "single/5/none/none", "double/5/none/none"),
                netty.baselines().stream().map(CellId::id).toList());
        assertEquals(List.of("single/1/gateway/sidecar"), netty.cells().stream().map(CellId::id).toList());
        assertFalse(t.leftOut().stream().anyMatch(LatencyTables.LeftOut::gist), "the gist has every row");
        assertEquals(List.of("broken/latency.json", "z-netty-base-old/latency.json"),
                t.skipped().stream().map(SkippedLine::file).sorted().toList());
    }

    @Test
    @DisplayName("the gist's table: 16 rows in its order, seconds as ms, No/Istio as none/gateway and none/sidecar")
    void gistTable() {
        GistTable gist = GistTable.load();
        assertEquals(16, gist.rows().size());
        assertEquals(gist.rows().stream().map(GistRow::cell).sorted(CellId.GIST_ORDER).toList(),
                gist.rows().stream().map(GistRow::cell).toList());
        GistRow first = gist.rows().get(0);
        assertEquals(new CellId("single", 1, false, false), first.cell());
        assertEquals(2.662, first.p99Ms(), EPS);
        assertEquals(0.612, first.p50Ms(), EPS);
        assertEquals(64000, first.maxQps(), EPS);
        GistRow sidecar = gist.row(CellId.parse("double/5/none/sidecar")).orElseThrow();
        assertEquals(66.0513, sidecar.p99Ms(), EPS);
        assertEquals(13.0243, sidecar.p50Ms(), EPS);
        GistRow both = gist.row(CellId.parse("single/1/gateway/sidecar")).orElseThrow();
        assertEquals(4382, both.maxQps(), EPS);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> GistTable.of("t.json",
                new PublishedFigures.LatencyGist("t", "x", "m", "c", List.of(new PublishedFigures.GistRecord("single", 1,
                        "Yes", "No", new BigDecimal("0.1"), new BigDecimal("0.1"), new BigDecimal("10"))))));
        assertEquals("t.json latencyGist row 1: istio_ingress \"Yes\" is not Istio|No", e.getMessage());
    }

    private static List<String> legend(JFreeChart chart) {
        List<String> labels = new ArrayList<>();
        LegendItemCollection items = chart.getPlot().getLegendItems();
        for (int i = 0; i < items.getItemCount(); i++) {
            labels.add(items.get(i).getLabel());
        }
        return labels;
    }

    private static SkippedRun skipped(LatencyReportModel m, String runDir) {
        return m.loaded().skipped().stream().filter(s -> s.file().getParent().getFileName().toString().equals(runDir))
                .findFirst().orElseThrow();
    }

    private static AddedLatency added(LatencyReportModel m, String source, String cell) {
        return m.added(source).stream().filter(a -> a.cell().id().equals(cell)).findFirst().orElseThrow();
    }

    private void write(LatencyCellResults r) throws Exception {
        ResultsJson.writeJson(latency.resolve(r.runId()).resolve(ResultsSchema.LATENCY_FILE), r);
    }

    private static LoadPhase closed(double rate, Map<String, Long> errors) {
        return new LoadPhase(64, 30, Math.round(rate * 30), errors, null, rate, 1, 2, 3, 4, 5, 1.5, 0, 0, 0, false,
                null, null, null);
    }

    /** The open loop at 75 % of {@code closed}'s rate (filled in by {@link #passed}); it completes 10/s fewer. */
    private static LoadPhase open(double p50, double p90, double p99, double p999, Map<String, Long> errors,
            String fellBehindReason) {
        return new LoadPhase(64, 30, 1000, errors, 1.0, 0, p50, p90, p99, p999, p999 * 2, p50 * 1.1,
                fellBehindReason == null ? 0 : 120, fellBehindReason == null ? 0.4 : 250, 0, fellBehindReason != null,
                fellBehindReason, new LoadPhase.ServiceTime(p50 / 2, p90 / 2, p99 / 2, p999 / 2), null);
    }

    private static LatencyCellResults passed(String runId, String plane, String cellId, String start, LoadPhase open,
            LoadPhase closed) {
        double target = closed.achievedRate() * 0.75;
        LoadPhase fixed = new LoadPhase(open.connections(), open.seconds(), open.requests(), open.errors(), target,
                target - 10, open.p50(), open.p90(), open.p99(), open.p999(), open.max(), open.mean(), open.lateSends(),
                open.maxSendLagMs(), open.missed(), open.fellBehind(), open.fellBehindReason(), open.serviceTime(), null);
        return cell(runId, plane, cellId, start, RunStatus.PASSED, null, closed, fixed);
    }

    private static LatencyCellResults failed(String runId, String plane, String cellId, String start, String reason) {
        return cell(runId, plane, cellId, start, RunStatus.FAILED, reason, null, null);
    }

    private static LatencyCellResults cell(String runId, String plane, String cellId, String start, RunStatus status,
            String reason, LoadPhase closed, LoadPhase open) {
        CellId c = CellId.parse(cellId);
        return new LatencyCellResults(ResultsSchema.VERSION, ResultsSchema.LATENCY_KIND, runId, cellId, c.graph(),
                c.scale(), c.ingress(), c.sidecar(), TargetKind.LOCAL,
                new DataPlaneInfo(plane, Map.of("sidecar", plane + " 1.0"), 2, false, c.ingress(), null),
                new Machine(2, 8L << 30, "Linux 6.1 amd64"), "0.1.0-SNAPSHOT", "17.0.12", "meshbench loadgen 0.1.0",
                start, status, reason, Map.of(), closed, 0.75, open, Map.of(), List.of());
    }
}
