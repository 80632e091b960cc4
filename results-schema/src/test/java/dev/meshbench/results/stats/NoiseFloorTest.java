package dev.meshbench.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The difference against a baseline that lacks the figure, and the noise floor's formulas, worked out by hand. */
class NoiseFloorTest {

    @Test
    @DisplayName("a figure bypass does not have (every repeat 0) against {0.09, 0.10, 0.11}: +0.100 ± 0.0248, df 2")
    void differenceAgainstZeros() {
        // baseline variance 0, candidate s = 0.01 (deviations -0.01, 0, +0.01: s² = 0.0002 / 2): a = 0, b = s²/3, so
        // df = b² / (b²/2) = 2 and the half-width is t(0.975, 2) · 0.01 / √3 = 4.3027 · 0.0057735 = 0.024841
        MeanDifference d = new MeanDifference(Sample.of("bypass", 0, 0, 0), Sample.of("sni", 0.09, 0.10, 0.11));
        assertEquals(0.10, d.estimate(), 1e-12);
        assertEquals(2, d.degreesOfFreedom(), 1e-12);
        assertEquals(0.024841, d.interval().halfWidth(), 5e-7);
        assertEquals(Comparison.Verdict.SIGNIFICANT, d.verdict());
        // in points of a reference of 0.8 (bypass's mesh CPU): 0.10 / 0.8 = 12.5 points, 0.024841 / 0.8 = 3.105
        Interval points = d.inPercentOf(0.8);
        assertEquals(12.5, points.estimate(), 1e-9);
        assertEquals(3.1052, points.halfWidth(), 5e-5);
        assertThrows(IllegalArgumentException.class, () -> d.inPercentOf(0), "a percent of nothing");
        assertThrows(IllegalArgumentException.class, () -> new Comparison(Sample.of("bypass", 0, 0, 0),
                Sample.of("sni", 0.1)), "the relative comparison still refuses a baseline of 0");
    }

    @Test
    @DisplayName("one repeat on a side: a difference, no interval, no verdict")
    void differenceWithOneRepeat() {
        MeanDifference d = new MeanDifference(Sample.of("bypass", 0), Sample.of("sni", 0.1, 0.12));
        assertEquals(0.11, d.estimate(), 1e-12);
        assertFalse(d.interval().isKnown());
        assertFalse(d.inPercentOf(1).isKnown());
        assertEquals(Comparison.Verdict.UNKNOWN, d.verdict());
    }

    @Test
    @DisplayName("pooled relative SD: {1.0, 1.1, 0.9} and {2.0, 2.4} give √((2 · 0.01 + 1 · 0.016529) / 3) = 11.03%")
    void pooled() {
        // A: mean 1.0, s = 0.1, relative 0.1, df 2; B: mean 2.2, s² = 0.08, relative s² = 0.08 / 4.84 = 0.016529,
        // df 1; C: one repeat, no spread, left out. Pooled: √(0.036529 / 3) = 0.110346 with 3 degrees of freedom.
        NoiseFloor f = NoiseFloor.pooled(List.of(Sample.of("A", 1.0, 1.1, 0.9), Sample.of("B", 2.0, 2.4),
                Sample.of("C", 5)));
        assertEquals(0.110346, f.relativeSd(), 5e-7);
        assertEquals(3, f.degreesOfFreedom());
        assertEquals(2, f.samples());
        assertNull(NoiseFloor.pooled(List.of(Sample.of("C", 5), Sample.of("D", 3))), "one repeat shows no noise");
        assertNull(NoiseFloor.pooled(List.of(Sample.of("zero", 0, 0))), "a figure of 0 has no relative spread");
    }

    @Test
    @DisplayName("detectable difference with 3 repeats at 5% noise: t(0.975, 4) · 0.05 · √(2/3) = 11.3%")
    void detectableDifference() {
        // t(0.975, 4) = 2.776 (table); 2.776 · 0.05 · 0.816497 = 0.11333; the table's 3 decimals leave ±3e-5
        NoiseFloor f = new NoiseFloor(0.05, 10, 5);
        assertEquals(0.11333, f.detectableDifference(3), 5e-5);
        // 2 repeats: t(0.975, 2) = 4.303, √(2/2) = 1: 4.303 · 0.05 = 0.21513
        assertEquals(0.21513, f.detectableDifference(2), 5e-5);
        assertTrue(f.detectableDifference(10) < f.detectableDifference(3), "more repeats see smaller differences");
        assertThrows(IllegalArgumentException.class, () -> f.detectableDifference(1));
    }

    @Test
    @DisplayName("repeats for a 10% difference by the normal formula: n = 2 (1.95996 + 0.84162)² s² / d², rounded up, at least 2")
    void normalRepeatsForTenPercent() {
        // (z(0.975) + z(0.8))² = 2.801585² = 7.848880, so n = 15.69776 s² / d²:
        //   s = 5%:  15.69776 · 0.0025 / 0.01 = 3.92  -> 4
        //   s = 8%:  15.69776 · 0.0064 / 0.01 = 10.05 -> 11
        //   s = 10%: 15.69776 · 0.01 / 0.01   = 15.70 -> 16
        //   s = 2%:  0.63 -> 2, the fewest that give an interval
        assertEquals(4, new NoiseFloor(0.05, 4, 2).normalRepeatsFor(0.10));
        assertEquals(11, new NoiseFloor(0.08, 4, 2).normalRepeatsFor(0.10));
        assertEquals(16, new NoiseFloor(0.10, 4, 2).normalRepeatsFor(0.10));
        assertEquals(2, new NoiseFloor(0.02, 4, 2).normalRepeatsFor(0.10));
        assertThrows(IllegalArgumentException.class, () -> new NoiseFloor(0.05, 4, 2).normalRepeatsFor(0));
    }

    @Test
    @DisplayName("repeats for a 10% difference with t quantiles of 2(n-1) df: the smallest n >= 2 (t(.975) + t(.8))² s²/d²")
    void repeatsForTenPercent() {
        // t(0.975, df) and t(0.8, df) from the published tables:
        //   df 2: 4.303, 1.061   df 4: 2.776, 0.941   df 6: 2.447, 0.906   df 8: 2.306, 0.889   df 10: 2.228, 0.879
        //   df 30: 2.042, 0.854  df 32: 2.037, 0.853
        // s = 5% (s²/d² = 0.25): n = 4: 2 · 3.353² · 0.25 = 5.62 > 4; n = 5: 2 · 3.195² · 0.25 = 5.10 > 5;
        //   n = 6: 2 · 3.107² · 0.25 = 4.83 <= 6  -> 6 (the normal formula's 4 see a 10% difference two times in three)
        assertEquals(6, new NoiseFloor(0.05, 4, 2).repeatsFor(0.10));
        // s = 2% (0.04): n = 2: 2 · 5.364² · 0.04 = 2.30 > 2; n = 3: 2 · 3.717² · 0.04 = 1.11 <= 3  -> 3
        assertEquals(3, new NoiseFloor(0.02, 4, 2).repeatsFor(0.10));
        // s = 10% (1): n = 16: 2 · 2.896² = 16.77 > 16; n = 17: 2 · 2.890² = 16.70 <= 17  -> 17
        assertEquals(17, new NoiseFloor(0.10, 4, 2).repeatsFor(0.10));
        assertEquals(2, new NoiseFloor(0, 4, 2).repeatsFor(0.10), "no noise: the fewest that give an interval");
        assertEquals(6, NoiseFloor.repeatsFor(0.05, 0.10), "for a noise assumed before any was measured");
        assertThrows(IllegalArgumentException.class, () -> new NoiseFloor(0.05, 4, 2).repeatsFor(0));
    }
}
