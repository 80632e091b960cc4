package dev.meshbench.charts.render;

import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.LabelTable;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.Spread;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;

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
        SpreadCategoryDataset d = new SpreadCategoryDataset();
        java.util.SortedSet<String> labels = LabelTable.labels(model.cases(), model.clients());
        for (CaseSummary c : model.cases()) {
            for (String label : labels) {
                Spread p99 = c.label(model.clients(), label, LabelTable::p99);
                if (p99 != null) {
                    d.add(p99, c.key(), label);
                }
            }
        }
        return d;
    }

    /** The chart. */
    public static JFreeChart chart(ReportModel model) {
        CategoryAxis x = new CategoryAxis("Request type (JMeter label)");
        x.setCategoryMargin(0.25);
        x.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        return LatencyChartRenderer.barsPerCase(model, dataset(model), x, "P99 response time (ms)",
                "P99 response time per request type at " + model.clients() + " clients",
                "Successful requests of each type after warm-up");
    }
}
