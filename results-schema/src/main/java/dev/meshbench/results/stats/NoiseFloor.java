package dev.meshbench.results.stats;

import java.util.Collection;

/**
 * How much figures that should not differ between repeats moved, pooled over several such figures, and what that
 * noise lets a sitting tell apart. Each figure's repeats are a {@link Sample}; its spread is taken relative to its own
 * mean ({@code sᵢ / mᵢ}), so figures of different sizes pool. All figures here are relative: fractions of a figure's
 * own mean (0.05 is 5%).
 *
 * @param relativeSd       the pooled relative standard deviation
 *                         {@code s = √(Σ (nᵢ - 1) (sᵢ/mᵢ)² / Σ (nᵢ - 1))} over the samples with two or more repeats
 *                         and a mean above 0
 * @param degreesOfFreedom {@code Σ (nᵢ - 1)}
 * @param samples          how many samples were pooled
 */
public record NoiseFloor(double relativeSd, int degreesOfFreedom, int samples) {
    public NoiseFloor {
        if (!(relativeSd >= 0) || Double.isInfinite(relativeSd)) {
            throw new IllegalArgumentException("relativeSd (" + relativeSd + ") must be a finite number >= 0");
        }
        if (degreesOfFreedom < 1 || samples < 1) {
            throw new IllegalArgumentException("a noise floor needs at least one sample with two repeats (degrees of "
                    + "freedom " + degreesOfFreedom + ", samples " + samples + ")");
        }
    }

    /**
     * The noise pooled over {@code figures}; {@code null} when none has two repeats and a mean above 0 (one repeat
     * shows no noise).
     */
    public static NoiseFloor pooled(Collection<Sample> figures) {
        double sum = 0;
        int df = 0;
        int used = 0;
        for (Sample s : figures) {
            if (s.n() < 2 || s.mean() <= 0) {
                continue;
            }
            sum += (s.n() - 1) * s.variance() / (s.mean() * s.mean());
            df += s.n() - 1;
            used++;
        }
        return df == 0 ? null : new NoiseFloor(Math.sqrt(sum / df), df, used);
    }

    /**
     * The smallest relative difference between two means of {@code repeats} runs each that a 95% interval tells from
     * 0 when the noise is {@link #relativeSd()}: {@code t(0.975, 2(n - 1)) · s · √(2/n)}, the half-width of the
     * difference's interval by Welch's t with equal spreads and equal repeats (then its degrees of freedom are
     * {@code 2(n - 1)}). A true difference of this size is seen beyond noise about half the time; for 80% of the
     * time see {@link #repeatsFor}.
     *
     * @param repeats runs of each of the two compared figures, at least 2 (with one there is no interval)
     */
    public double detectableDifference(int repeats) {
        if (repeats < 2) {
            throw new IllegalArgumentException("repeats (" + repeats + ") must be at least 2: one run gives no interval");
        }
        return StudentT.quantile975(2.0 * (repeats - 1)) * relativeSd * Math.sqrt(2.0 / repeats);
    }

    /**
     * The repeats of each of two figures needed to see a true relative difference {@code d} beyond noise (two-sided
     * 95%) with 80% power: the smallest {@code n >= 2} with {@code n >= 2 (t(0.975, 2(n-1)) + t(0.8, 2(n-1)))² s²/d²},
     * the textbook {@code n = 2 (z(0.975) + z(0.8))² s² / d²} ({@link #normalRepeatsFor}) with the t quantiles of the
     * comparison's {@code 2(n - 1)} degrees of freedom in place of the normal ones, which a sitting's few repeats
     * need: at {@code s = 5%}, {@code d = 10%} the normal formula says 4 repeats, which see the difference about two
     * times in three, and this says 6.
     *
     * @param relativeDifference {@code d}, a fraction above 0 (0.10 for 10%)
     */
    public int repeatsFor(double relativeDifference) {
        checkDifference(relativeDifference);
        double ratio = relativeSd * relativeSd / (relativeDifference * relativeDifference);
        for (int n = 2; ; n++) {
            double df = 2.0 * (n - 1);
            double t = StudentT.quantile975(df) + StudentT.quantile80(df);
            if (n >= 2 * t * t * ratio - 1e-9) {
                return n;
            }
        }
    }

    /**
     * {@code n = 2 (z(0.975) + z(0.8))² s² / d²}, rounded up and at least 2 (an interval needs two): the normal
     * approximation of {@link #repeatsFor}, too few when {@code n} is small. The bound on rounding up ({@code 1e-9})
     * keeps a product that lands a hair above a whole number from asking a repeat more.
     *
     * @param relativeDifference {@code d}, a fraction above 0 (0.10 for 10%)
     */
    public int normalRepeatsFor(double relativeDifference) {
        checkDifference(relativeDifference);
        double z = StudentT.Z_975 + StudentT.Z_80;
        double n = 2 * z * z * relativeSd * relativeSd / (relativeDifference * relativeDifference);
        return (int) Math.max(2, Math.ceil(n - 1e-9));
    }

    /** {@link #repeatsFor} for a noise of {@code relativeSd}, e.g. one assumed before any repeat measured it. */
    public static int repeatsFor(double relativeSd, double relativeDifference) {
        return new NoiseFloor(relativeSd, 1, 1).repeatsFor(relativeDifference);
    }

    private static void checkDifference(double d) {
        if (!(d > 0) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("relativeDifference (" + d + ") must be a finite number > 0");
        }
    }
}
