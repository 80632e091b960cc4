package dev.meshbench.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.stats.RegressionGate.Key;
import dev.meshbench.results.stats.RegressionGate.Metric;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsTest {
    @Test
    void studentTMatchesThePublishedTable() {
        assertEquals(12.706, StudentT.quantile975(1));
        assertEquals(4.303, StudentT.quantile975(2));
        assertEquals(2.776, StudentT.quantile975(4));
        assertEquals(2.228, StudentT.quantile975(10));
        assertEquals(2.042, StudentT.quantile975(30));
        assertEquals(2.000, StudentT.quantile975(60), 1e-9);
        assertEquals(1.960, StudentT.quantile975(1e9), 1e-3);
        // 2.5 df, linear in 1/df between 2 (4.303) and 3 (3.182): x = 0.4 between 0.5 and 0.333..
        // 4.303 + (3.182 - 4.303) * (0.4 - 0.5) / (0.3333 - 0.5) = 4.303 - 1.121 * 0.6 = 3.6304
        assertEquals(3.6304, StudentT.quantile975(2.5), 1e-4);
        assertThrows(IllegalArgumentException.class, () -> StudentT.quantile975(0.5));
    }

    @Test
    void meanAndIntervalOfThreeRepeats() {
        // {100, 104, 96}: mean 100; deviations 0, 4, -4; s² = 32 / 2 = 16; s = 4; se = 4 / √3 = 2.3094
        // half-width = t(0.975, 2) · se = 4.303 · 2.3094 = 9.9373
        Sample s = Sample.of(100, 104, 96);
        assertEquals(100, s.mean(), 1e-12);
        assertEquals(16, s.variance(), 1e-12);
        assertEquals(9.9373, s.halfWidth95(), 1e-4);
        assertEquals(9.9373, s.relativeHalfWidthPercent(), 1e-4);
        Sample one = Sample.of(42);
        assertFalse(one.intervalKnown());
        assertTrue(Double.isNaN(one.halfWidth95()), "one repeat has no interval");
        assertThrows(IllegalArgumentException.class, () -> Sample.of(1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Sample.of());
    }

    @Test
    void welchComparisonWithUnequalVariances() {
        // baseline {100, 104, 96}: mean 100, s² 16, s²/n = 5.3333
        // candidate {90, 92, 88}: mean 90, s² = (0 + 4 + 4) / 2 = 4, s²/n = 1.3333
        // difference -10, change -10%; se = √(5.3333 + 1.3333) = √6.6667 = 2.5820
        // df = 6.6667² / (5.3333²/2 + 1.3333²/2) = 44.444 / (14.222 + 0.8889) = 44.444 / 15.111 = 2.9412
        // t(0.975, 2.9412): between 2 (4.303) and 3 (3.182) in 1/df: x = 0.34, 4.303 - 1.121 * (0.5 - 0.34) / (0.5 - 0.3333)
        //   = 4.303 - 1.121 * 0.96 = 3.2268; half-width = 3.2268 * 2.5820 = 8.3316 < 10 -> significant
        Comparison c = new Comparison(Sample.of(100, 104, 96), Sample.of(90, 92, 88));
        assertEquals(-10, c.changePercent(), 1e-9);
        assertEquals(2.9412, c.degreesOfFreedom(), 1e-4);
        assertEquals(8.3316, c.differenceHalfWidth95(), 1e-3);
        assertEquals(Comparison.Verdict.SIGNIFICANT, c.verdict());
        // candidate {96, 100, 92}: difference -4 < 8.33 -> within noise
        assertEquals(Comparison.Verdict.WITHIN_NOISE, new Comparison(Sample.of(100, 104, 96), Sample.of(96, 100, 92)).verdict());
        assertEquals(Comparison.Verdict.UNKNOWN, new Comparison(Sample.of(100), Sample.of(90, 92, 88)).verdict());
    }

    @Test
    void gateFailsOnlyBeyondTheThresholdAndBeyondNoise() {
        Key sniTx = new Key("sni", 20, Metric.THROUGHPUT);
        Key sniP99 = new Key("sni", 20, Metric.P99);
        Key mtlsTx = new Key("mtls", 20, Metric.THROUGHPUT);
        Key gwTx = new Key("gateway", 20, Metric.THROUGHPUT);
        Map<Key, Sample> baseline = Map.of(
                sniTx, Sample.of(100, 104, 96),       // current -10%, significant (above): beyond 5% -> regression
                sniP99, Sample.of(100, 104, 96),      // current +4% latency: within 5% -> ok
                mtlsTx, Sample.of(100, 120, 80),      // current -10% but s = 20: within noise -> ok
                gwTx, Sample.of(100));                // one repeat: threshold alone
        Map<Key, Sample> current = Map.of(
                sniTx, Sample.of(90, 92, 88),
                sniP99, Sample.of(104, 106, 102),
                mtlsTx, Sample.of(90, 110, 70),
                gwTx, Sample.of(80),
                new Key("bypass", 20, Metric.THROUGHPUT), Sample.of(100));
        RegressionGate.Result r = RegressionGate.check(baseline, current, 5);
        assertTrue(r.fails());
        assertEquals(java.util.List.of(new Key("gateway", 20, Metric.THROUGHPUT), sniTx),
                r.regressions().stream().map(RegressionGate.Finding::key).toList());
        assertEquals("sni @20 clients: throughput 90.0 (±5.0) tx/s vs baseline 100.0 (±9.9) tx/s: -10.0%, beyond the 5% "
                + "allowed and beyond noise", r.regressions().get(1).message());
        assertTrue(r.regressions().get(0).message().endsWith("(one repeat on a side: no noise estimate)"));
        String mtls = r.findings().stream().filter(f -> f.key().equals(mtlsTx)).findFirst().orElseThrow().message();
        assertTrue(mtls.endsWith("beyond the 5% allowed but within noise"), mtls);
        assertEquals(java.util.List.of("bypass @20 clients: throughput: not in the baseline"), r.missing());
        // Latency: higher is worse. The same +4% with a 3% threshold and a tight interval fails.
        RegressionGate.Result strict = RegressionGate.check(Map.of(sniP99, Sample.of(100, 101, 99)),
                Map.of(sniP99, Sample.of(104, 105, 103)), 3);
        assertTrue(strict.fails(), strict.findings().toString());
        assertFalse(RegressionGate.check(Map.of(sniTx, Sample.of(100, 101, 99)), Map.of(sniTx, Sample.of(120, 121, 119)), 3).fails(),
                "more throughput is never a regression");
        assertThrows(IllegalArgumentException.class, () -> RegressionGate.check(Map.of(), Map.of(), -1));
    }
}
