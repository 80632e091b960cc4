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

/** Figure 2: response-time statistics at the report's client count, grouped by statistic, one bar per case. */
public final class LatencyChartRenderer {
    private LatencyChartRenderer() {
    }

    /** Rows: case ids; columns: statistic labels (average, median, p90, p95, p99); values: mean ms over runs. */
    public static SpreadCategoryDataset dataset(ReportModel model) {
        SpreadCategoryDataset d = new SpreadCategoryDataset();
        for (CaseSummary c : model.cases()) {
            for (LatencyStatistic s : LatencyStatistic.values()) {
                Spread sp = c.latency(model.clients(), s);
                if (sp != null) {
                    d.add(sp, c.caseId(), s.label());
                }
            }
        }
        return d;
    }

    /** The chart. */
    public static JFreeChart chart(ReportModel model) {
        SpreadCategoryDataset data = dataset(model);
        SpreadBarRenderer r = new SpreadBarRenderer();
        for (int i = 0; i < data.getRowCount(); i++) {
            r.setSeriesPaint(i, ChartStyle.caseColor(data.getRowKey(i).toString()));
        }
        r.setLegendItemLabelGenerator((dataset, series) -> Labels.caseWithRuns(
                model.cases().stream().filter(c -> c.caseId().equals(dataset.getRowKey(series))).findFirst()
                        .orElseThrow()));
        CategoryAxis x = new CategoryAxis("Statistic of the response time");
        x.setCategoryMargin(0.25);
        NumberAxis y = new NumberAxis("Response time (ms)");
        CategoryPlot plot = new CategoryPlot(data, x, y, r);
        plot.setOrientation(PlotOrientation.VERTICAL);
        JFreeChart chart = new JFreeChart("Response time at " + model.clients() + " clients",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        ChartStyle.apply(chart, Labels.spreadNote(model, "Successful requests after warm-up"));
        return chart;
    }
}
