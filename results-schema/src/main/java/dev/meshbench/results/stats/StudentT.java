package dev.meshbench.results.stats;

/**
 * The quantile {@code t(0.975, df)} of Student's t distribution, which makes two-sided 95% intervals, computed
 * rather than read from a table, so that the fractional degrees of freedom of Welch's test get the exact value too.
 *
 * <p>Method: the two-sided tail of the t distribution is the regularized incomplete beta function,
 * {@code P(|T| > t) = I_x(df/2, 1/2)} with {@code x = df / (df + t²)}; it is evaluated by its continued fraction
 * (modified Lentz, Numerical Recipes §6.4) with a Lanczos log-gamma (g = 7, 9 terms), and the quantile is the
 * {@code t} where that tail is 0.05, found by bisection between 1.96 and 13 ({@link #quantile80}: where it is 0.4,
 * between 0.84 and 13). Beyond {@value #EXPANSION_FROM} degrees
 * of freedom the Cornish–Fisher expansion {@code z + (z³ + z)/(4 df) + (5z⁵ + 16z³ + 3z)/(96 df²)} around the normal
 * quantile {@code z = 1.959964} (0.841621 for {@link #quantile80}) takes over (its next term is below 1e-14 there).
 *
 * <p>Accuracy: within 1e-9 of the exact quantile for whole and fractional degrees of freedom (the tests compare
 * with values computed to 30 digits), so it matches the published table to its 3 decimals: 12.706 for 1, 4.303
 * for 2, 2.776 for 4, 2.228 for 10, 2.042 for 30, 1.960 for infinity.
 */
public final class StudentT {
    /** {@code z(0.975)}, the normal quantile: the limit for infinite degrees of freedom. */
    static final double Z_975 = 1.959963984540054;
    /** {@code z(0.8)}, the normal quantile for 80% power. */
    static final double Z_80 = 0.8416212335729143;
    static final double EXPANSION_FROM = 1e5;

    private static final double[] LANCZOS = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
            771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
            9.9843695780195716e-6, 1.5056327351493116e-7};
    private static final int MAX_ITERATIONS = 10_000;

    private StudentT() {
    }

    /**
     * {@code t(0.975, df)}: the half-width of a two-sided 95% interval in standard errors.
     *
     * @param df degrees of freedom, at least 1 (two repeats), fractional allowed, {@code +Infinity} gives 1.959964
     */
    public static double quantile975(double df) {
        return quantile(0.05, Z_975, df);
    }

    /**
     * {@code t(0.8, df)}: the quantile for 80% power in a sample-size calculation, by the same method (its two-sided
     * tail is 0.4); 1.376 for 1 degree of freedom, 1.061 for 2, 0.879 for 10, 0.842 for infinity.
     *
     * @param df degrees of freedom, at least 1, fractional allowed
     */
    public static double quantile80(double df) {
        return quantile(0.4, Z_80, df);
    }

    /** The {@code t} whose two-sided tail is {@code tail}; {@code z} is the normal quantile, the limit. */
    private static double quantile(double tail, double z, double df) {
        if (!(df >= 1)) {
            throw new IllegalArgumentException("degrees of freedom (" + df + ") must be at least 1 (two repeats)");
        }
        if (df >= EXPANSION_FROM) {
            double z3 = z * z * z;
            return z + (z3 + z) / (4 * df) + (5 * z3 * z * z + 16 * z3 + 3 * z) / (96 * df * df);
        }
        // the tail falls as t grows; the quantile lies between the normal one and t(0.975, 1) = 12.706, the largest asked
        double lo = z;
        double hi = 13;
        while (hi - lo > 1e-12) {
            double mid = (lo + hi) / 2;
            if (twoSidedTail(mid, df) > tail) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** {@code P(|T| > t)} for {@code t >= 0} and {@code df} degrees of freedom. */
    static double twoSidedTail(double t, double df) {
        return regularizedBeta(df / (df + t * t), df / 2, 0.5);
    }

    /** {@code I_x(a, b)}, the regularized incomplete beta function, for {@code 0 <= x <= 1}, {@code a, b >= 0.5}. */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b));
        // the continued fraction converges fast below (a + 1) / (a + b + 2); above, use I_x(a, b) = 1 - I_(1-x)(b, a)
        return x < (a + 1) / (a + b + 2)
                ? front * continuedFraction(x, a, b) / a
                : 1 - front * continuedFraction(1 - x, b, a) / b;
    }

    private static double continuedFraction(double x, double a, double b) {
        double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        double h = d;
        for (int m = 1; m <= MAX_ITERATIONS; m++) {
            int m2 = 2 * m;
            double even = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
            d = 1 + even * d;
            d = 1 / (Math.abs(d) < tiny ? tiny : d);
            c = 1 + even / c;
            c = Math.abs(c) < tiny ? tiny : c;
            h *= d * c;
            double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
            d = 1 + odd * d;
            d = 1 / (Math.abs(d) < tiny ? tiny : d);
            c = 1 + odd / c;
            c = Math.abs(c) < tiny ? tiny : c;
            double step = d * c;
            h *= step;
            if (Math.abs(step - 1) < 1e-15) {
                return h;
            }
        }
        throw new IllegalStateException("incomplete beta I_" + x + "(" + a + ", " + b + ") did not converge in "
                + MAX_ITERATIONS + " iterations");
    }

    private static double logBeta(double a, double b) {
        return logGamma(a) + logGamma(b) - logGamma(a + b);
    }

    /** {@code ln Γ(x)} for {@code x >= 0.5}, Lanczos (g = 7): relative error about 1e-15. */
    private static double logGamma(double x) {
        double y = x - 1;
        double sum = LANCZOS[0];
        for (int i = 1; i < LANCZOS.length; i++) {
            sum += LANCZOS[i] / (y + i);
        }
        double t = y + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
