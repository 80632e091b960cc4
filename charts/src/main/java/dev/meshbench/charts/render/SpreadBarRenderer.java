package dev.meshbench.charts.render;

import dev.meshbench.charts.model.Spread;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRendererState;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.Range;
import org.jfree.data.category.CategoryDataset;

/**
 * Flat vertical bars (the mean over runs) with a black min-max whisker where repeats of a case disagree.
 * Reads the whiskers from a {@link SpreadCategoryDataset}.
 */
public class SpreadBarRenderer extends BarRenderer {
    private static final long serialVersionUID = 1L;

    public SpreadBarRenderer() {
        setBarPainter(new StandardBarPainter());
        setShadowVisible(false);
        setDrawBarOutline(false);
        setItemMargin(0.06);
    }

    @Override
    public void drawItem(Graphics2D g2, CategoryItemRendererState state, Rectangle2D dataArea, CategoryPlot plot,
            CategoryAxis domainAxis, ValueAxis rangeAxis, CategoryDataset dataset, int row, int column, int pass) {
        super.drawItem(g2, state, dataArea, plot, domainAxis, rangeAxis, dataset, row, column, pass);
        if (pass != getPassCount() - 1 || !(dataset instanceof SpreadCategoryDataset spreads)) {
            return;
        }
        Spread s = spreads.getSpread(row, column);
        int visibleRow = state.getVisibleSeriesIndex(row);
        if (s == null || !s.varies() || visibleRow < 0) {
            return;
        }
        double w0 = calculateBarW0(plot, plot.getOrientation(), dataArea, domainAxis, state, visibleRow, column);
        double x = w0 + state.getBarWidth() / 2;
        double cap = Math.max(3, state.getBarWidth() / 4);
        double low = rangeAxis.valueToJava2D(s.min(), dataArea, plot.getRangeAxisEdge());
        double high = rangeAxis.valueToJava2D(s.max(), dataArea, plot.getRangeAxisEdge());
        g2.setPaint(Color.BLACK);
        g2.setStroke(new BasicStroke(1.5f));
        g2.draw(new Line2D.Double(x, low, x, high));
        g2.draw(new Line2D.Double(x - cap, low, x + cap, low));
        g2.draw(new Line2D.Double(x - cap, high, x + cap, high));
    }

    @Override
    public Range findRangeBounds(CategoryDataset dataset) {
        Range r = super.findRangeBounds(dataset);
        if (dataset instanceof SpreadCategoryDataset spreads && r != null) {
            return Range.expandToInclude(r, spreads.highest());
        }
        return r;
    }
}
