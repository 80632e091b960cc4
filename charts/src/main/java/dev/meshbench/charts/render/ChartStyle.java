package dev.meshbench.charts.render;

import dev.meshbench.model.CaseIds;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Polygon;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.util.Map;
import java.util.Set;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;

/**
 * The look shared by every chart: one color per case everywhere (the first data plane in its plain color, the
 * next ones darker or lighter, and dashed lines), white plot, light grid, locale-free numbers.
 */
public final class ChartStyle {
    /** Width of every PNG, pixels. */
    public static final int WIDTH = 1000;
    /** Height of every PNG, pixels. */
    public static final int HEIGHT = 560;

    /** One color per case of {@link CaseIds#ALL} (ChartStyleTest keeps the two in step); other ids get {@link #OTHER}. */
    private static final Map<String, Color> CASE_COLORS = Map.of(
            CaseIds.BYPASS, new Color(0x1f77b4),
            CaseIds.SIDECAR, new Color(0xff7f0e),
            CaseIds.GATEWAY, new Color(0x2ca02c),
            CaseIds.MTLS, new Color(0x9467bd),
            CaseIds.SNI, new Color(0xd62728));
    private static final Color[] OTHER = {new Color(0x8c564b), new Color(0x7f7f7f), new Color(0x17becf)};
    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 20);
    static final Font SUBTITLE = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    static final Font AXIS_LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 15);
    static final Font TICK = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    static final Font LEGEND = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
    static final Font ITEM_LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    private ChartStyle() {
    }

    /** The case ids with a color of their own. */
    static Set<String> coloredCases() {
        return CASE_COLORS.keySet();
    }

    /** The color of a case, the same in every chart. */
    public static Paint caseColor(String caseId) {
        Color c = CASE_COLORS.get(caseId);
        return c != null ? c : OTHER[Math.floorMod(caseId.hashCode(), OTHER.length)];
    }

    /**
     * The color of a case on the report's {@code dataPlaneIndex}-th data plane (0: the case's color; 1: darker;
     * 2: lighter; then alternating, further from the case's color).
     */
    public static Color seriesColor(String caseId, int dataPlaneIndex) {
        Color c = (Color) caseColor(caseId);
        if (dataPlaneIndex <= 0) {
            return c;
        }
        double amount = Math.min(0.7, 0.4 * ((dataPlaneIndex + 1) / 2));
        Color toward = dataPlaneIndex % 2 == 1 ? Color.BLACK : Color.WHITE;
        return new Color(mix(c.getRed(), toward.getRed(), amount), mix(c.getGreen(), toward.getGreen(), amount),
                mix(c.getBlue(), toward.getBlue(), amount));
    }

    /** The line of the report's {@code dataPlaneIndex}-th data plane: solid, dashed, dotted, dash-dot. */
    static Stroke seriesStroke(int dataPlaneIndex) {
        float[][] dashes = {null, {10f, 6f}, {2.5f, 4f}, {10f, 4f, 2.5f, 4f}};
        float[] dash = dashes[Math.floorMod(dataPlaneIndex, dashes.length)];
        return dash == null ? new BasicStroke(2.5f)
                : new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dash, 0f);
    }

    /** The point shape of the report's {@code dataPlaneIndex}-th data plane: circle, square, diamond, triangle. */
    static Shape seriesShape(int dataPlaneIndex) {
        return switch (Math.floorMod(dataPlaneIndex, 4)) {
            case 0 -> new Ellipse2D.Double(-4, -4, 8, 8);
            case 1 -> new Rectangle2D.Double(-4, -4, 8, 8);
            case 2 -> new Polygon(new int[] {0, 5, 0, -5}, new int[] {-5, 0, 5, 0}, 4);
            default -> new Polygon(new int[] {0, 5, -5}, new int[] {-5, 4, 4}, 3);
        };
    }

    private static int mix(int from, int to, double amount) {
        return (int) Math.round(from + (to - from) * amount);
    }

    /**
     * Gives {@code chart} the report's look: fonts, white plot, light grid, legend at the bottom, locale-free axis
     * numbers, and {@code subtitle} (if not {@code null}) under the title. The subplots of a
     * {@link CombinedDomainCategoryPlot} are styled each.
     */
    public static void apply(JFreeChart chart, String subtitle) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getTitle().setFont(TITLE);
        chart.setPadding(new RectangleInsets(6, 6, 6, 12));
        if (subtitle != null) {
            TextTitle t = new TextTitle(subtitle, SUBTITLE);
            t.setPaint(Color.DARK_GRAY);
            chart.addSubtitle(t);
        }
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setItemFont(LEGEND);
            legend.setPosition(RectangleEdge.BOTTOM);
            legend.setFrame(org.jfree.chart.block.BlockBorder.NONE);
        }
        if (chart.getPlot() instanceof XYPlot p) {
            p.setBackgroundPaint(Color.WHITE);
            p.setDomainGridlinePaint(new Color(0xdddddd));
            p.setRangeGridlinePaint(new Color(0xdddddd));
            p.setOutlineVisible(false);
            style((NumberAxis) p.getDomainAxis());
            style((NumberAxis) p.getRangeAxis());
        } else if (chart.getPlot() instanceof CategoryPlot p) {
            style(p);
            if (p instanceof CombinedDomainCategoryPlot combined) {
                for (Object sub : combined.getSubplots()) {
                    style((CategoryPlot) sub);
                }
            }
        }
    }

    private static void style(CategoryPlot p) {
        p.setBackgroundPaint(Color.WHITE);
        p.setRangeGridlinePaint(new Color(0xdddddd));
        p.setRangeGridlineStroke(new BasicStroke(1f));
        p.setOutlineVisible(false);
        if (p.getDomainAxis() != null) {
            p.getDomainAxis().setLabelFont(AXIS_LABEL);
            p.getDomainAxis().setTickLabelFont(TICK);
        }
        if (p.getRangeAxis() != null) {
            style((NumberAxis) p.getRangeAxis());
        }
    }

    private static void style(NumberAxis axis) {
        axis.setLabelFont(AXIS_LABEL);
        axis.setTickLabelFont(TICK);
        axis.setNumberFormatOverride(Numbers.axisFormat(2));
    }
}
