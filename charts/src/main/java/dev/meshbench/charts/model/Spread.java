package dev.meshbench.charts.model;

import dev.meshbench.results.stats.Interval;
import dev.meshbench.results.stats.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Collection;

/**
 * One figure measured by one or more runs of a case: the mean over runs, and the smallest and largest run.
 * With repeats the charts draw the mean and a min-max bar; with one run the three are equal.
 *
 * @param mean mean over the runs
 * @param min  smallest run
 * @param max  largest run
 * @param n    how many runs had this figure
 * @param halfWidth95 half-width of the mean's 95% confidence interval (Student's t over the runs, the runs as
 *                    independent repeats); {@code null} with fewer than two runs
 */
public record Spread(double mean, double min, double max, int n, Double halfWidth95) {
    /** Without an interval (one run, or not computed). */
    public Spread(double mean, double min, double max, int n) {
        this(mean, min, max, n, null);
    }

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
        Double half = null;
        if (n > 1 && min >= 0) { // the interval of quantities that cannot be negative (tx/s, ms, CPU)
            List<Double> all = new ArrayList<>();
            for (Number v : values) {
                if (v != null) {
                    all.add(v.doubleValue());
                }
            }
            Interval i = new Sample(all).meanInterval();
            half = i.isKnown() ? i.halfWidth() : null;
        }
        return new Spread(mean, min, max, n, half);
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
