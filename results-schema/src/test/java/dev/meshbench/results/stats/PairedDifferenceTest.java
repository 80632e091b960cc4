package dev.meshbench.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The paired difference's mean and interval, on inputs worked out by hand. */
class PairedDifferenceTest {
    /** t(0.975, 2) = √(1.805 / 0.0975), exact (see StatsTest). */
    private static final double T2 = Math.sqrt(1.805 / 0.0975);

    @Test
    @DisplayName("three pairs: mean difference ± t(0.975, 2) · s_d/√3, beyond noise where Welch's unpaired interval is not")
    void threePairs() {
        // differences 1, 1.2, 0.8: mean 1, s_d = √((0 + 0.04 + 0.04) / 2) = 0.2, half-width 4.3027 · 0.2 / √3 = 0.49683
        PairedDifference d = new PairedDifference("sni - bypass", List.of(10.0, 14.0, 12.0), List.of(11.0, 15.2, 12.8));
        assertEquals(3, d.n());
        assertEquals(1.0, d.estimate(), 1e-12);
        assertEquals(0.2, d.standardDeviation(), 1e-12);
        assertEquals(T2 * 0.2 / Math.sqrt(3), d.interval().halfWidth(), 1e-12);
        assertEquals(0.49683, d.interval().halfWidth(), 1e-5);
        assertEquals(Comparison.Verdict.SIGNIFICANT, d.verdict());
        // the same values unpaired: the rounds' spread (10 to 14) swamps the difference
        MeanDifference welch = new MeanDifference(new Sample(List.of(10.0, 14.0, 12.0)), new Sample(List.of(11.0, 15.2, 12.8)));
        assertEquals(Comparison.Verdict.WITHIN_NOISE, welch.verdict());
        // in points of a reference of 12: 8.333 ± 4.140
        Interval points = d.inPercentOf(12);
        assertEquals(100.0 / 12, points.estimate(), 1e-12);
        assertEquals(T2 * 0.2 / Math.sqrt(3) * 100 / 12, points.halfWidth(), 1e-12);
        assertEquals(12.0, d.baselineMean(), 1e-12);
    }

    @Test
    @DisplayName("differences of either sign: an interval that includes 0 is within noise")
    void withinNoise() {
        // differences -1, +2, +0.5: mean 0.5, s_d = √((2.25 + 2.25 + 0) / 2) = 1.5, half-width 4.3027 · 1.5 / √3 = 3.7262
        PairedDifference d = new PairedDifference("p99", List.of(5.0, 4.0, 6.0), List.of(4.0, 6.0, 6.5));
        assertEquals(0.5, d.estimate(), 1e-12);
        assertEquals(T2 * 1.5 / Math.sqrt(3), d.interval().halfWidth(), 1e-12);
        assertEquals(Comparison.Verdict.WITHIN_NOISE, d.verdict());
    }

    @Test
    @DisplayName("one pair has a difference and no interval")
    void onePair() {
        PairedDifference d = new PairedDifference("p99", List.of(5.0), List.of(7.0));
        assertEquals(2.0, d.estimate(), 1e-12);
        assertFalse(d.interval().isKnown());
        assertFalse(d.inPercentOf(4).isKnown());
        assertEquals(50.0, d.inPercentOf(4).estimate(), 1e-12);
        assertEquals(Comparison.Verdict.UNKNOWN, d.verdict());
    }

    @Test
    @DisplayName("refuses unequal sides, no pairs, a value that is not finite and a reference that is not positive, naming them")
    void refusesBadInput() {
        assertEquals("sni: 2 baseline values but 1 candidate values; each pair needs one of each",
                assertThrows(IllegalArgumentException.class,
                        () -> new PairedDifference("sni", List.of(1.0, 2.0), List.of(1.0))).getMessage());
        assertEquals("sni: no pairs; a difference needs at least one", assertThrows(IllegalArgumentException.class,
                () -> new PairedDifference("sni", List.of(), List.of())).getMessage());
        assertEquals("sni: candidate value of pair 2 of 2 (NaN) must be a finite number",
                assertThrows(IllegalArgumentException.class,
                        () -> new PairedDifference("sni", List.of(1.0, 2.0), List.of(1.0, Double.NaN))).getMessage());
        assertEquals("sni: reference (0.0) must be a finite number > 0", assertThrows(IllegalArgumentException.class,
                () -> new PairedDifference("sni", List.of(1.0), List.of(2.0)).inPercentOf(0)).getMessage());
    }
}
