package dev.meshbench.charts.model;

import java.util.Collection;

/**
 * One figure measured by one or more runs of a case: the mean over runs, and the smallest and largest run.
 * With repeats the charts draw the mean and a min-max bar; with one run the three are equal.
 *
 * @param mean mean over the runs
 * @param min  smallest run
 * @param max  largest run
 * @param n    how many runs had this figure
 */
public record Spread(double mean, double min, double max, int n) {
    public Spread {
        if (n < 1 || min > mean || mean > max) {
            throw new IllegalArgumentException("spread needs n >= 1 and min <= mean <= max, got n=" + n + ", min="
                    + min + ", mean=" + mean + ", max=" + max);
        }
    }

    /** The spread of the non-null values, or {@code null} when there are none. */
    public static Spread of(Collection<? extends Number> values) {
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        int n = 0;
        for (Number v : values) {
            if (v == null) {
                continue;
            }
            double d = v.doubleValue();
            sum += d;
            min = Math.min(min, d);
            max = Math.max(max, d);
            n++;
        }
        if (n == 0) {
            return null;
        }
        double mean = Math.min(max, Math.max(min, sum / n));
        return new Spread(mean, min, max, n);
    }

    /** True when the runs disagree (more than one run and min differs from max). */
    public boolean varies() {
        return n > 1 && min != max;
    }

    /** Relative change of this mean against {@code base}'s, in percent; {@code null} when undefined. */
    public Double changeAgainst(Spread base) {
        if (base == null || base.mean == 0) {
            return null;
        }
        return (mean - base.mean) / base.mean * 100;
    }
}
