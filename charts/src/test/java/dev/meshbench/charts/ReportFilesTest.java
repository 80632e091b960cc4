package dev.meshbench.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.ResultsDirectoryReader;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.render.ChartStyle;
import dev.meshbench.charts.render.CpuChartRenderer;
import dev.meshbench.charts.render.CsvReportWriter;
import dev.meshbench.charts.render.LatencyChartRenderer;
import dev.meshbench.charts.render.ThroughputChartRenderer;
import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepHost;
import java.util.Map;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.ClusterNode;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.io.ResultsJson;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReportFilesTest {
    static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");

    @ParameterizedTest(name = "under {0}")
    @ValueSource(strings = {"en-US", "ru-RU", "de-DE", "fr-FR", "ar-EG", "hi-IN-u-nu-deva"})
    @DisplayName("writes steps.csv and comparison.csv exactly as the golden files, whatever the default locale")
    void csvMatchesGolden(String tag) throws Exception {
        String[] csv = TestRuns.withLocale(Locale.forLanguageTag(tag), () -> {
            ReportModel m = ReportModel.of(ResultsDirectoryReader.read(TestRuns.RESULTS, ConversionMode.NONE), 20);
            return new String[] {CsvReportWriter.steps(m), CsvReportWriter.comparison(m)};
        });
        assertEquals(Files.readString(TestRuns.GOLDEN.resolve("steps.csv")), csv[0]);
        assertEquals(Files.readString(TestRuns.GOLDEN.resolve("comparison.csv")), csv[1]);
    }

    @ParameterizedTest(name = "under {0}")
    @ValueSource(strings = {"en-US", "ru-RU", "de-DE"})
    @DisplayName("writes every report file; each PNG decodes at the expected size")
    void writesDecodablePngs(String tag, @TempDir Path out) throws Exception {
        ReportModel m = TestRuns.withLocale(Locale.forLanguageTag(tag), () ->
                ReportGenerator.generate(TestRuns.RESULTS, out, 20, ConversionMode.NONE, NOW));
        assertTrue(ReportGenerator.files(m).contains("throughput.png"), "closed-loop runs have a throughput chart");
        for (String f : ReportGenerator.files(m)) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        for (String png : List.of("throughput.png", "latency.png", "cpu-per-tx.png")) {
            BufferedImage image = ImageIO.read(out.resolve(png).toFile());
            assertNotNull(image, png + " decodes");
            assertEquals(ChartStyle.WIDTH, image.getWidth(), png);
            assertEquals(ChartStyle.HEIGHT, image.getHeight(), png);
        }
    }

    @Test
    @DisplayName("formats chart axes and bar labels with a decimal point under a ru default locale")
    void axesIgnoreLocale() throws Exception {
        TestRuns.withLocale(Locale.forLanguageTag("ru-RU"), () -> {
            ReportModel m = ReportModel.of(ResultsDirectoryReader.read(TestRuns.RESULTS, ConversionMode.NONE), 20);
            JFreeChart t = ThroughputChartRenderer.chart(m);
            NumberAxis y = (NumberAxis) ((XYPlot) t.getPlot()).getRangeAxis();
            assertEquals("1234.5", y.getNumberFormatOverride().format(1234.5));
            JFreeChart l = LatencyChartRenderer.chart(m);
            assertEquals("12.25", ((NumberAxis) ((CategoryPlot) l.getPlot()).getRangeAxis())
                    .getNumberFormatOverride().format(12.25));
            JFreeChart c = CpuChartRenderer.chart(m);
            CategoryPlot cp = (CategoryPlot) c.getPlot();
            assertEquals("2.0", ((NumberAxis) cp.getRangeAxis()).getNumberFormatOverride().format(2));
            String label = cp.getRenderer().getItemLabelGenerator(0, 4).generateLabel(cp.getDataset(), 0, 4);
            assertTrue(label.matches("\\d+\\.\\d+"), label);
            return null;
        });
    }

    @Test
    @DisplayName("labels every chart with a title, units on both axes and case names in the legend")
    void titlesAndUnits() throws Exception {
        ReportModel m = ReportModel.of(ResultsDirectoryReader.read(TestRuns.RESULTS, ConversionMode.NONE), 20);
        JFreeChart t = ThroughputChartRenderer.chart(m);
        assertEquals("Throughput vs. concurrent clients", t.getTitle().getText());
        assertEquals("Throughput (transactions/s)", ((XYPlot) t.getPlot()).getRangeAxis().getLabel());
        assertEquals("bypass \u00b7 netty (JDK TLS) (3 runs)", t.getXYPlot().getLegendItems().get(0).getLabel());
        assertEquals("sidecar \u00b7 netty (JDK TLS) (1 run)", t.getXYPlot().getLegendItems().get(1).getLabel());
        assertEquals("sni \u00b7 envoy (2 runs)", t.getXYPlot().getLegendItems().get(7).getLabel());
        JFreeChart l = LatencyChartRenderer.chart(m);
        assertEquals("Response time (ms)", l.getCategoryPlot().getRangeAxis().getLabel());
        assertEquals("sni \u00b7 netty (JDK TLS) (3 runs)", l.getCategoryPlot().getLegendItems().get(4).getLabel());
        assertEquals("mtls \u00b7 netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards (1 run)",
                l.getCategoryPlot().getLegendItems().get(5).getLabel());
        JFreeChart c = CpuChartRenderer.chart(m);
        assertEquals("Mesh CPU per transaction (CPU ms)", c.getCategoryPlot().getRangeAxis().getLabel());
    }

    @Test
    @DisplayName("index.html shows the figures, the tables, shared and per-run inputs with locale-free numbers")
    void htmlContent(@TempDir Path out) throws Exception {
        TestRuns.withLocale(Locale.forLanguageTag("ru-RU"), () ->
                ReportGenerator.generate(TestRuns.RESULTS, out, 20, ConversionMode.NONE, NOW));
        String html = TestRuns.page(out.resolve("index.html"));
        for (String expected : List.of("<img src=\"throughput.png\"", "<img src=\"latency.png\"",
                "<img src=\"cpu-per-tx.png\"", "href=\"steps.csv\"", "href=\"comparison.csv\"",
                "Each case against bypass of the same data plane at 20 clients", "bypass-2", "sni-3",
                "2026-11-20 09:14:00 UTC", "sni-envoy-2", "<tr><td class=\"l\">envoy</td><td class=\"l\">sidecar: envoy 1.40.0<br>"
                + "egress-gateway: envoy 1.40.0<br>sni-proxy: nginx 1.22.1</td><td>2</td><td class=\"l\">yes</td>"
                + "<td class=\"l\">through the ingress gateway</td><td class=\"l\">BoringSSL</td><td class=\"l\">bypass-envoy-1, sni-envoy-1, sni-envoy-2</td></tr>",
                "<td class=\"l\">netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards</td><td class=\"l\">not recorded</td><td>not recorded</td>"
                + "<td class=\"l\">no</td><td class=\"l\">straight to the sidecars</td><td class=\"l\">JDK</td>"
                + "<td class=\"l\">mtls-v1</td>",
                "The load came through the ingress gateway in some runs and straight to the sidecars in others",
                "<td class=\"muted\" title=\"no bypass run on data plane netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards\">no bypass run</td>",
                "<tr class=\"first base\"><td class=\"l\">envoy</td>",
                "<th class=\"l\">JMeter</th><td class=\"l\">5.6.3</td>", "<td class=\"l\">1, 5, 10, 20, 30</td>",
                "2 cores, 24.0 GiB", "<td class=\"bad\">+174.1&nbsp;%</td>", "<th>MongoDB<br>cmds/tx</th>", "<td>0.80</td><td>0.25</td><td>513</td><td></td><td></td><td></td></tr>", "<tr class=\"total\"><td class=\"l\">mesh "
                + "total</td>", "Nothing was skipped.", "2026-11-21 12:00:00 UTC")) {
            assertTrue(html.contains(expected), expected);
        }
        assertFalse(html.matches("(?s).*<td>\\d+,\\d+.*"), "no decimal commas in table cells");
        assertFalse(html.contains(">cluster<"), "no cluster input when every run is local");
    }

    @Test
    @DisplayName("index.html shows the cluster that Kubernetes runs ran on, once when they share it")
    void htmlCluster(@TempDir Path tmp) throws Exception {
        ClusterInfo cluster = new ClusterInfo("v1.31.4", "1.28.0", List.of(
                new ClusterNode("worker-1", 8, 32L << 30, null), new ClusterNode("worker-2", 8, 32L << 30, null),
                new ClusterNode("worker-3", 8, 32L << 30, null)));
        Path results = tmp.resolve("results");
        for (String run : List.of("sni-envoy-1", "sni-envoy-2")) {
            RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve(run).resolve("results.json"));
            RunInputs in = r.inputs();
            RunInputs k8s = new RunInputs(in.schemaVersion(), in.runId(), in.caseId(), TargetKind.KUBERNETES,
                    in.steps(), in.stepSeconds(), in.warmupSeconds(), in.thinkTimeMs(), in.customers(),
                    in.versions(), in.machine(), in.startTime(), in.status(), in.failureReason(), in.dataPlane(),
                    in.workload(), null).withCluster(cluster);
            ResultsJson.writeResults(results.resolve(run).resolve("results.json"),
                    new RunResults(r.schemaVersion(), k8s, r.conversion(), r.steps(), r.notes()));
        }
        ReportGenerator.generate(results, tmp.resolve("out"), 20, ConversionMode.NONE, NOW);
        String html = TestRuns.page(tmp.resolve("out/index.html"));
        for (String expected : List.of("<th class=\"l\">target</th><td class=\"l\">kubernetes</td>",
                "<tr><th class=\"l\">cluster</th><td class=\"l\">Kubernetes v1.31.4, Istio 1.28.0, 3 nodes "
                        + "(3 \u00d7 8 CPU / 32 GiB)</td></tr>", "Nothing was skipped.")) {
            assertTrue(html.contains(expected), expected);
        }
    }

    @Test
    @DisplayName("the run description says the load came through the ingress gateway, or straight to the sidecars")
    void htmlIngress(@TempDir Path tmp) throws Exception {
        Path results = tmp.resolve("results");
        RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve("sni-envoy-1/results.json"));
        assertTrue(r.inputs().dataPlane().ingress(), "the sample came through the ingress gateway");
        ResultsJson.writeResults(results.resolve("sni-envoy-1/results.json"), r);
        ReportGenerator.generate(results, tmp.resolve("through"), 20, ConversionMode.NONE, NOW);
        String through = TestRuns.page(tmp.resolve("through/index.html"));
        assertTrue(through.contains(" The load came through the ingress gateway."), through);

        RunInputs in = r.inputs();
        ResultsJson.writeResults(results.resolve("sni-envoy-1/results.json"), new RunResults(r.schemaVersion(),
                in.withDataPlane(in.dataPlane().withIngress(false)), r.conversion(), r.steps(), r.notes()));
        ReportGenerator.generate(results, tmp.resolve("straight"), 20, ConversionMode.NONE, NOW);
        String straight = TestRuns.page(tmp.resolve("straight/index.html"));
        assertTrue(straight.contains(" The load came straight to the sidecars."), straight);
        assertTrue(straight.contains("<td class=\"l\">envoy (no ingress)</td>"), "the data plane's label says so");
        assertFalse(straight.contains("through the ingress gateway"), straight);
    }

    @Test
    @DisplayName("the comparison shows the throughput change's 95% interval against bypass, and no interval for one run")
    void htmlInterval(@TempDir Path tmp) throws Exception {
        ReportGenerator.generate(TestRuns.RESULTS, tmp, 20, ConversionMode.NONE, NOW);
        String html = TestRuns.page(tmp.resolve("index.html"));
        // Independently: the three netty sni runs against the three netty bypass runs at 20 clients.
        List<Double> bypass = new java.util.ArrayList<>();
        List<Double> sni = new java.util.ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            bypass.add(ResultsJson.readResults(TestRuns.RESULTS.resolve("bypass-" + i).resolve("results.json")).step(20)
                    .orElseThrow().throughputPerSecond());
            sni.add(ResultsJson.readResults(TestRuns.RESULTS.resolve("sni-" + i).resolve("results.json")).step(20)
                    .orElseThrow().throughputPerSecond());
        }
        var cmp = new dev.meshbench.results.stats.Comparison(new dev.meshbench.results.stats.Sample(bypass),
                new dev.meshbench.results.stats.Sample(sni));
        String expected = String.format(java.util.Locale.ROOT, "<td class=\"l\">%+.1f \u00b1 %.1f %%, %s</td>",
                cmp.changePercent(), cmp.changeHalfWidthPercent(),
                cmp.verdict() == dev.meshbench.results.stats.Comparison.Verdict.SIGNIFICANT ? "significant" : "within noise");
        assertTrue(html.contains(expected), expected);
        assertTrue(html.contains("<td class=\"l\">one run: no interval</td>"), "single runs have no interval");
    }

    @Test
    @DisplayName("with repeats each case's mean carries its 95% interval, and p99's change against bypass its own")
    void htmlMeanIntervals(@TempDir Path tmp) throws Exception {
        ReportGenerator.generate(TestRuns.RESULTS, tmp, 20, ConversionMode.NONE, NOW);
        String html = TestRuns.page(tmp.resolve("index.html"));
        List<Double> sniTx = new java.util.ArrayList<>();
        List<Double> bypassP99 = new java.util.ArrayList<>();
        List<Double> sniP99 = new java.util.ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            StepResult b = ResultsJson.readResults(TestRuns.RESULTS.resolve("bypass-" + i).resolve("results.json")).step(20).orElseThrow();
            StepResult c = ResultsJson.readResults(TestRuns.RESULTS.resolve("sni-" + i).resolve("results.json")).step(20).orElseThrow();
            sniTx.add(c.throughputPerSecond());
            bypassP99.add((double) b.latencyMs().p99());
            sniP99.add((double) c.latencyMs().p99());
        }
        // the mean of three runs and t(0.975, 2) * s / sqrt(3), computed here from the runs, not by the report's code
        double mean = sniTx.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double ss = sniTx.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
        double half = 4.302652729749464 * Math.sqrt(ss / 2) / Math.sqrt(3);
        String cell = String.format(java.util.Locale.ROOT, "%.1f<span class=\"ci\" title=\"95&nbsp;%% confidence interval "
                + "of the mean over 3 runs (Student's t)\"> &plusmn;&nbsp;%.1f</span>", mean, half);
        assertTrue(html.contains(cell), cell);
        var p99 = new dev.meshbench.results.stats.Comparison(new dev.meshbench.results.stats.Sample(bypassP99),
                new dev.meshbench.results.stats.Sample(sniP99));
        String p99Cell = String.format(java.util.Locale.ROOT, "%+.1f \u00b1 %.1f %%, ", p99.changePercent(), p99.changeHalfWidthPercent());
        assertTrue(html.contains(p99Cell), p99Cell);
    }

    @Test
    @DisplayName("a saturated step is flagged in index.html and steps.csv, with what it means")
    void htmlSaturated(@TempDir Path tmp) throws Exception {
        Path results = tmp.resolve("results");
        RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve("sni-envoy-1").resolve("results.json"));
        List<StepResult> steps = new java.util.ArrayList<>();
        for (StepResult s : r.steps()) {
            boolean hot = s.clients() == 20;
            steps.add(new StepResult(s.clients(), s.windowStartEpochMs(), s.windowEndEpochMs(), s.measuredSeconds(),
                    s.samples(), s.warmupSamplesSkipped(), s.lateSamplesSkipped(), s.transactions(), s.errors(),
                    s.throughputPerSecond(), s.latencyMs(), s.cpu(), s.work(),
                    new StepHost(hot ? 97.4 : 41.0, hot ? 6.2 : 1.1, 2, hot ? 55.0 : 12.0, hot), null));
        }
        ResultsJson.writeResults(results.resolve("sni-envoy-1").resolve("results.json"),
                new RunResults(r.schemaVersion(), r.inputs(), r.conversion(), steps, r.notes()));
        ReportGenerator.generate(results, tmp.resolve("out"), 20, ConversionMode.NONE, NOW);
        String html = TestRuns.page(tmp.resolve("out/index.html"));
        assertTrue(html.contains("<td class=\"bad\">97.4 saturated</td><td>6.2</td><td>55</td>"), "saturated cell");
        assertTrue(html.contains("<td>41.0</td><td>1.1</td><td>12</td>"), "unsaturated cell");
        assertTrue(html.contains("the components waited for cores"), "the meaning");
        String csv = Files.readString(tmp.resolve("out/steps.csv"));
        assertTrue(csv.contains(",97.4,6.2,55,true,,,,\n") && csv.contains(",41,1.1,12,false,,,,\n"), csv);
    }

    @Test
    @DisplayName("labels.csv: one row per run, step and request type, from each step's labels; none for older runs")
    void labelsCsv(@TempDir Path tmp) throws Exception {
        Path results = tmp.resolve("results");
        RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve("sni-envoy-1").resolve("results.json"));
        int at = java.util.stream.IntStream.range(0, r.steps().size()).filter(i -> r.steps().get(i).clients() == 20)
                .findFirst().orElseThrow(); // the step the report compares
        StepResult s = r.steps().get(at);
        long half = s.transactions() / 2;
        var lat = s.latencyMs();
        var labels = List.of(new dev.meshbench.results.LabelResult("login, \"quoted\"", half, half, 0, 1.5, lat),
                new dev.meshbench.results.LabelResult("queryflight", s.transactions() - half + s.errors(),
                        s.transactions() - half, s.errors(), 2.25, lat));
        StepResult labelled = new StepResult(s.clients(), s.windowStartEpochMs(), s.windowEndEpochMs(), s.measuredSeconds(),
                s.samples(), s.warmupSamplesSkipped(), s.lateSamplesSkipped(), s.transactions(), s.errors(),
                s.throughputPerSecond(), lat, s.cpu(), s.work(), s.host(), s.drift(), s.rate(), labels);
        List<StepResult> steps = new java.util.ArrayList<>(r.steps());
        steps.set(at, labelled);
        ResultsJson.writeResults(results.resolve("sni-envoy-1").resolve("results.json"),
                new RunResults(r.schemaVersion(), r.inputs(), r.conversion(), steps, r.notes()));
        java.nio.file.Files.createDirectories(results.resolve("bypass-1"));
        java.nio.file.Files.copy(TestRuns.RESULTS.resolve("bypass-1").resolve("results.json"),
                results.resolve("bypass-1").resolve("results.json"));
        // JMeter's own dashboard of the sni run (as the run writes it), linked from the runs table; bypass has none
        Files.createDirectories(results.resolve("sni-envoy-1/dashboard"));
        Files.writeString(results.resolve("sni-envoy-1/dashboard/index.html"), "<html></html>");
        ReportGenerator.generate(results, tmp.resolve("out"), 20, ConversionMode.NONE, NOW);
        List<String> lines = Files.readAllLines(tmp.resolve("out/labels.csv"));
        assertEquals(String.join(",", CsvReportWriter.LABELS_HEADER), lines.get(0));
        assertEquals(3, lines.size(), "two labels of one step; the older bypass run has none: " + lines);
        String prefix = "sni-envoy-1,sni," + r.inputs().dataPlane().label() + ",local," + s.clients() + ",";
        assertEquals(prefix + "\"login, \"\"quoted\"\"\"," + half + "," + half + ",0,1.5," + latencyCells(lat), lines.get(1));
        assertTrue(lines.get(2).startsWith(prefix + "queryflight," + (s.transactions() - half + s.errors()) + ","
                + (s.transactions() - half) + "," + s.errors() + ",2.25,"), lines.get(2));
        String html = TestRuns.page(tmp.resolve("out/index.html"));
        assertTrue(html.contains("<a href=\"labels.csv\">labels.csv</a>"), "linked");
        // the table per request type: the two labels, escaped, with their rates; the data plane without labels has none
        assertTrue(html.contains("Response time per request type at 20 clients"), "the section");
        assertTrue(html.contains("<td class=\"l\">login, &quot;quoted&quot;</td><td>1.5</td>"), "login's row");
        assertTrue(html.contains("<td class=\"l\">queryflight</td><td>2.3</td>")
                || html.contains("<td class=\"l\">queryflight</td><td>2.2</td>"), "queryflight's row");
        assertEquals(1, html.split("request type<br>", -1).length - 1, "one table: only envoy's runs have labels");
        // and its chart: P99 per request type, one bar per case and data plane with labels; bypass (no labels) has none
        assertTrue(html.contains("<img src=\"labels-p99.png\""), "the chart is shown");
        assertTrue(Files.size(tmp.resolve("out/labels-p99.png")) > 0);
        var chart = dev.meshbench.charts.render.LabelChartRenderer.dataset(dev.meshbench.charts.model.ReportModel.of(
                dev.meshbench.charts.load.ResultsDirectoryReader.read(results, ConversionMode.NONE), 20));
        assertEquals(List.of("sni \u00b7 " + r.inputs().dataPlane().label()), chart.getRowKeys());
        assertEquals(List.of("login, \"quoted\"", "queryflight"), chart.getColumnKeys());
        assertEquals((double) lat.p99(), chart.getSpread(0, 1).mean(), 1e-9);
        assertEquals(1, html.split(java.util.regex.Pattern.quote("(<a href=\"../results/sni-envoy-1/dashboard/index.html\">JMeter dashboard</a>)"), -1).length - 1,
                "the sni run's dashboard is linked, relative to the report folder, once");
    }

    private static String latencyCells(dev.meshbench.results.LatencyStats l) {
        return String.join(",", dev.meshbench.charts.render.Numbers.plain(l.avg(), 3), Long.toString(l.median()),
                Long.toString(l.p90()), Long.toString(l.p95()), Long.toString(l.p99()), Long.toString(l.max()));
    }

    @Test
    @DisplayName("a step whose recorded window ran three times its plan is flagged overran in index.html, with what it means")
    void htmlOverran(@TempDir Path tmp) throws Exception {
        Path results = tmp.resolve("results");
        RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve("sni-envoy-1").resolve("results.json"));
        var in = r.inputs();
        var w = in.step(20);
        long start = w.startEpochMs();
        in = in.withStep(dev.meshbench.results.StepWindow.planned(20).started(start).ended(start + 3_000L * in.stepSeconds()));
        ResultsJson.writeResults(results.resolve("sni-envoy-1").resolve("results.json"),
                new RunResults(r.schemaVersion(), in, r.conversion(), r.steps(), r.notes()));
        ReportGenerator.generate(results, tmp.resolve("out"), 20, ConversionMode.NONE, NOW);
        String html = TestRuns.page(tmp.resolve("out/index.html"));
        String flag = "overran: " + 3 * in.stepSeconds() + " s of " + in.stepSeconds() + " s</span>";
        assertEquals(1, html.split(java.util.regex.Pattern.quote(flag), -1).length - 1, "one step flagged: " + flag);
        assertTrue(html.contains("could not start or stop its clients in time"), "the meaning, as the flag's title");
    }

    @Test
    @DisplayName("what runs wrote (data plane, versions, component names, notes, file names) is escaped in index.html")
    void htmlEscapesWhatRunsWrote(@TempDir Path tmp) throws Exception {
        String evil = EVIL;
        String escaped = ESCAPED;
        Path results = tmp.resolve("results");
        for (String run : List.of("bypass-1", "sni-1")) {
            RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve(run).resolve("results.json"));
            RunInputs in = r.inputs();
            RunInputs hostile = new RunInputs(in.schemaVersion(), in.runId(), in.caseId(), in.target(), in.steps(),
                    in.stepSeconds(), in.warmupSeconds(), in.thinkTimeMs(), in.customers(), in.versions(), in.machine(),
                    in.startTime(), in.status(), in.failureReason(),
                    new DataPlaneInfo("netty", Map.of("sidecar", "relay " + evil), 2, true, true, evil), in.workload(), null);
            List<StepResult> steps = new java.util.ArrayList<>();
            for (StepResult s : r.steps()) {
                dev.meshbench.results.StepCpu cpu = s.cpu();
                if (cpu != null) {
                    cpu = new dev.meshbench.results.StepCpu(cpu.mesh(), cpu.app(), cpu.database(), cpu.load(),
                            cpu.components().stream().map(c -> c.component().equals("sidecar-auth")
                                    ? new dev.meshbench.results.ComponentCpu("sidecar-auth" + evil, c.role(),
                                            c.cpuMillis(), c.cores(), c.cpuMsPerTransaction(), c.coverage(),
                                            c.processes(), c.maxRssBytes())
                                    : c).toList());
                }
                steps.add(new StepResult(s.clients(), s.windowStartEpochMs(), s.windowEndEpochMs(), s.measuredSeconds(),
                        s.samples(), s.warmupSamplesSkipped(), s.lateSamplesSkipped(), s.transactions(), s.errors(),
                        s.throughputPerSecond(), s.latencyMs(), cpu, s.work(), s.host(), s.drift(), s.rate()));
            }
            ResultsJson.writeResults(results.resolve(run).resolve("results.json"),
                    new RunResults(r.schemaVersion(), hostile, r.conversion(), steps, List.of("note " + evil)));
        }
        Files.createDirectories(results.resolve("x" + evil));
        Files.writeString(results.resolve("x" + evil).resolve("results.json"), "{");
        ReportGenerator.generate(results, tmp.resolve("out"), 20, ConversionMode.NONE, NOW);
        String html = TestRuns.page(tmp.resolve("out/index.html"));
        for (String expected : List.of(
                "<td class=\"l\">netty (" + escaped + " TLS)</td>",
                "<td class=\"l\">sidecar: relay " + escaped + "</td>",
                "<td class=\"l\">sidecar-auth" + escaped + "</td>",
                "<th class=\"l\">data plane</th><td class=\"l\">netty (" + escaped + " TLS)</td>",
                "<b>bypass-1</b>: note " + escaped + "</li>",
                "<code>x" + escaped + "/results.json</code>")) {
            assertTrue(html.contains(expected), expected);
        }
        assertFalse(html.contains("<script>"), "no script element came from the runs");
        assertFalse(html.contains("& \"co\""), "no bare ampersand or quote came from the runs");
        assertFalse(html.contains("'x'"), "no bare apostrophe came from the runs");
    }

    @Test
    @DisplayName("what a run wrote is escaped inside attributes too: a data plane without bypass named in a title")
    void htmlEscapesWhatRunsWroteInAttributes(@TempDir Path tmp) throws Exception {
        Path results = tmp.resolve("results");
        RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve("sni-1").resolve("results.json"));
        RunInputs in = r.inputs();
        ResultsJson.writeResults(results.resolve("sni-1").resolve("results.json"), new RunResults(r.schemaVersion(),
                in.withDataPlane(new DataPlaneInfo("netty", Map.of(), 2, true, true, EVIL)), r.conversion(), r.steps(),
                r.notes()));
        ReportGenerator.generate(results, tmp.resolve("out"), 20, ConversionMode.NONE, NOW);
        String html = TestRuns.page(tmp.resolve("out/index.html"));
        String expected = "<td class=\"muted\" title=\"no bypass run on data plane netty (" + ESCAPED + " TLS)\">"
                + "no bypass run</td>";
        assertTrue(html.contains(expected), expected);
        assertFalse(html.contains("<script>"), "no script element came from the run");
        assertFalse(html.contains("\"co\""), "no quote came from the run to end an attribute");
    }

    @Test
    @DisplayName("runs from a cluster and from the local target share one report, as series of their own")
    void htmlBothTargets(@TempDir Path tmp) throws Exception {
        ClusterInfo cluster = new ClusterInfo("v1.31.4", "1.28.0", List.of(new ClusterNode("worker-1", 8, 32L << 30, null)));
        Path results = tmp.resolve("results");
        RunResults local = ResultsJson.readResults(TestRuns.RESULTS.resolve("sni-envoy-1").resolve("results.json"));
        ResultsJson.writeResults(results.resolve("sni-envoy-1").resolve("results.json"), local);
        RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve("sni-envoy-2").resolve("results.json"));
        RunInputs in = r.inputs();
        RunInputs k8s = new RunInputs(in.schemaVersion(), in.runId(), in.caseId(), TargetKind.KUBERNETES,
                in.steps(), in.stepSeconds(), in.warmupSeconds(), in.thinkTimeMs(), in.customers(),
                in.versions(), in.machine(), in.startTime(), in.status(), in.failureReason(),
                new DataPlaneInfo("istio", Map.of("sidecar", "istio-proxy 1.28.0"), null, true, true, "BoringSSL"),
                in.workload(), null).withCluster(cluster);
        ResultsJson.writeResults(results.resolve("sni-k8s").resolve("results.json"),
                new RunResults(r.schemaVersion(), k8s, r.conversion(), r.steps(), r.notes()));
        ReportGenerator.generate(results, tmp.resolve("out"), 20, ConversionMode.NONE, NOW);
        String html = TestRuns.page(tmp.resolve("out/index.html"));
        for (String expected : List.of("on the <b>kubernetes</b> and <b>local</b> targets", "Nothing was skipped.")) {
            assertTrue(html.contains(expected), expected);
        }
        String steps = Files.readString(tmp.resolve("out/steps.csv"));
        assertTrue(steps.contains("kubernetes") && steps.contains("local"), steps);
        assertTrue(steps.contains("istio") && steps.contains("envoy"), steps);
    }

    /** Text a run could have written, and how the page must show it. */
    private static final String EVIL = "<script>alert(1)</script> & \"co\" 'x'";
    private static final String ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot; &#39;x&#39;";

    /** Rewrites the golden CSVs; run with -Dmeshbench.regenerateGolden=true after a deliberate change, then review. */
    @Test
    @EnabledIfSystemProperty(named = "meshbench.regenerateGolden", matches = "true")
    @DisplayName("regenerates the golden CSV files")
    void regenerate() throws Exception {
        ReportModel m = ReportModel.of(ResultsDirectoryReader.read(TestRuns.RESULTS, ConversionMode.NONE), 20);
        Files.writeString(TestRuns.GOLDEN.resolve("steps.csv"), CsvReportWriter.steps(m));
        Files.writeString(TestRuns.GOLDEN.resolve("comparison.csv"), CsvReportWriter.comparison(m));
    }
}
