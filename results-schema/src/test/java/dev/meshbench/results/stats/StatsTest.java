package dev.meshbench.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Student's t, the mean's interval and Welch's comparison, on inputs worked out by hand. */
class StatsTest {
    /** t(0.975, df) of the published table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), df 1..30, then 40, 60, 120. */
    private static final double[] TABLE = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
            2.056, 2.052, 2.048, 2.045, 2.042};

    @Test
    @DisplayName("t(0.975, df) rounds to the published table's 3 decimals for df 1..30, 40, 60, 120 and infinity")
    void quantileMatchesTheTable() {
        for (int df = 1; df <= 30; df++) {
            assertEquals(TABLE[df - 1], StudentT.quantile975(df), 0.0005, "df " + df);
        }
        assertEquals(2.021, StudentT.quantile975(40), 0.0005);
        assertEquals(2.000, StudentT.quantile975(60), 0.0005);
        assertEquals(1.980, StudentT.quantile975(120), 0.0005);
        assertEquals(1.960, StudentT.quantile975(Double.POSITIVE_INFINITY), 0.0005);
    }

    @Test
    @DisplayName("t(0.975, df) is exact where a closed form exists: df 1 (Cauchy) and df 2")
    void quantileClosedForms() {
        // df 1 is the Cauchy distribution: P(T <= t) = 1/2 + atan(t)/π, so t(0.975) = tan(0.475 π) = 12.7062047362
        assertEquals(Math.tan(0.475 * Math.PI), StudentT.quantile975(1), 1e-9);
        // df 2: P(|T| > t) = 1 - t / √(2 + t²) = 0.05  =>  t² = 0.9025 (2 + t²)  =>  t² = 1.805 / 0.0975 = 18.5128
        //   t = 4.3026527297
        assertEquals(Math.sqrt(1.805 / 0.0975), StudentT.quantile975(2), 1e-9);
    }

    @Test
    @DisplayName("fractional degrees of freedom (Welch's) get the exact quantile, not a table interpolation")
    void quantileFractional() {
        // reference values computed to 30 digits (mpmath: root of betainc(df/2, 1/2, 0, df/(df+t²)) = 0.05)
        assertEquals(6.016663104, StudentT.quantile975(1.5), 1e-8);  // linear in 1/df between 1 and 2 would say 7.104
        assertEquals(3.574654842, StudentT.quantile975(2.5), 1e-8);  // ... between 2 and 3: 3.630
        assertEquals(9.158857198, StudentT.quantile975(729.0 / 626), 1e-8);
        assertEquals(2.030107928, StudentT.quantile975(35), 1e-8);
        assertEquals(1.962339081, StudentT.quantile975(1000), 1e-8);
        assertEquals(1.959963985, StudentT.quantile975(1e9), 1e-8);  // the normal limit
        assertTrue(StudentT.quantile975(99_999) > StudentT.quantile975(100_000), "falls with more degrees of freedom");
    }

    @Test
    @DisplayName("t(0.8, df) rounds to the published table's 3 decimals, is exact for df 1 and 2, and tends to z(0.8)")
    void quantile80() {
        // df 1 (Cauchy): tan((0.8 - 0.5) π) = 1.3763819; df 2: F(t) = 1/2 + t / (2 √(2 + t²)) = 0.8 gives
        // t² = 0.36 (2 + t²), t² = 0.72 / 0.64 = 1.125
        assertEquals(Math.tan(0.3 * Math.PI), StudentT.quantile80(1), 1e-9);
        assertEquals(Math.sqrt(1.125), StudentT.quantile80(2), 1e-9);
        // the table (NIST/SEMATECH 1.3.6.7.2, column 0.80): df 4, 10, 30
        assertEquals(0.941, StudentT.quantile80(4), 0.0005);
        assertEquals(0.879, StudentT.quantile80(10), 0.0005);
        assertEquals(0.854, StudentT.quantile80(30), 0.0005);
        assertEquals(0.8416212, StudentT.quantile80(1e9), 1e-7);
        assertThrows(IllegalArgumentException.class, () -> StudentT.quantile80(0.5));
    }

    @Test
    @DisplayName("t(0.975, df) refuses fewer than 1 degree of freedom, saying so")
    void quantileRefusesTooFewDegrees() {
        assertEquals("degrees of freedom (0.5) must be at least 1 (two repeats)",
                assertThrows(IllegalArgumentException.class, () -> StudentT.quantile975(0.5)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> StudentT.quantile975(Double.NaN));
    }

    @Test
    @DisplayName("three repeats: mean ± t(0.975, 2) · s/√3")
    void meanOfThreeRepeats() {
        // {100, 104, 96}: mean 300/3 = 100; deviations 0, +4, -4; s² = (0 + 16 + 16) / 2 = 16; s = 4
        // se = 4 / √3 = 2.3094011; t(0.975, 2) = 4.3026527; half-width = 4.3026527 · 2.3094011 = 9.9365508
        Sample s = Sample.of("sni throughput", 100, 104, 96);
        assertEquals(100, s.mean(), 1e-12);
        assertEquals(16, s.variance(), 1e-12);
        assertEquals(2.3094011, s.standardError(), 1e-7);
        Interval i = s.meanInterval();
        assertTrue(i.isKnown());
        assertEquals(100, i.estimate(), 1e-12);
        assertEquals(9.9365508, i.halfWidth(), 1e-6);
        assertEquals(90.0634492, i.lower(), 1e-6);
        assertEquals(109.9365508, i.upper(), 1e-6);
        assertEquals(9.9365508, i.relativeHalfWidthPercent(), 1e-6);  // 9.9365508 / 100, in %
        assertTrue(i.contains(90.1) && !i.contains(90.0));
    }

    @Test
    @DisplayName("two repeats: the interval is wide, t(0.975, 1) = 12.706 standard errors")
    void meanOfTwoRepeats() {
        // {20, 30}: mean 25; s² = (25 + 25) / 1 = 50; se = √(50/2) = 5; half-width = 12.7062047 · 5 = 63.5310237
        Interval i = Sample.of("x", 20, 30).meanInterval();
        assertEquals(25, i.estimate(), 1e-12);
        assertEquals(63.5310237, i.halfWidth(), 1e-6);
        assertEquals(254.1240947, i.relativeHalfWidthPercent(), 1e-6);
    }

    @Test
    @DisplayName("one repeat: a mean and no interval, never a made-up one")
    void meanOfOneRepeat() {
        Sample one = Sample.of("x", 42);
        Interval i = one.meanInterval();
        assertEquals(42, i.estimate());
        assertFalse(i.isKnown());
        assertTrue(Double.isNaN(i.halfWidth()) && Double.isNaN(i.lower()) && Double.isNaN(i.upper()));
        assertTrue(Double.isNaN(i.relativeHalfWidthPercent()));
        assertFalse(i.contains(42), "an unknown interval contains nothing");
        assertTrue(Double.isNaN(one.variance()) && Double.isNaN(one.standardError()));
    }

    @Test
    @DisplayName("refuses NaN, infinite, negative, missing and empty values, naming the sample and the repeat")
    void sampleRefusesBadValues() {
        assertEquals("sni throughput: repeat 2 of 3 (NaN) must be a finite number >= 0", refused(() ->
                Sample.of("sni throughput", 1, Double.NaN, 3)));
        assertEquals("sni throughput: repeat 1 of 1 (-5.0) must be a finite number >= 0", refused(() ->
                Sample.of("sni throughput", -5)));
        assertEquals("sni throughput: repeat 2 of 2 (Infinity) must be a finite number >= 0", refused(() ->
                Sample.of("sni throughput", 1, Double.POSITIVE_INFINITY)));
        assertEquals("sni throughput: repeat 1 of 2 (null) must be a finite number >= 0", refused(() ->
                new Sample("sni throughput", Arrays.asList(null, 1.0))));
        assertEquals("sni throughput: no values; a mean needs at least one repeat", refused(() ->
                Sample.of("sni throughput")));
        assertEquals("sni throughput: values are missing", refused(() -> new Sample("sni throughput", null)));
        assertEquals("name (\" \") must not be blank: it names the values in messages", refused(() ->
                Sample.of(" ", 1)));
        assertEquals("values: no values; a mean needs at least one repeat", refused(() -> new Sample(List.of())));
        assertEquals("halfWidth (-1.0) must be a finite number >= 0, or NaN when there is no interval", refused(() ->
                new Interval(1, -1)));
        assertEquals("estimate (NaN) must be a finite number", refused(() -> Interval.unknown(Double.NaN)));
    }

    @Test
    @DisplayName("Welch: {100, 104, 96} against {90, 92, 88} is -10%, significant, 95% interval -18.3% to -1.7%")
    void welchSignificant() {
        // baseline {100, 104, 96}: mean 100, s² 16, a = s²/n = 16/3 = 5.3333333
        // candidate {90, 92, 88}:  mean 90, deviations 0, +2, -2, s² = 8/2 = 4, b = 4/3 = 1.3333333
        // difference 90 - 100 = -10; change -10 / 100 = -10%
        // se = √(a + b) = √(20/3) = 2.5819889
        // df = (a + b)² / (a²/2 + b²/2) = (400/9) / ((256/9 + 16/9) / 2) = (400/9) / (136/9) = 2.9411765
        //   (between min(n)-1 = 2 and n1+n2-2 = 4)
        // t(0.975, 2.9411765) = 3.2187586; half-width = 3.2187586 · 2.5819889 = 8.3107990
        // interval of the difference: -10 ± 8.3107990 = [-18.3107990, -1.6892010]: excludes 0
        // relative: divided by the baseline mean 100, in %: -10% ± 8.3107990%
        Comparison c = new Comparison(Sample.of("bypass", 100, 104, 96), Sample.of("sni", 90, 92, 88));
        assertEquals(-10, c.difference(), 1e-12);
        assertEquals(-10, c.changePercent(), 1e-12);
        assertEquals(2.9411765, c.degreesOfFreedom(), 1e-7);
        Interval d = c.differenceInterval();
        assertEquals(8.3107990, d.halfWidth(), 1e-6);
        assertEquals(-18.3107990, d.lower(), 1e-6);
        assertEquals(-1.6892010, d.upper(), 1e-6);
        assertEquals(Comparison.Verdict.SIGNIFICANT, c.verdict());
        Interval r = c.changeInterval();
        assertEquals(-10, r.estimate(), 1e-12);
        assertEquals(8.3107990, r.halfWidth(), 1e-6);
        assertEquals(8.3107990, c.changeHalfWidthPercent(), 1e-6);
    }

    @Test
    @DisplayName("Welch: the noisier, smaller side sets the degrees of freedom, so a change that pooled variances "
            + "would call significant is within noise")
    void welchUnequalVariancesAndSizes() {
        // baseline five repeats {700, 702, 698, 704, 696}: mean 700, s² = (0 + 4 + 4 + 16 + 16) / 4 = 10, a = 10/5 = 2
        // candidate two repeats {650, 660}: mean 655, s² = (25 + 25) / 1 = 50, b = 50/2 = 25
        // difference -45, change -6.4285714%; se = √(2 + 25) = √27 = 5.1961524
        // df = 27² / (2²/4 + 25²/1) = 729 / 626 = 1.1645367 (not n1+n2-2 = 5: the candidate's spread dominates)
        // t(0.975, 1.1645367) = 9.1588572; half-width = 9.1588572 · 5.1961524 = 47.5908180
        // interval -45 ± 47.59 = [-92.59, +2.59]: includes 0 -> within noise
        // (pooled: s² = (4·10 + 1·50)/5 = 18, se = √(18 (1/5 + 1/2)) = 3.5496, t(0.975, 5) = 2.5706, ±9.12: "significant")
        Comparison c = new Comparison(Sample.of("bypass", 700, 702, 698, 704, 696), Sample.of("sni", 650, 660));
        assertEquals(729.0 / 626, c.degreesOfFreedom(), 1e-12);
        assertEquals(47.5908180, c.differenceInterval().halfWidth(), 1e-6);
        assertEquals(-6.4285714, c.changePercent(), 1e-7);
        assertEquals(6.7986883, c.changeInterval().halfWidth(), 1e-6);  // 47.5908180 / 700, in %
        assertEquals(Comparison.Verdict.WITHIN_NOISE, c.verdict());
    }

    @Test
    @DisplayName("Welch: equal spreads, df = 2(n-1), a small change within noise")
    void welchWithinNoise() {
        // {100, 104, 96} vs {96, 100, 92}: a = b = 16/3; se = √(32/3) = 3.2659863
        // df = (32/3)² / (2 · (16/3)² / 2) = (1024/9) / (256/9) = 4; t(0.975, 4) = 2.7764451
        // half-width = 2.7764451 · 3.2659863 = 9.0678317; -4 ± 9.07 = [-13.07, +5.07] includes 0
        Comparison c = new Comparison(Sample.of("bypass", 100, 104, 96), Sample.of("sni", 96, 100, 92));
        assertEquals(4, c.degreesOfFreedom(), 1e-12);
        assertEquals(9.0678317, c.differenceInterval().halfWidth(), 1e-6);
        assertEquals(Comparison.Verdict.WITHIN_NOISE, c.verdict());
    }

    @Test
    @DisplayName("Welch: a single value on either side gives a change but no interval and no verdict")
    void welchWithOneRepeat() {
        Comparison oneBase = new Comparison(Sample.of("bypass", 100), Sample.of("sni", 90, 92, 88));
        Comparison oneCase = new Comparison(Sample.of("bypass", 100, 104, 96), Sample.of("sni", 90));
        for (Comparison c : List.of(oneBase, oneCase)) {
            assertEquals(-10, c.changePercent(), 1e-12);
            assertEquals(Comparison.Verdict.UNKNOWN, c.verdict());
            assertFalse(c.differenceInterval().isKnown());
            assertFalse(c.changeInterval().isKnown());
            assertTrue(Double.isNaN(c.degreesOfFreedom()));
        }
    }

    @Test
    @DisplayName("Welch: repeats without any spread give a zero-width interval")
    void welchWithoutSpread() {
        Comparison moved = new Comparison(Sample.of("bypass", 100, 100, 100), Sample.of("sni", 90, 90, 90));
        assertEquals(0, moved.differenceInterval().halfWidth());
        assertEquals(Comparison.Verdict.SIGNIFICANT, moved.verdict());
        Comparison same = new Comparison(Sample.of("bypass", 100, 100), Sample.of("sni", 100, 100, 100));
        assertEquals(Comparison.Verdict.WITHIN_NOISE, same.verdict());
        // one side without spread: df = b² / (b²/(n₂-1)) = n₂ - 1 = 2
        assertEquals(2, new Comparison(Sample.of("bypass", 100, 100), Sample.of("sni", 90, 92, 88)).degreesOfFreedom(),
                1e-12);
    }

    @Test
    @DisplayName("Welch: refuses a baseline whose mean is 0, and missing sides, naming them")
    void welchRefusesBadInputs() {
        assertEquals("bypass: the mean is 0, so a change relative to it is undefined", refused(() ->
                new Comparison(Sample.of("bypass", 0, 0), Sample.of("sni", 1, 2))));
        assertEquals("baseline is missing", refused(() -> new Comparison(null, Sample.of("sni", 1))));
        assertEquals("candidate is missing", refused(() -> new Comparison(Sample.of("bypass", 1), null)));
    }

    static String refused(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }
}
