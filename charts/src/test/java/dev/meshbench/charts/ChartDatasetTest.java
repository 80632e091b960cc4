package dev.meshbench.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.ResultsDirectoryReader;
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
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Each chart's dataset, checked against values read straight from the results.json files. */
class ChartDatasetTest {
    static ReportModel model;

    @BeforeAll
    static void load() throws IOException {
        model = ReportModel.of(ResultsDirectoryReader.read(TestRuns.RESULTS, ConversionMode.NONE), 20);
    }

    @Test
    @DisplayName("throughput chart: one series per case in study order, one point per client step")
    void throughputSeries() throws IOException {
        YIntervalSeriesCollection d = ThroughputChartRenderer.dataset(model);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < d.getSeriesCount(); i++) {
            keys.add(d.getSeriesKey(i).toString());
        }
        assertEquals(List.of("bypass", "sidecar", "gateway", "mtls", "sni"), keys);
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
        Spread expected = spread("bypass", 3, 20, StepResult::throughputPerSecond);
        assertEquals(expected.mean(), bypass.getYValue(at20), 1e-9);
        assertEquals(expected.min(), bypass.getYLowValue(at20), 1e-9);
        assertEquals(expected.max(), bypass.getYHighValue(at20), 1e-9);
        assertTrue(expected.max() > expected.min(), "the three bypass runs differ");
        YIntervalSeries sidecar = ThroughputChartRenderer.dataset(model).getSeries(1);
        int s20 = sidecar.indexOf(20.0);
        assertEquals(sidecar.getYLowValue(s20), sidecar.getYHighValue(s20), "one run: no spread");
    }

    @Test
    @DisplayName("latency chart: cases as bars, avg/median/p90/p95/p99 as groups, values in ms at 20 clients")
    void latencyValues() throws IOException {
        SpreadCategoryDataset d = LatencyChartRenderer.dataset(model);
        assertEquals(List.of("bypass", "sidecar", "gateway", "mtls", "sni"), d.getRowKeys());
        assertEquals(List.of("average", "median", "p90", "p95", "p99"), d.getColumnKeys());
        assertEquals(spread("sni", 3, 20, s -> s.latencyMs().p99()).mean(),
                d.getValue("sni", "p99").doubleValue(), 1e-9);
        assertEquals(spread("sni", 3, 20, s -> s.latencyMs().p99()), d.getSpread("sni", "p99"));
        assertEquals(spread("mtls", 1, 20, s -> s.latencyMs().avg()).mean(),
                d.getValue("mtls", "average").doubleValue(), 1e-9);
        assertEquals(spread("gateway", 1, 20, s -> s.latencyMs().median()).mean(),
                d.getValue("gateway", "median").doubleValue(), 1e-9);
    }

    @Test
    @DisplayName("CPU chart: mesh CPU ms per transaction per case at 20 clients, with spread over repeats")
    void cpuValues() throws IOException {
        SpreadCategoryDataset d = CpuChartRenderer.dataset(model);
        assertEquals(List.of(CpuChartRenderer.SERIES), d.getRowKeys());
        assertEquals(List.of("bypass", "sidecar", "gateway", "mtls", "sni"), d.getColumnKeys());
        for (String c : List.of("bypass", "sni")) {
            assertEquals(spread(c, 3, 20, s -> s.cpu().mesh().cpuMsPerTransaction()),
                    d.getSpread(CpuChartRenderer.SERIES, c));
        }
        assertEquals(spread("mtls", 1, 20, s -> s.cpu().mesh().cpuMsPerTransaction()).mean(),
                d.getValue(CpuChartRenderer.SERIES, "mtls").doubleValue(), 1e-12);
    }

    @Test
    @DisplayName("a client count no run measured falls back to the nearest step, with a warning")
    void nearestClients() throws IOException {
        ReportModel m = ReportModel.of(ResultsDirectoryReader.read(TestRuns.RESULTS, ConversionMode.NONE), 24);
        assertEquals(20, m.clients());
        assertEquals(List.of("no run measured 24 clients (steps: [1, 5, 10, 20, 30]); latency and CPU figures use "
                + "20 clients instead"), m.warnings());
        assertEquals("Response time at 20 clients", LatencyChartRenderer.chart(m).getTitle().getText());
    }

    @Test
    @DisplayName("the comparison against bypass uses the means and leaves bypass at zero change")
    void comparison() throws IOException {
        var rows = model.comparison();
        assertEquals(0.0, rows.get(0).throughputChange(), 1e-12);
        double bypass = spread("bypass", 3, 20, StepResult::throughputPerSecond).mean();
        double sni = spread("sni", 3, 20, StepResult::throughputPerSecond).mean();
        assertEquals((sni - bypass) / bypass * 100, rows.get(4).throughputChange(), 1e-9);
        assertTrue(rows.get(4).meshCpuChange() > 100, "sni uses clearly more mesh CPU per transaction");
    }

    @Test
    @DisplayName("an empty results directory gives empty datasets, not an error")
    void empty(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws IOException {
        ReportModel m = ReportModel.of(ResultsDirectoryReader.read(tmp, ConversionMode.NONE), 20);
        assertEquals(0, ThroughputChartRenderer.dataset(m).getSeriesCount());
        assertEquals(0, LatencyChartRenderer.dataset(m).getRowCount());
        assertNull(m.baseline());
    }

    /** The spread of {@code value} over runs {@code <case>-1..n} read directly from their results.json. */
    private static Spread spread(String caseId, int runs, int clients, ToDoubleFunction<StepResult> value)
            throws IOException {
        List<Double> values = new ArrayList<>();
        for (int i = 1; i <= runs; i++) {
            RunResults r = ResultsJson.readResults(TestRuns.RESULTS.resolve(caseId + "-" + i).resolve("results.json"));
            values.add(value.applyAsDouble(r.step(clients).orElseThrow()));
        }
        return Spread.of(values);
    }
}
