package dev.meshbench.charts.render;

import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.LatencyStatistic;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.Spread;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;

/**
 * Figure 2: response-time statistics at the report's client count, grouped by statistic, one bar per case and
 * data plane.
 */
public final class LatencyChartRenderer {
    private LatencyChartRenderer() {
    }

    /**
     * Rows: case and data plane ({@link CaseSummary#key()}, e.g. "sni · envoy"), in report order; columns: statistic
     * labels (average, median, p90, p95, p99); values: mean ms over the runs of that case on that data plane.
     */
    public static SpreadCategoryDataset dataset(ReportModel model) {
        SpreadCategoryDataset d = new SpreadCategoryDataset();
        for (CaseSummary c : model.cases()) {
            for (LatencyStatistic s : LatencyStatistic.values()) {
                Spread sp = c.latency(model.clients(), s);
                if (sp != null) {
                    d.add(sp, c.key(), s.label());
                }
            }
        }
        return d;
    }

    /** The chart. */
    public static JFreeChart chart(ReportModel model) {
        CategoryAxis x = new CategoryAxis("Statistic of the response time");
        x.setCategoryMargin(0.25);
        return barsPerCase(model, dataset(model), x, "Response time (ms)", "Response time at " + model.clients() + " clients",
                "Successful requests after warm-up");
    }

    /**
     * Bars grouped by {@code data}'s columns, one series per case and data plane ({@link CaseSummary#key()} rows) in
     * the case's color, its runs in the legend; the response-time charts' shape.
     */
    static JFreeChart barsPerCase(ReportModel model, SpreadCategoryDataset data, CategoryAxis x, String yLabel,
            String title, String note) {
        SpreadBarRenderer r = new SpreadBarRenderer();
        for (int i = 0; i < data.getRowCount(); i++) {
            r.setSeriesPaint(i, Labels.color(model, summary(model, data.getRowKey(i))));
        }
        r.setLegendItemLabelGenerator((dataset, series) -> Labels.caseWithRuns(summary(model,
                dataset.getRowKey(series))));
        CategoryPlot plot = new CategoryPlot(data, x, new NumberAxis(yLabel), r);
        plot.setOrientation(PlotOrientation.VERTICAL);
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        ChartStyle.apply(chart, Labels.spreadNote(model, note));
        return chart;
    }

    private static CaseSummary summary(ReportModel model, Comparable<?> key) {
        return model.cases().stream().filter(c -> c.key().equals(key)).findFirst().orElseThrow();
    }
}
