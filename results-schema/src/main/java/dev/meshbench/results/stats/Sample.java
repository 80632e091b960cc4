package dev.meshbench.results.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The repeats of one figure (one case, one step, one metric: throughput, a latency percentile, CPU per
 * transaction), and their mean with a two-sided 95% confidence interval by Student's t with {@code n - 1} degrees
 * of freedom: {@code mean ± t(0.975, n-1) · s / √n}, where {@code s} is the sample standard deviation. One repeat
 * has a mean and no interval, never a made-up one.
 *
 * @param name   what the values are, for messages, e.g. {@code "baseline sni @20 clients: throughput"}
 * @param values the repeats, each a finite number {@code >= 0} (every figure measured is)
 */
public record Sample(String name, List<Double> values) {
    public Sample {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name (" + (name == null ? "null" : "\"" + name + "\"")
                    + ") must not be blank: it names the values in messages");
        }
        if (values == null) {
            throw new IllegalArgumentException(name + ": values are missing");
        }
        if (values.isEmpty()) {
            throw new IllegalArgumentException(name + ": no values; a mean needs at least one repeat");
        }
        for (int i = 0; i < values.size(); i++) {
            Double v = values.get(i);
            if (v == null || !(v >= 0) || v.isInfinite()) {
                throw new IllegalArgumentException(name + ": repeat " + (i + 1) + " of " + values.size() + " (" + v
                        + ") must be a finite number >= 0");
            }
        }
        values = List.copyOf(values);
    }

    /** Repeats named {@code "values"} in messages. */
    public Sample(List<Double> values) {
        this("values", values);
    }

    /** The repeats {@code values}, named {@code name} in messages. */
    public static Sample of(String name, double... values) {
        List<Double> boxed = new ArrayList<>();
        Arrays.stream(values).forEach(boxed::add);
        return new Sample(name, boxed);
    }

    /** The number of repeats. */
    public int n() {
        return values.size();
    }

    /** The arithmetic mean. */
    public double mean() {
        return values.stream().mapToDouble(Double::doubleValue).sum() / n();
    }

    /** The sample variance {@code s²} (divisor {@code n - 1}); NaN for one repeat. */
    public double variance() {
        if (n() < 2) {
            return Double.NaN;
        }
        double m = mean();
        return values.stream().mapToDouble(v -> (v - m) * (v - m)).sum() / (n() - 1);
    }

    /** The standard error of the mean, {@code s / √n}; NaN for one repeat. */
    public double standardError() {
        return Math.sqrt(variance() / n());
    }

    /**
     * The mean with its two-sided 95% interval by Student's t, {@code t(0.975, n-1) · s / √n}; for one repeat the
     * mean alone ({@link Interval#isKnown()} false, half-width NaN).
     */
    public Interval meanInterval() {
        return n() < 2 ? Interval.unknown(mean())
                : new Interval(mean(), StudentT.quantile975(n() - 1) * standardError());
    }
}
