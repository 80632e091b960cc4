package dev.meshbench.results.stats;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The quantiles of Student's t distribution the kit's intervals and sample sizes use, from Apache Commons
 * Statistics' {@link TDistribution}, which takes the fractional degrees of freedom of Welch's test. This class only
 * names the two quantiles and checks the input: {@code t(0.975, df)} for two-sided 95% intervals (12.706 for 1,
 * 4.303 for 2, 2.228 for 10, 1.960 for infinity) and {@code t(0.8, df)} for 80% power.
 */
public final class StudentT {
    /** {@code z(0.975)}, the normal quantile: the limit for infinite degrees of freedom. */
    static final double Z_975 = 1.959963984540054;
    /** {@code z(0.8)}, the normal quantile for 80% power. */
    static final double Z_80 = 0.8416212335729143;

    private StudentT() {
    }

    /**
     * {@code t(0.975, df)}: the half-width of a two-sided 95% interval in standard errors.
     *
     * @param df degrees of freedom, at least 1 (two repeats), fractional allowed, {@code +Infinity} gives 1.959964
     */
    public static double quantile975(double df) {
        return quantile(0.975, Z_975, df);
    }

    /**
     * {@code t(0.8, df)}: the quantile for 80% power in a sample-size calculation; 1.376 for 1 degree of freedom,
     * 1.061 for 2, 0.879 for 10, 0.842 for infinity.
     *
     * @param df degrees of freedom, at least 1, fractional allowed
     */
    public static double quantile80(double df) {
        return quantile(0.8, Z_80, df);
    }

    private static double quantile(double p, double z, double df) {
        if (!(df >= 1)) {
            throw new IllegalArgumentException("degrees of freedom (" + df + ") must be at least 1 (two repeats)");
        }
        return Double.isInfinite(df) ? z : TDistribution.of(df).inverseCumulativeProbability(p);
    }
}
