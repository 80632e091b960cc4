package dev.meshbench.results.stats;

/**
 * Two-sided 95% quantiles of Student's t distribution, {@code t(0.975, df)}: the published table for 1..30 degrees
 * of freedom (3 decimals), linear interpolation in {@code 1/df} beyond 30 (between 30, 40, 60, 120 and infinity, the
 * standard table's rows; error under 0.001), and fractional degrees of freedom (Welch) interpolated the same way.
 */
public final class StudentT {
    private static final double[] TABLE = {Double.NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
            2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
            2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    private static final double[][] TAIL = {{30, 2.042}, {40, 2.021}, {60, 2.000}, {120, 1.980}, {Double.POSITIVE_INFINITY, 1.960}};

    private StudentT() {
    }

    /** {@code t(0.975, df)} for {@code df >= 1}. */
    public static double quantile975(double df) {
        if (!(df >= 1)) {
            throw new IllegalArgumentException("degrees of freedom (" + df + ") must be at least 1");
        }
        if (df <= 30) {
            int lo = (int) Math.floor(df);
            if (lo == df) {
                return TABLE[lo];
            }
            // between two whole degrees of freedom: linear in 1/df, as tables are read
            return interpolate(lo, TABLE[lo], lo + 1, TABLE[lo + 1], df);
        }
        for (int i = 1; i < TAIL.length; i++) {
            if (df <= TAIL[i][0]) {
                return interpolate(TAIL[i - 1][0], TAIL[i - 1][1], TAIL[i][0], TAIL[i][1], df);
            }
        }
        return 1.960;
    }

    private static double interpolate(double df1, double t1, double df2, double t2, double df) {
        double x1 = 1 / df1;
        double x2 = Double.isInfinite(df2) ? 0 : 1 / df2;
        double x = 1 / df;
        return t1 + (t2 - t1) * (x - x1) / (x2 - x1);
    }
}
