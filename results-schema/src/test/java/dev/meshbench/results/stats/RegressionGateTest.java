package dev.meshbench.results.stats;

import static dev.meshbench.results.stats.StatsTest.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.stats.RegressionGate.Cell;
import dev.meshbench.results.stats.RegressionGate.Key;
import dev.meshbench.results.stats.RegressionGate.Metric;
import dev.meshbench.results.stats.RegressionGate.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The regression gate on cells worked out by hand (the arithmetic is in {@link StatsTest} where it repeats). */
class RegressionGateTest {
    private static final Key SNI_TX = new Key("sni", 20, Metric.THROUGHPUT);
    private static final Key SNI_P99 = new Key("sni", 20, Metric.P99);
    private static final Key SNI_CPU = new Key("sni", 20, Metric.MESH_CPU_PER_TX);

    private static Cell only(RegressionGate.Result r) {
        assertEquals(1, r.cells().size(), r.cells().toString());
        return r.cells().get(0);
    }

    private static Cell one(double maxPercent, Key key, List<Double> baseline, List<Double> current) {
        return only(new RegressionGate(maxPercent).check(Map.of(key, baseline), Map.of(key, current)));
    }

    @Test
    @DisplayName("fails on a throughput drop beyond the threshold and beyond noise, naming case, step, metric and values")
    void beyondThresholdAndNoise() {
        // {100, 104, 96}: 100 ± 9.94 (t(0.975, 2) = 4.3027 · 4/√3); {90, 92, 88}: 90 ± 4.97 (4.3027 · 2/√3)
        // change -10%, worse than 5%; Welch: -10 ± 8.31 excludes 0 (StatsTest.welchSignificant)
        RegressionGate.Result r = new RegressionGate(5).check(Map.of(SNI_TX, List.of(100.0, 104.0, 96.0)),
                Map.of(SNI_TX, List.of(90.0, 92.0, 88.0)));
        assertTrue(r.fails());
        Cell c = only(r);
        assertEquals(Status.REGRESSION, c.status());
        assertEquals("sni @20 clients: throughput 90.0 tx/s (±5.0) vs baseline 100.0 tx/s (±9.9): -10.0%, beyond the "
                + "5% allowed and beyond noise", c.message());
        assertEquals(List.of(c), r.regressions());
    }

    @Test
    @DisplayName("passes a drop beyond the threshold that is within noise, and says so with the change's interval")
    void beyondThresholdWithinNoise() {
        // {100, 120, 80} and {90, 110, 70}: s² = 800/2 = 400 each, a = b = 400/3; se = √(800/3) = 16.3299
        // df = (800/3)² / (2 · (400/3)² / 2) = 4; t(0.975, 4) = 2.7764; half-width = 45.339
        // -10 ± 45.34 = [-55.34, +35.34] includes 0: within noise, although -10% is worse than 5%
        // each mean: 4.3027 · 20/√3 = 49.68
        Cell c = one(5, SNI_TX, List.of(100.0, 120.0, 80.0), List.of(90.0, 110.0, 70.0));
        assertEquals(Status.OK, c.status());
        assertEquals(Comparison.Verdict.WITHIN_NOISE, c.comparison().verdict());
        assertEquals("sni @20 clients: throughput 90.0 tx/s (±49.7) vs baseline 100.0 tx/s (±49.7): -10.0%, beyond the "
                + "5% allowed but within noise (95% interval of the change -55.3% to +35.3%)", c.message());
    }

    @Test
    @DisplayName("passes a significant change that is within the threshold")
    void withinThreshold() {
        // {100, 101, 99} vs {96, 95, 97}: -4 ± 2.27 (df 4, se √(2/3)): significant, but -4% is within 5%
        Cell c = one(5, SNI_TX, List.of(100.0, 101.0, 99.0), List.of(96.0, 95.0, 97.0));
        assertEquals(Comparison.Verdict.SIGNIFICANT, c.comparison().verdict());
        assertEquals(Status.OK, c.status());
        assertTrue(c.message().endsWith(": -4.0%, worse, within the 5% allowed"), c.message());
    }

    @Test
    @DisplayName("latency and mesh CPU are worse when higher, throughput when lower: the same numbers, opposite verdicts")
    void direction() {
        // {100, 101, 99} vs {104, 105, 103}: +4; a = b = 1/3, se = √(2/3) = 0.8165, df = (2/3)² / (2 (1/3)² / 2) = 4
        // t(0.975, 4) = 2.7764; half-width 2.2670: [1.733, 6.267] excludes 0. Each mean: 4.3027 / √3 = 2.484
        List<Double> base = List.of(100.0, 101.0, 99.0);
        List<Double> up = List.of(104.0, 105.0, 103.0);
        Cell p99 = one(3, SNI_P99, base, up);
        assertEquals(Status.REGRESSION, p99.status());
        assertEquals("sni @20 clients: p99 104.0 ms (±2.5) vs baseline 100.0 ms (±2.5): +4.0%, beyond the 3% allowed "
                + "and beyond noise", p99.message());
        Cell tx = one(3, SNI_TX, base, up);
        assertEquals(Status.OK, tx.status());
        assertTrue(tx.message().endsWith(": +4.0%, not worse"), tx.message());
        assertEquals(Status.OK, one(3, SNI_P99, base, List.of(96.0, 95.0, 97.0)).status(), "lower latency is better");
        assertEquals(Status.REGRESSION, one(3, SNI_TX, base, List.of(96.0, 95.0, 97.0)).status(), "less throughput");

        // mesh CPU {0.500, 0.505, 0.495} vs {0.600, 0.606, 0.594}: +20%; s² 0.000025 and 0.000036
        // a = 8.333e-6, b = 1.2e-5, se = 0.0045092, df = (2.0333e-5)² / (a²/2 + b²/2) = 3.874, t = 2.8124
        // half-width 0.01268: [0.0873, 0.1127] excludes 0. Means: 4.3027 · 0.005/√3 = 0.0124, 4.3027 · 0.006/√3 = 0.0149
        Cell cpu = one(10, SNI_CPU, List.of(0.500, 0.505, 0.495), List.of(0.600, 0.606, 0.594));
        assertEquals(Status.REGRESSION, cpu.status());
        assertEquals(3.874024, cpu.comparison().degreesOfFreedom(), 1e-6);
        assertEquals("sni @20 clients: mesh CPU 0.600 ms/tx (±0.015) vs baseline 0.500 ms/tx (±0.012): +20.0%, "
                + "beyond the 10% allowed and beyond noise", cpu.message());
    }

    @Test
    @DisplayName("with a single value on a side the threshold alone decides, and the message says so")
    void singleValues() {
        Cell drop = one(5, SNI_TX, List.of(100.0), List.of(80.0));
        assertEquals(Status.REGRESSION, drop.status());
        assertEquals("sni @20 clients: throughput 80.0 tx/s vs baseline 100.0 tx/s: -20.0%, beyond the 5% allowed; a "
                + "single value on a side gives no noise estimate, so the threshold alone decides", drop.message());
        Cell oneSide = one(5, SNI_TX, List.of(100.0, 104.0, 96.0), List.of(80.0));
        assertEquals(Status.REGRESSION, oneSide.status());
        assertEquals(Status.OK, one(5, SNI_TX, List.of(100.0), List.of(97.0)).status());
        // exactly at the threshold is not beyond it: -10% with 10% allowed
        Cell edge = one(10, SNI_TX, List.of(100.0), List.of(90.0));
        assertEquals(Status.OK, edge.status());
        assertTrue(edge.message().endsWith(": -10.0%, worse, within the 10% allowed"), edge.message());
        assertTrue(one(2.5, SNI_TX, List.of(100.0), List.of(99.0)).message().endsWith("within the 2.5% allowed"));
    }

    @Test
    @DisplayName("reports cells on one side only, in order with the others, without failing on them")
    void missingCells() {
        Key gatewayTx = new Key("gateway", 20, Metric.THROUGHPUT);
        Key sni10 = new Key("sni", 10, Metric.THROUGHPUT);
        RegressionGate.Result r = new RegressionGate(5).check(
                Map.of(SNI_TX, List.of(100.0, 104.0, 96.0), gatewayTx, List.of(700.0, 702.0, 698.0)),
                Map.of(SNI_TX, List.of(99.0, 103.0, 97.0), sni10, List.of(612.3)));
        assertFalse(r.fails());
        assertEquals(List.of(gatewayTx, sni10, SNI_TX), r.cells().stream().map(Cell::key).toList());
        assertEquals(List.of(Status.NOT_IN_CURRENT, Status.NOT_IN_BASELINE, Status.OK),
                r.cells().stream().map(Cell::status).toList());
        // 700 ± 4.3027 · 2/√3 = 700 ± 4.97
        assertEquals("gateway @20 clients: throughput: in the baseline (700.0 tx/s (±5.0)) but not in this run",
                r.missing().get(0).message());
        assertEquals("sni @10 clients: throughput: in this run (612.3 tx/s) but not in the baseline, nothing to "
                + "compare with", r.missing().get(1).message());
        assertNull(r.missing().get(0).comparison());
    }

    @Test
    @DisplayName("refuses a bad threshold, bad values and a zero baseline, naming the side and the cell")
    void refusesBadInputs() {
        assertEquals("maxRegressionPercent (-1.0) must be a finite number >= 0", refused(() -> new RegressionGate(-1)));
        assertEquals("maxRegressionPercent (NaN) must be a finite number >= 0", refused(() ->
                new RegressionGate(Double.NaN)));
        assertEquals("maxRegressionPercent (Infinity) must be a finite number >= 0", refused(() ->
                new RegressionGate(Double.POSITIVE_INFINITY)));
        RegressionGate gate = new RegressionGate(5);
        assertEquals("current sni @20 clients: throughput: repeat 2 of 3 (-5.0) must be a finite number >= 0",
                refused(() -> gate.check(Map.of(SNI_TX, List.of(1.0)), Map.of(SNI_TX, List.of(1.0, -5.0, 2.0)))));
        assertEquals("baseline sni @20 clients: p99: repeat 1 of 1 (NaN) must be a finite number >= 0",
                refused(() -> gate.check(Map.of(SNI_P99, List.of(Double.NaN)), Map.of(SNI_P99, List.of(1.0)))));
        assertEquals("baseline sni @20 clients: throughput: no values; a mean needs at least one repeat",
                refused(() -> gate.check(Map.of(SNI_TX, List.of()), Map.of(SNI_TX, List.of(1.0)))));
        assertEquals("baseline sni @20 clients: throughput: the mean is 0, so a change relative to it is undefined",
                refused(() -> gate.check(Map.of(SNI_TX, List.of(0.0, 0.0)), Map.of(SNI_TX, List.of(1.0)))));
        assertEquals("current is missing", refused(() -> gate.check(Map.of(), null)));
        assertEquals("clients (0) must be positive", refused(() -> new Key("sni", 0, Metric.P99)));
        assertEquals("caseId (\"\") must not be blank", refused(() -> new Key("", 20, Metric.P99)));
        assertEquals("metric is missing", refused(() -> new Key("sni", 20, null)));
    }
}
