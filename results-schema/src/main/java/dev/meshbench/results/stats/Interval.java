package dev.meshbench.results.stats;

/**
 * An estimate with its two-sided 95% confidence interval, {@code estimate ± halfWidth}. The half-width is NaN when
 * there is no interval ({@link #isKnown()} false: one repeat has a mean but no spread to estimate one from); such an
 * interval has no bounds and contains nothing, rather than pretending to be exact.
 *
 * @param estimate  the estimate (a mean, a difference of means, a change in percent), finite
 * @param halfWidth the 95% half-width, a finite number {@code >= 0}, or NaN when unknown
 */
public record Interval(double estimate, double halfWidth) {
    public Interval {
        if (!Double.isFinite(estimate)) {
            throw new IllegalArgumentException("estimate (" + estimate + ") must be a finite number");
        }
        if (!Double.isNaN(halfWidth) && !(halfWidth >= 0 && halfWidth < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("halfWidth (" + halfWidth + ") must be a finite number >= 0, or NaN "
                    + "when there is no interval");
        }
    }

    /** An estimate without an interval. */
    public static Interval unknown(double estimate) {
        return new Interval(estimate, Double.NaN);
    }

    /** Whether there is an interval: false for one repeat. */
    public boolean isKnown() {
        return !Double.isNaN(halfWidth);
    }

    /** {@code estimate - halfWidth}; NaN when unknown. */
    public double lower() {
        return estimate - halfWidth;
    }

    /** {@code estimate + halfWidth}; NaN when unknown. */
    public double upper() {
        return estimate + halfWidth;
    }

    /** Whether {@code value} lies within the bounds (inclusive); false when unknown. */
    public boolean contains(double value) {
        return isKnown() && lower() <= value && value <= upper();
    }

    /** The half-width in percent of the estimate, e.g. 2.3 for {@code 612.3 ± 14.2}; NaN when unknown or 0. */
    public double relativeHalfWidthPercent() {
        return estimate == 0 ? Double.NaN : 100 * halfWidth / Math.abs(estimate);
    }
}
