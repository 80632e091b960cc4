package dev.meshbench.charts.render;

import dev.meshbench.charts.model.CaseSummary;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.Spread;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * Figure 1: throughput against concurrent clients, one line per case and data plane, min-max bars over repeats. Only
 * cases with a closed-loop run have a line: at a fixed rate throughput is the rate offered, an input, so a report whose
 * runs all ran at a fixed rate draws no throughput chart ({@link ReportModel#hasClosedLoop()}).
 */
public final class ThroughputChartRenderer {
    private ThroughputChartRenderer() {
    }

    /**
     * One series per case and data plane with a closed-loop run, in report order (key: {@link CaseSummary#key()},
     * e.g. "sni · envoy"); x = clients, y = mean throughput, y interval = min-max over that case's runs on that data
     * plane.
     */
    public static YIntervalSeriesCollection dataset(ReportModel model) {
        YIntervalSeriesCollection d = new YIntervalSeriesCollection();
        for (CaseSummary c : charted(model)) {
            YIntervalSeries s = new YIntervalSeries(c.key());
            for (int clients : model.clientSteps()) {
                Spread sp = c.throughput(clients);
                if (sp != null) {
                    s.add(clients, sp.mean(), sp.min(), sp.max());
                }
            }
            d.addSeries(s);
        }
        return d;
    }

    /** The cases the chart draws: those with a closed-loop run. */
    private static List<CaseSummary> charted(ReportModel model) {
        return model.cases().stream().filter(CaseSummary::closedLoop).toList();
    }

    /** The chart. */
    public static JFreeChart chart(ReportModel model) {
        YIntervalSeriesCollection data = dataset(model);
        NumberAxis x = new NumberAxis("Concurrent clients (JMeter threads)");
        x.setAutoRangeIncludesZero(true);
        NumberAxis y = new NumberAxis("Throughput (transactions/s)");
        y.setAutoRangeIncludesZero(true);
        XYErrorRenderer r = new XYErrorRenderer();
        r.setDrawXError(false);
        r.setDrawYError(true);
        r.setCapLength(8);
        r.setErrorStroke(new BasicStroke(1.5f));
        r.setErrorPaint(Color.DARK_GRAY);
        List<CaseSummary> charted = charted(model);
        for (int i = 0; i < charted.size(); i++) {
            CaseSummary c = charted.get(i);
            int plane = Labels.dataPlaneIndex(model, c);
            r.setSeriesPaint(i, Labels.color(model, c));
            r.setSeriesStroke(i, ChartStyle.seriesStroke(plane));
            r.setSeriesShape(i, ChartStyle.seriesShape(plane));
            r.setSeriesLinesVisible(i, true);
            r.setSeriesShapesVisible(i, true);
        }
        r.setLegendItemLabelGenerator((dataset, series) -> Labels.caseWithRuns(charted.get(series)));
        XYPlot plot = new XYPlot(data, x, y, r);
        plot.setOrientation(PlotOrientation.VERTICAL);
        JFreeChart chart = new JFreeChart("Throughput vs. concurrent clients", JFreeChart.DEFAULT_TITLE_FONT, plot,
                true);
        ChartStyle.apply(chart, Labels.spreadNote(model, "Measured window of each step (after warm-up)"));
        x.setNumberFormatOverride(Numbers.axisFormat(0));
        int most = model.clientSteps().isEmpty() ? 10 : model.clientSteps().get(model.clientSteps().size() - 1);
        x.setTickUnit(new NumberTickUnit(most <= 12 ? 1 : most <= 40 ? 5 : 10));
        x.setUpperMargin(0.03);
        return chart;
    }
}
