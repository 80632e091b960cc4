package dev.meshbench.results.stats;

/**
 * A case's figure against the baseline's (bypass, or a baseline run): the change of the means, a 95% confidence
 * interval of the difference by Welch's t (unequal variances, Welch–Satterthwaite degrees of freedom), and whether
 * the change is beyond noise. The interval of the relative change is the difference's interval divided by the
 * baseline mean, an approximation that ignores the baseline mean's own uncertainty in the denominator.
 *
 * @param baseline  the baseline's repeats
 * @param candidate the compared repeats
 */
public record Comparison(Sample baseline, Sample candidate) {
    /** Whether a change is beyond noise. */
    public enum Verdict {
        /** The 95% interval of the difference excludes 0. */
        SIGNIFICANT,
        /** The 95% interval of the difference includes 0. */
        WITHIN_NOISE,
        /** Fewer than two repeats on a side: no interval, so no verdict. */
        UNKNOWN
    }

    public Comparison {
        if (baseline == null || candidate == null) {
            throw new IllegalArgumentException("a comparison needs a baseline and a candidate sample");
        }
        if (baseline.mean() == 0) {
            throw new IllegalArgumentException("the baseline's mean is 0: no relative change");
        }
    }

    public double difference() {
        return candidate.mean() - baseline.mean();
    }

    /** {@code (candidate - baseline) / baseline}, percent. */
    public double changePercent() {
        return 100 * difference() / baseline.mean();
    }

    /** Welch–Satterthwaite degrees of freedom; NaN without two repeats on each side. */
    public double degreesOfFreedom() {
        if (!baseline.intervalKnown() || !candidate.intervalKnown()) {
            return Double.NaN;
        }
        double a = baseline.variance() / baseline.n();
        double b = candidate.variance() / candidate.n();
        if (a + b == 0) {
            return Double.POSITIVE_INFINITY;
        }
        return (a + b) * (a + b) / (a * a / (baseline.n() - 1) + b * b / (candidate.n() - 1));
    }

    /** Half-width of the 95% interval of the difference; NaN without two repeats on each side. */
    public double differenceHalfWidth95() {
        double df = degreesOfFreedom();
        if (Double.isNaN(df)) {
            return Double.NaN;
        }
        double se = Math.sqrt(baseline.variance() / baseline.n() + candidate.variance() / candidate.n());
        return se == 0 ? 0 : StudentT.quantile975(Math.max(1, df)) * se;
    }

    /** Half-width of the relative change's interval, percent (the approximation above). */
    public double changeHalfWidthPercent() {
        return 100 * differenceHalfWidth95() / Math.abs(baseline.mean());
    }

    public Verdict verdict() {
        double h = differenceHalfWidth95();
        if (Double.isNaN(h)) {
            return Verdict.UNKNOWN;
        }
        return Math.abs(difference()) > h ? Verdict.SIGNIFICANT : Verdict.WITHIN_NOISE;
    }
}
