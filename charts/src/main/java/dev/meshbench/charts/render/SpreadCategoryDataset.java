package dev.meshbench.charts.render;

import dev.meshbench.charts.model.Spread;
import java.util.HashMap;
import java.util.Map;
import org.jfree.data.category.DefaultCategoryDataset;

/** Bar values (the mean of a {@link Spread}) that also remember each bar's min-max over runs. */
public class SpreadCategoryDataset extends DefaultCategoryDataset {
    private static final long serialVersionUID = 1L;

    private final Map<String, Spread> spreads = new HashMap<>();

    /** Adds a bar of height {@code spread.mean()}. */
    public void add(Spread spread, String row, String column) {
        addValue(spread.mean(), row, column);
        spreads.put(row + "\u0000" + column, spread);
    }

    /** The spread behind a bar, or {@code null}. */
    public Spread getSpread(String row, String column) {
        return spreads.get(row + "\u0000" + column);
    }

    /** The spread behind a bar by index, or {@code null}. */
    public Spread getSpread(int row, int column) {
        return getSpread(getRowKey(row).toString(), getColumnKey(column).toString());
    }

    /** The highest max over all bars, or 0. */
    public double highest() {
        return spreads.values().stream().mapToDouble(Spread::max).max().orElse(0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SpreadCategoryDataset other && super.equals(o) && spreads.equals(other.spreads);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }
}
