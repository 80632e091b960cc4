package dev.meshbench.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.ResultsDirectoryReader;
import dev.meshbench.charts.model.ComparisonRow;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.Spread;
import dev.meshbench.charts.render.CpuChartRenderer;
import dev.meshbench.charts.render.LatencyChartRenderer;
import dev.meshbench.charts.render.SpreadCategoryDataset;
import dev.meshbench.charts.render.ThroughputChartRenderer;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each chart's dataset, checked against values read straight from the results.json files: netty runs of every
 * case, envoy runs of bypass and sni, and one version 1 run (netty without sidecar mTLS, no bypass of its own).
 */
class ChartDatasetTest {
    /** Series keys in report order: netty, netty without sidecar mTLS, envoy; study order within each. */
    static final List<String> SERIES = List.of("bypass \u00b7 netty (JDK TLS)", "sidecar \u00b7 netty (JDK TLS)", "gateway \u00b7 netty (JDK TLS)",
            "mtls \u00b7 netty (JDK TLS)", "sni \u00b7 netty (JDK TLS)", "mtls \u00b7 netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards", "bypass \u00b7 envoy",
            "sni \u00b7 envoy");
    static ReportModel model;

    @BeforeAll
    static void load() throws IOException {
        model = ReportModel.of(ResultsDirectoryReader.read(TestRuns.RESULTS, ConversionMode.NONE), 20);
    }

    @Test
    @DisplayName("throughput chart: one series per case and data plane, netty then envoy, one point per client step")
    void throughputSeries() throws IOException {
        YIntervalSeriesCollection d = ThroughputChartRenderer.dataset(model);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < d.getSeriesCount(); i++) {
            keys.add(d.getSeriesKey(i).toString());
        }
        assertEquals(SERIES, keys);
        for (int i = 0; i < d.getSeriesCount(); i++) {
            YIntervalSeries s = d.getSeries(i);
            List<Double> xs = new ArrayList<>();
            for (int j = 0; j < s.getItemCount(); j++) {
                xs.add(s.getX(j).doubleValue());
            }
            assertEquals(List.of(1.0, 5.0, 10.0, 20.0, 30.0), xs, keys.get(i));
        }
    }

    @Test
    @DisplayName("throughput chart: a repeated case shows the mean with min and max of its runs")
    void throughputSpread() throws IOException {
        YIntervalSeries bypass = ThroughputChartRenderer.dataset(model).getSeries(0);
        int at20 = bypass.indexOf(20.0);
        Spread expected = spread(List.of("bypass-1", "bypass-2", "bypass-3"), 20, StepResult::throughputPerSecond);
        assertEquals(expected.mean(), bypass.getYValue(at20), 1e-9);
        assertEquals(expected.min(), bypass.getYLowValue(at20), 1e-9);
        assertEquals(expected.max(), bypass.getYHighValue(at20), 1e-9);
        assertTrue(expected.max() > expected.min(), "the three bypass runs differ");
        YIntervalSeries sidecar = ThroughputChartRenderer.dataset(model).getSeries(1);
        int s20 = sidecar.indexOf(20.0);
        assertEquals(sidecar.getYLowValue(s20), sidecar.getYHighValue(s20), "one run: no spread");
    }

    @Test
    @DisplayName("the same case on two data planes: two series, each spread over its own data plane's runs only")
    void dataPlanesNeverShareASpread() throws IOException {
        YIntervalSeriesCollection d = ThroughputChartRenderer.dataset(model);
        YIntervalSeries netty = d.getSeries(d.indexOf("sni \u00b7 netty (JDK TLS)"));
        YIntervalSeries envoy = d.getSeries(d.indexOf("sni \u00b7 envoy"));
        Spread nettyRuns = spread(List.of("sni-1", "sni-2", "sni-3"), 20, StepResult::throughputPerSecond);
        Spread envoyRuns = spread(List.of("sni-envoy-1", "sni-envoy-2"), 20, StepResult::throughputPerSecond);
        int n = netty.indexOf(20.0);
        int e = envoy.indexOf(20.0);
        assertEquals(List.of(nettyRuns.mean(), nettyRuns.min(), nettyRuns.max()),
                List.of(netty.getYValue(n), netty.getYLowValue(n), netty.getYHighValue(n)));
        assertEquals(List.of(envoyRuns.mean(), envoyRuns.min(), envoyRuns.max()),
                List.of(envoy.getYValue(e), envoy.getYLowValue(e), envoy.getYHighValue(e)));
        assertTrue(envoyRuns.min() > nettyRuns.max(), "envoy's sni is faster in the samples: a shared min-max "
                + "would have shown");
        SpreadCategoryDataset latency = LatencyChartRenderer.dataset(model);
        assertEquals(spread(List.of("sni-envoy-1", "sni-envoy-2"), 20, s -> s.latencyMs().p99()),
                latency.getSpread("sni \u00b7 envoy", "p99"));
        SpreadCategoryDataset cpu = CpuChartRenderer.dataset(model);
        assertEquals(spread(List.of("sni-1", "sni-2", "sni-3"), 20, s -> s.cpu().mesh().cpuMsPerTransaction()),
                cpu.getSpread(CpuChartRenderer.SERIES, "sni \u00b7 netty (JDK TLS)"));
    }

    @Test
    @DisplayName("one run of a case on each of two data planes gives two single-run series with no spread at all")
    void twoRunsTwoDataPlanes(@TempDir Path tmp) throws IOException {
        for (String run : List.of("sni-1", "sni-envoy-1")) {
            Files.createDirectories(tmp.resolve(run));
            Files.copy(TestRuns.RESULTS.resolve(run).resolve("results.json"), tmp.resolve(run).resolve("results.json"));
        }
        ReportModel m = ReportModel.of(ResultsDirectoryReader.read(tmp, ConversionMode.NONE), 20);
        YIntervalSeriesCollection d = ThroughputChartRenderer.dataset(m);
        assertEquals(List.of("sni \u00b7 netty (JDK TLS)", "sni \u00b7 envoy"), List.of(d.getSeriesKey(0), d.getSeriesKey(1)));
        for (int i = 0; i < 2; i++) {
            YIntervalSeries s = d.getSeries(i);
            for (int j = 0; j < s.getItemCount(); j++) {
                assertEquals(s.getYValue(j), s.getYLowValue(j), s.getKey() + " at " + s.getX(j));
                assertEquals(s.getYValue(j), s.getYHighValue(j), s.getKey() + " at " + s.getX(j));
            }
        }
        assertEquals(List.of("sni \u00b7 netty (JDK TLS)", "sni \u00b7 envoy"), LatencyChartRenderer.dataset(m).getRowKeys());
        assertTrue(m.cases().stream().allMatch(c -> c.runs().size() == 1));
        assertEquals(List.of("no bypass run on data plane netty (JDK TLS): its cases have no baseline in the comparison table",
                "no bypass run on data plane envoy: its cases have no baseline in the comparison table"), m.warnings());
    }

    @Test
    @DisplayName("latency chart: case and data plane as bars, avg/median/p90/p95/p99 as groups, values in ms at 20 clients")
    void latencyValues() throws IOException {
        SpreadCategoryDataset d = LatencyChartRenderer.dataset(model);
        assertEquals(SERIES, d.getRowKeys());
        assertEquals(List.of("average", "median", "p90", "p95", "p99"), d.getColumnKeys());
        assertEquals(spread(List.of("sni-1", "sni-2", "sni-3"), 20, s -> s.latencyMs().p99()).mean(),
                d.getValue("sni \u00b7 netty (JDK TLS)", "p99").doubleValue(), 1e-9);
        assertEquals(spread(List.of("sni-1", "sni-2", "sni-3"), 20, s -> s.latencyMs().p99()),
                d.getSpread("sni \u00b7 netty (JDK TLS)", "p99"));
        assertEquals(spread(List.of("mtls-1"), 20, s -> s.latencyMs().avg()).mean(),
                d.getValue("mtls \u00b7 netty (JDK TLS)", "average").doubleValue(), 1e-9);
        assertEquals(spread(List.of("gateway-1"), 20, s -> s.latencyMs().median()).mean(),
                d.getValue("gateway \u00b7 netty (JDK TLS)", "median").doubleValue(), 1e-9);
    }

    @Test
    @DisplayName("CPU chart: mesh CPU ms per transaction per case and data plane at 20 clients, with spread over repeats")
    void cpuValues() throws IOException {
        SpreadCategoryDataset d = CpuChartRenderer.dataset(model);
        assertEquals(List.of(CpuChartRenderer.SERIES), d.getRowKeys());
        assertEquals(SERIES, d.getColumnKeys());
        for (String c : List.of("bypass", "sni")) {
            assertEquals(spread(List.of(c + "-1", c + "-2", c + "-3"), 20, s -> s.cpu().mesh().cpuMsPerTransaction()),
                    d.getSpread(CpuChartRenderer.SERIES, c + " \u00b7 netty (JDK TLS)"));
        }
        assertEquals(spread(List.of("mtls-1"), 20, s -> s.cpu().mesh().cpuMsPerTransaction()).mean(),
                d.getValue(CpuChartRenderer.SERIES, "mtls \u00b7 netty (JDK TLS)").doubleValue(), 1e-12);
        assertEquals(spread(List.of("mtls-v1"), 20, s -> s.cpu().mesh().cpuMsPerTransaction()),
                d.getSpread(CpuChartRenderer.SERIES, "mtls \u00b7 netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards"));
    }

    @Test
    @DisplayName("a client count no run measured falls back to the nearest step, with a warning")
    void nearestClients() throws IOException {
        ReportModel m = ReportModel.of(ResultsDirectoryReader.read(TestRuns.RESULTS, ConversionMode.NONE), 24);
        assertEquals(20, m.clients());
        assertEquals("no run measured 24 clients (steps: [1, 5, 10, 20, 30]); latency and CPU figures use "
                + "20 clients instead", m.warnings().get(0));
        assertEquals("Response time at 20 clients", LatencyChartRenderer.chart(m).getTitle().getText());
    }

    @Test
    @DisplayName("the comparison against bypass uses the means and leaves bypass at zero change")
    void comparison() throws IOException {
        var rows = model.comparison();
        assertEquals(0.0, rows.get(0).throughputChange(), 1e-12);
        double bypass = spread(List.of("bypass-1", "bypass-2", "bypass-3"), 20, StepResult::throughputPerSecond)
                .mean();
        double sni = spread(List.of("sni-1", "sni-2", "sni-3"), 20, StepResult::throughputPerSecond).mean();
        assertEquals("sni", rows.get(4).caseId());
        assertEquals((sni - bypass) / bypass * 100, rows.get(4).throughputChange(), 1e-9);
        assertTrue(rows.get(4).meshCpuChange() > 100, "sni uses clearly more mesh CPU per transaction");
    }

    @Test
    @DisplayName("the comparison measures each case against bypass of its own data plane")
    void comparisonUsesSameDataPlaneBypass() throws IOException {
        ComparisonRow envoySni = row("sni", "envoy");
        double envoyBypass = spread(List.of("bypass-envoy-1"), 20, StepResult::throughputPerSecond).mean();
        double nettyBypass = spread(List.of("bypass-1", "bypass-2", "bypass-3"), 20, StepResult::throughputPerSecond)
                .mean();
        double sni = spread(List.of("sni-envoy-1", "sni-envoy-2"), 20, StepResult::throughputPerSecond).mean();
        assertTrue(envoySni.hasBaseline());
        assertEquals((sni - envoyBypass) / envoyBypass * 100, envoySni.throughputChange(), 1e-9);
        assertNotEquals((sni - nettyBypass) / nettyBypass * 100, envoySni.throughputChange(), 0.5);
        double envoyMesh = spread(List.of("bypass-envoy-1"), 20, s -> s.cpu().mesh().cpuMsPerTransaction()).mean();
        double sniMesh = spread(List.of("sni-envoy-1", "sni-envoy-2"), 20, s -> s.cpu().mesh().cpuMsPerTransaction())
                .mean();
        assertEquals((sniMesh - envoyMesh) / envoyMesh * 100, envoySni.meshCpuChange(), 1e-9);
        assertEquals(0.0, row("bypass", "envoy").throughputChange(), 1e-12);
        assertEquals(envoyBypass, model.baseline("envoy").throughput(20).mean(), 1e-12);
    }

    @Test
    @DisplayName("a data plane without a bypass run has no baseline: no changes, and a warning naming it")
    void dataPlaneWithoutBypass() throws IOException {
        ComparisonRow old = row("mtls", "netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards");
        assertFalse(old.hasBaseline());
        assertNull(old.throughputChange());
        assertNull(old.meshCpuChange());
        assertNotNull(old.throughput(), "its own figures are still there");
        assertNull(model.baseline("netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards"));
        assertEquals(List.of("no bypass run on data plane netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards: its cases have no baseline in the "
                + "comparison table"), model.warnings());
    }

    @Test
    @DisplayName("an empty results directory gives empty datasets, not an error")
    void empty(@TempDir Path tmp) throws IOException {
        ReportModel m = ReportModel.of(ResultsDirectoryReader.read(tmp, ConversionMode.NONE), 20);
        assertEquals(0, ThroughputChartRenderer.dataset(m).getSeriesCount());
        assertEquals(0, LatencyChartRenderer.dataset(m).getRowCount());
        assertNull(m.baseline("netty"));
        assertEquals(List.of(), m.dataPlanes());
    }

    private static ComparisonRow row(String caseId, String dataPlane) {
        return model.comparison().stream().filter(r -> r.caseId().equals(caseId) && r.dataPlane().equals(dataPlane))
                .findFirst().orElseThrow();
    }

    /** The spread of {@code value} over the runs {@code runIds}, read directly from their results.json. */
    private static Spread spread(List<String> runIds, int clients, ToDoubleFunction<StepResult> value)
            throws IOException {
        List<Double> values = new ArrayList<>();
        for (String runId : runIds) {
            RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve(runId).resolve("results.json"));
            values.add(value.applyAsDouble(r.step(clients).orElseThrow()));
        }
        return Spread.of(values);
    }
}
