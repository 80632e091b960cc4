package dev.meshbench.results.stats;

/**
 * A candidate's repeats against the baseline's (a case against {@code bypass}, or a run against a baseline run): the
 * change of the means, a two-sided 95% confidence interval of the difference by Welch's t (unequal variances,
 * Welch–Satterthwaite degrees of freedom), and whether the change is beyond noise.
 *
 * <p>The interval of the relative change is the difference's interval divided by the baseline mean. That is an
 * approximation: it treats the baseline mean as exact and ignores its uncertainty in the denominator (Fieller's
 * theorem gives a ratio's exact interval, which is not symmetric and is wider when the baseline is noisy). It is
 * close when the baseline mean's relative half-width is small, a few percent, and too narrow when it is not.
 *
 * @param baseline  the baseline's repeats; their mean must not be 0
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
        if (baseline == null) {
            throw new IllegalArgumentException("baseline is missing");
        }
        if (candidate == null) {
            throw new IllegalArgumentException("candidate is missing");
        }
        if (baseline.mean() == 0) {
            throw new IllegalArgumentException(baseline.name() + ": the mean is 0, so a change relative to it is "
                    + "undefined");
        }
    }

    /** {@code candidate mean - baseline mean}. */
    public double difference() {
        return candidate.mean() - baseline.mean();
    }

    /** The relative change of the means, {@code (candidate - baseline) / baseline}, in percent. */
    public double changePercent() {
        return 100 * difference() / baseline.mean();
    }

    /** The Welch–Satterthwaite degrees of freedom ({@link MeanDifference#degreesOfFreedom()}). */
    public double degreesOfFreedom() {
        return absolute().degreesOfFreedom();
    }

    /**
     * The difference of the means with its 95% interval by Welch's t,
     * {@code t(0.975, df) · √(s₁²/n₁ + s₂²/n₂)}; unknown without two repeats on each side.
     */
    public Interval differenceInterval() {
        return absolute().interval();
    }

    /**
     * The relative change in percent with its approximate 95% interval: the difference's interval divided by the
     * baseline mean (see above); unknown without two repeats on each side.
     */
    public Interval changeInterval() {
        return absolute().inPercentOf(baseline.mean());
    }

    /** The half-width of {@link #changeInterval()}, percent; NaN without two repeats on each side. */
    public double changeHalfWidthPercent() {
        return changeInterval().halfWidth();
    }

    /** {@link Verdict#SIGNIFICANT} when the difference's interval excludes 0, and so on. */
    public Verdict verdict() {
        return absolute().verdict();
    }

    /** The difference in the figure's own unit. */
    public MeanDifference absolute() {
        return new MeanDifference(baseline, candidate);
    }
}
