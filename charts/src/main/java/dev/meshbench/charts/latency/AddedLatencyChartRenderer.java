package dev.meshbench.charts.latency;

import dev.meshbench.charts.render.ChartStyle;
import dev.meshbench.charts.render.Numbers;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.Range;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.general.DatasetUtils;

/**
 * {@code added-latency.png}: what each mesh (gateway, sidecar, both) adds over the no-mesh cell of the same graph
 * and scale. One panel per data plane and one for the gist's published figures, stacked and sharing the cells as
 * categories; in each, a P50 and a P99 bar per cell. The data planes' panels share one scale, so they compare at a
 * glance; the gist's has its own, because its differences (tens to hundreds of ms on a cluster) would flatten ours.
 * A missing value (no passed cell or baseline) leaves its bar out.
 */
public final class AddedLatencyChartRenderer {
    /** Height of the PNG, pixels: taller than the egress report's charts, for its stacked panels. */
    public static final int HEIGHT = 860;
    /** The legend's name of the gist's panel. */
    public static final String GIST_SERIES = "gist (Istio on Kubernetes)";

    private static final Color P50 = new Color(0x6baed6);
    private static final Color P99 = new Color(0x08519c);
    private static final Color GIST_P50 = new Color(0xbdbdbd);
    private static final Color GIST_P99 = new Color(0x636363);

    /** A bar of each cell. */
    public enum Statistic {
        P50("P50", AddedLatency::p50Ms),
        P99("P99", AddedLatency::p99Ms);

        private final String label;
        private final Function<AddedLatency, Double> value;

        Statistic(String label, Function<AddedLatency, Double> value) {
            this.label = label;
            this.value = value;
        }

        /** "P50", "P99". */
        public String label() {
            return label;
        }

        /** This statistic's added latency, ms; {@code null} when missing. */
        public Double of(AddedLatency a) {
            return value.apply(a);
        }
    }

    private AddedLatencyChartRenderer() {
    }

    /** "single/1 gateway", "double/5 both": a category of the chart, short enough to fit under its bars. */
    public static String category(CellId cell) {
        return cell.graph() + "/" + cell.scale() + " " + (cell.ingress() && cell.sidecar() ? "both" : cell.mesh());
    }

    /**
     * The panel of a data plane, or of the gist ({@link AddedLatency#GIST}). Columns: the cells with mesh
     * ({@link LatencyReportModel#meshCells()}) as {@link #category}; rows: {@link #seriesKey} of P50 and P99
     * ({@code "P50"}, {@code "P99"}; the gist's {@code "gist P50"}, {@code "gist P99"}); values: added ms,
     * {@code null} where a cell or its baseline is missing.
     */
    public static DefaultCategoryDataset dataset(LatencyReportModel model, String source) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (CellId cell : model.meshCells()) {
            AddedLatency a = model.added(source).stream().filter(x -> x.cell().equals(cell)).findFirst().orElseThrow();
            for (Statistic s : Statistic.values()) {
                d.addValue(s.of(a), seriesKey(source, s), category(cell));
            }
        }
        return d;
    }

    /** {@code "P50"}, or {@code "gist P50"} for the gist. */
    public static String seriesKey(String source, Statistic statistic) {
        return AddedLatency.GIST.equals(source) ? "gist " + statistic.label() : statistic.label();
    }

    /** The chart. */
    public static JFreeChart chart(LatencyReportModel model) {
        CategoryAxis x = new CategoryAxis("Graph/scale and mesh (gateway, sidecar or both), each over the same "
                + "graph/scale without mesh");
        x.setMaximumCategoryLabelLines(2);
        x.setCategoryMargin(0.12);
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(x);
        plot.setGap(16);
        List<String> sources = new ArrayList<>(model.dataPlanes());
        sources.add(AddedLatency.GIST);
        List<NumberAxis> ourAxes = new ArrayList<>();
        Range ours = null;
        LegendItemCollection legend = new LegendItemCollection();
        for (String source : sources) {
            boolean gist = AddedLatency.GIST.equals(source);
            DefaultCategoryDataset data = dataset(model, source);
            BarRenderer r = new BarRenderer();
            r.setBarPainter(new StandardBarPainter());
            r.setShadowVisible(false);
            r.setDrawBarOutline(false);
            r.setItemMargin(0.04);
            r.setSeriesPaint(0, gist ? GIST_P50 : P50);
            r.setSeriesPaint(1, gist ? GIST_P99 : P99);
            NumberAxis y = new NumberAxis((gist ? "gist" : source) + ": added ms");
            CategoryPlot sub = new CategoryPlot(data, null, y, r);
            sub.setOrientation(PlotOrientation.VERTICAL);
            sub.setRangeZeroBaselineVisible(true);
            sub.setNoDataMessage("No passed cell with its baseline");
            plot.add(sub, 1);
            if (gist || ourAxes.isEmpty()) {
                legend.addAll(sub.getLegendItems());
            }
            if (!gist) {
                ourAxes.add(y);
                ours = Range.combine(ours, DatasetUtils.findRangeBounds(data, false));
            }
        }
        if (ours != null) {
            // one scale for every data plane, zero included, a little room above and below
            Range withZero = Range.expandToInclude(ours, 0);
            double pad = Math.max(withZero.getLength() * 0.06, 1e-3);
            for (NumberAxis y : ourAxes) {
                y.setRange(withZero.getLowerBound() - (withZero.getLowerBound() < 0 ? pad : 0),
                        withZero.getUpperBound() + pad);
            }
        }
        plot.setFixedLegendItems(legend);
        JFreeChart chart = new JFreeChart("Latency added by the mesh", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        ChartStyle.apply(chart, "Cell minus <graph>/<scale>/none/none of the same data plane, open loop at "
                + fraction(model) + " of MaxQPS; one run per cell, so no interval. Data planes share a scale; the "
                + "gist has its own");
        return chart;
    }

    /** The name a page uses for a data plane or the gist. */
    static String sourceName(String source) {
        return AddedLatency.GIST.equals(source) ? GIST_SERIES : source;
    }

    /** "75 %", or the fractions the passed cells used when they differ. */
    static String fraction(LatencyReportModel model) {
        List<String> f = model.loaded().passed().stream()
                .map(c -> Numbers.plain(100 * c.results().loadFraction(), 1) + " %").distinct().sorted().toList();
        return f.isEmpty() ? "75 %" : String.join(" or ", f);
    }
}
