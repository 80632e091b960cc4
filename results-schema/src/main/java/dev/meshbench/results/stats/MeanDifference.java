package dev.meshbench.results.stats;

/**
 * The difference of two means, {@code candidate - baseline}, with its two-sided 95% confidence interval by Welch's t
 * (unequal variances, Welch–Satterthwaite degrees of freedom), in the figure's own unit. Unlike {@link Comparison}
 * it needs no baseline mean other than 0, so it also compares a figure that the baseline does not have at all (the
 * egress gateway's CPU against bypass, which has none: every repeat 0).
 *
 * @param baseline  the baseline's repeats
 * @param candidate the compared repeats
 */
public record MeanDifference(Sample baseline, Sample candidate) {
    public MeanDifference {
        if (baseline == null) {
            throw new IllegalArgumentException("baseline is missing");
        }
        if (candidate == null) {
            throw new IllegalArgumentException("candidate is missing");
        }
    }

    /** {@code candidate mean - baseline mean}. */
    public double estimate() {
        return candidate.mean() - baseline.mean();
    }

    /**
     * The Welch–Satterthwaite degrees of freedom, {@code (a + b)² / (a²/(n₁-1) + b²/(n₂-1))} with
     * {@code a = s₁²/n₁}, {@code b = s₂²/n₂}; between {@code min(n₁, n₂) - 1} and {@code n₁ + n₂ - 2}. NaN
     * without two repeats on each side; infinite when both sides have no spread at all (the half-width is 0 then).
     */
    public double degreesOfFreedom() {
        if (baseline.n() < 2 || candidate.n() < 2) {
            return Double.NaN;
        }
        double a = baseline.variance() / baseline.n();
        double b = candidate.variance() / candidate.n();
        if (a + b == 0) {
            return Double.POSITIVE_INFINITY;
        }
        return (a + b) * (a + b) / (a * a / (baseline.n() - 1) + b * b / (candidate.n() - 1));
    }

    /**
     * The difference with its 95% interval, {@code t(0.975, df) · √(s₁²/n₁ + s₂²/n₂)}; unknown without two repeats
     * on each side.
     */
    public Interval interval() {
        double df = degreesOfFreedom();
        if (Double.isNaN(df)) {
            return Interval.unknown(estimate());
        }
        double se = Math.sqrt(baseline.variance() / baseline.n() + candidate.variance() / candidate.n());
        return new Interval(estimate(), se == 0 ? 0 : StudentT.quantile975(df) * se);
    }

    /**
     * The difference and its interval in percent of {@code reference} (points of it when {@code reference} is not
     * the baseline's own mean), e.g. a change of MongoDB-path CPU in percent of bypass's mesh CPU; the reference is
     * taken as exact.
     *
     * @param reference a positive figure in the difference's unit
     */
    public Interval inPercentOf(double reference) {
        if (!(reference > 0) || Double.isInfinite(reference)) {
            throw new IllegalArgumentException("reference (" + reference + ") must be a finite number > 0");
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
