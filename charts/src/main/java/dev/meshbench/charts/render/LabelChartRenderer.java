package dev.meshbench.charts.render;

import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.Spread;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;

/**
 * P99 response time per request type (JMeter label) at the report's client count, one bar per case and data plane:
 * the chart beside the per-request table, so the requests that pay for the egress path stand out.
 */
public final class LabelChartRenderer {
    private LabelChartRenderer() {
    }

    /**
     * Rows: case and data plane ({@link CaseSummary#key()}), in report order; columns: the labels any run has at the
     * client count, in label order; values: P99 ms over the runs of that case on that data plane. Empty when no run
     * has figures per request type (results before schema 6).
     */
    public static SpreadCategoryDataset dataset(ReportModel model) {
        SortedSet<String> labels = new TreeSet<>();
        model.cases().forEach(c -> c.results().forEach(r -> r.step(model.clients())
                .ifPresent(s -> s.labels().forEach(l -> labels.add(l.label())))));
        SpreadCategoryDataset d = new SpreadCategoryDataset();
        for (CaseSummary c : model.cases()) {
            for (String label : labels) {
                Spread p99 = c.label(model.clients(), label, l -> l.latencyMs() == null ? null : l.latencyMs().p99());
                if (p99 != null) {
                    d.add(p99, c.key(), label);
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
            r.setSeriesPaint(i, Labels.color(model, summary(model, data.getRowKey(i))));
        }
        r.setLegendItemLabelGenerator((dataset, series) -> Labels.caseWithRuns(summary(model, dataset.getRowKey(series))));
        CategoryAxis x = new CategoryAxis("Request type (JMeter label)");
        x.setCategoryMargin(0.25);
        x.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        NumberAxis y = new NumberAxis("P99 response time (ms)");
        CategoryPlot plot = new CategoryPlot(data, x, y, r);
        plot.setOrientation(PlotOrientation.VERTICAL);
        JFreeChart chart = new JFreeChart("P99 response time per request type at " + model.clients() + " clients",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        ChartStyle.apply(chart, Labels.spreadNote(model, "Successful requests of each type after warm-up"));
        return chart;
    }

    private static CaseSummary summary(ReportModel model, Comparable<?> key) {
        return model.cases().stream().filter(c -> c.key().equals(key)).findFirst().orElseThrow();
    }
}
