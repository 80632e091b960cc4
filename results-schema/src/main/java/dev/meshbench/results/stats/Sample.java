package dev.meshbench.results.stats;

import java.util.List;

/**
 * The repeats of one figure (one case, one step, one metric) and its mean with a two-sided 95% confidence interval
 * by Student's t with {@code n - 1} degrees of freedom: {@code mean ± t(0.975, n-1) · s / √n}. One repeat has a mean
 * and no interval ({@link #intervalKnown()} false), never a made-up one.
 *
 * @param values the repeats, each finite
 */
public record Sample(List<Double> values) {
    public Sample {
        if (values == null || values.isEmpty()) {
            throw new IllegalArgumentException("a sample needs at least one value");
        }
        for (Double v : values) {
            if (v == null || !Double.isFinite(v)) {
                throw new IllegalArgumentException("sample values must be finite numbers, got " + v + " in " + values);
            }
        }
        values = List.copyOf(values);
    }

    public static Sample of(double... values) {
        return new Sample(java.util.Arrays.stream(values).boxed().toList());
    }

    public int n() {
        return values.size();
    }

    public double mean() {
        return values.stream().mapToDouble(Double::doubleValue).sum() / n();
    }

    /** Sample variance (divisor {@code n - 1}); NaN for one value. */
    public double variance() {
        if (n() < 2) {
            return Double.NaN;
        }
        double m = mean();
        return values.stream().mapToDouble(v -> (v - m) * (v - m)).sum() / (n() - 1);
    }

    /** Standard error of the mean, {@code s / √n}; NaN for one value. */
    public double standardError() {
        return Math.sqrt(variance() / n());
    }

    public boolean intervalKnown() {
        return n() >= 2;
    }

    /** Half-width of the 95% interval; NaN for one value. */
    public double halfWidth95() {
        return intervalKnown() ? StudentT.quantile975(n() - 1) * standardError() : Double.NaN;
    }

    /** Half-width as a percent of the mean (NaN for one value or a zero mean). */
    public double relativeHalfWidthPercent() {
        return mean() == 0 ? Double.NaN : 100 * halfWidth95() / Math.abs(mean());
    }
}
