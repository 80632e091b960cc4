package dev.meshbench.results.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * The mean of paired differences, {@code candidate[i] - baseline[i]} for each pair (a case's run against bypass's run
 * of the same round of the same sitting), with its two-sided 95% confidence interval by Student's t on the
 * {@code n - 1} degrees of freedom of the differences: {@code mean(d) ± t(0.975, n-1) · s_d / √n}, where {@code s_d} is
 * the sample standard deviation of the differences. What the two runs of a pair share (the machine's state at that
 * time, the warm application of the round) cancels in each difference, so the interval is that of the difference
 * itself; {@link MeanDifference} (Welch) treats the runs as independent and counts what they share as noise. One pair
 * has a difference and no interval, never a made-up one.
 *
 * @param name      what the values are, for messages, e.g. {@code "sni - bypass: P99"}
 * @param baseline  the baseline's value of each pair, finite
 * @param candidate the candidate's value of each pair, in the same order, finite; as many as {@code baseline}
 */
public record PairedDifference(String name, List<Double> baseline, List<Double> candidate) {
    public PairedDifference {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name (" + (name == null ? "null" : "\"" + name + "\"")
                    + ") must not be blank: it names the pairs in messages");
        }
        if (baseline == null || candidate == null) {
            throw new IllegalArgumentException(name + ": the " + (baseline == null ? "baseline" : "candidate")
                    + " values are missing");
        }
        if (baseline.size() != candidate.size()) {
            throw new IllegalArgumentException(name + ": " + baseline.size() + " baseline values but " + candidate.size()
                    + " candidate values; each pair needs one of each");
        }
        if (baseline.isEmpty()) {
            throw new IllegalArgumentException(name + ": no pairs; a difference needs at least one");
        }
        check(name, "baseline", baseline);
        check(name, "candidate", candidate);
        baseline = List.copyOf(baseline);
        candidate = List.copyOf(candidate);
    }

    private static void check(String name, String side, List<Double> values) {
        for (int i = 0; i < values.size(); i++) {
            Double v = values.get(i);
            if (v == null || !Double.isFinite(v)) {
                throw new IllegalArgumentException(name + ": " + side + " value of pair " + (i + 1) + " of " + values.size()
                        + " (" + v + ") must be a finite number");
            }
        }
    }

    /** The number of pairs. */
    public int n() {
        return baseline.size();
    }

    /** {@code candidate[i] - baseline[i]}, in pair order. */
    public List<Double> differences() {
        List<Double> d = new ArrayList<>(n());
        for (int i = 0; i < n(); i++) {
            d.add(candidate.get(i) - baseline.get(i));
        }
        return d;
    }

    /** The mean of the baseline's values. */
    public double baselineMean() {
        return baseline.stream().mapToDouble(Double::doubleValue).sum() / n();
    }

    /** The mean difference, which is also {@code mean(candidate) - mean(baseline)}. */
    public double estimate() {
        return differences().stream().mapToDouble(Double::doubleValue).sum() / n();
    }

    /** The sample standard deviation of the differences (divisor {@code n - 1}); NaN for one pair. */
    public double standardDeviation() {
        if (n() < 2) {
            return Double.NaN;
        }
        double m = estimate();
        return Math.sqrt(differences().stream().mapToDouble(v -> (v - m) * (v - m)).sum() / (n() - 1));
    }

    /**
     * The mean difference with its 95% interval, {@code t(0.975, n-1) · s_d / √n}; for one pair the difference alone
     * ({@link Interval#isKnown()} false).
     */
    public Interval interval() {
        if (n() < 2) {
            return Interval.unknown(estimate());
        }
        return new Interval(estimate(), StudentT.quantile975(n() - 1) * standardDeviation() / Math.sqrt(n()));
    }

    /**
     * The mean difference and its interval in percent of {@code reference} (points of it), e.g. a change of
     * MongoDB-path CPU in percent of bypass's mesh CPU per transaction; the reference is taken as exact.
     *
     * @param reference a positive figure in the difference's unit
     */
    public Interval inPercentOf(double reference) {
        if (!(reference > 0) || Double.isInfinite(reference)) {
            throw new IllegalArgumentException(name + ": reference (" + reference + ") must be a finite number > 0");
        }
        Interval d = interval();
        double scale = 100 / reference;
        return d.isKnown() ? new Interval(d.estimate() * scale, d.halfWidth() * scale)
                : Interval.unknown(d.estimate() * scale);
    }

    /** {@link Comparison.Verdict#SIGNIFICANT} when the interval excludes 0, and so on. */
    public Comparison.Verdict verdict() {
        Interval d = interval();
        if (!d.isKnown()) {
            return Comparison.Verdict.UNKNOWN;
        }
        return d.contains(0) ? Comparison.Verdict.WITHIN_NOISE : Comparison.Verdict.SIGNIFICANT;
    }
}
