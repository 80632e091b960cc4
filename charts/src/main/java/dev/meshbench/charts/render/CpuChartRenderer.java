package dev.meshbench.charts.render;

import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.Spread;
import dev.meshbench.results.ComponentRole;
import java.awt.Color;
import java.awt.Paint;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.ui.TextAnchor;

/** Figure 3: mesh CPU per transaction at the report's client count, one bar per case and data plane. */
public final class CpuChartRenderer {
    /** The one row key of the dataset. */
    public static final String SERIES = "mesh CPU per transaction";

    private CpuChartRenderer() {
    }

    /**
     * One row ({@link #SERIES}); columns: case and data plane ({@link CaseSummary#key()}, e.g. "sni · envoy"), in
     * report order; values: mean mesh CPU ms per transaction over the runs of that case on that data plane.
     */
    public static SpreadCategoryDataset dataset(ReportModel model) {
        SpreadCategoryDataset d = new SpreadCategoryDataset();
        for (CaseSummary c : model.cases()) {
            Spread sp = c.cpuPerTransaction(model.clients(), ComponentRole.MESH);
            if (sp != null) {
                d.add(sp, SERIES, c.key());
            }
        }
        return d;
    }

    /** The chart. */
    public static JFreeChart chart(ReportModel model) {
        SpreadCategoryDataset data = dataset(model);
        SpreadBarRenderer r = new SpreadBarRenderer() {
            private static final long serialVersionUID = 1L;

            @Override
            public Paint getItemPaint(int row, int column) {
                Comparable<?> key = data.getColumnKey(column);
                return Labels.color(model, model.cases().stream().filter(c -> c.key().equals(key)).findFirst()
                        .orElseThrow());
            }
        };
        r.setMaximumBarWidth(0.12);
        r.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", Numbers.axisFormat(2)));
        r.setDefaultItemLabelsVisible(true);
        r.setDefaultItemLabelFont(ChartStyle.ITEM_LABEL.deriveFont(13f));
        r.setDefaultItemLabelPaint(Color.WHITE);
        r.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.CENTER,
                TextAnchor.CENTER));
        CategoryAxis x = new CategoryAxis("Case \u00b7 data plane");
        x.setMaximumCategoryLabelLines(3);
        NumberAxis y = new NumberAxis("Mesh CPU per transaction (CPU ms)");
        CategoryPlot plot = new CategoryPlot(data, x, y, r);
        plot.setOrientation(PlotOrientation.VERTICAL);
        JFreeChart chart = new JFreeChart("Mesh CPU per transaction at " + model.clients() + " clients",
                JFreeChart.DEFAULT_TITLE_FONT, plot, false);
        ChartStyle.apply(chart, Labels.spreadNote(model, capitalized(ComponentRole.MESH.definition()) + ", after warm-up"));
        y.setNumberFormatOverride(Numbers.axisFormat(1, 2));
        return chart;
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
