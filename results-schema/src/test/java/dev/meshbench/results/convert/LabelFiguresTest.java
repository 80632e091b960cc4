package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.LabelResult;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.StepResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A step's figures per request type (JMeter label), worked by hand. */
class LabelFiguresTest {
    private static final long START = 1_000_000;
    private static final long END = START + 2_000; // a 2-s window

    private static JtlSample sample(long at, long elapsed, String label, boolean ok) {
        return new JtlSample(at, elapsed, label, ok, 4, 1);
    }

    @Test
    void eachLabelHasItsOwnCountsRateAndPercentiles() {
        StepAccumulator a = new StepAccumulator(4, START, END);
        // login: 10, 20, 30, 40 ms and one failure; queryflight: 5 ms twice; one sample in the warm-up, one late
        for (long ms : new long[] {40, 10, 30, 20}) {
            a.add(sample(START + ms, ms, "login", true));
        }
        a.add(sample(START + 500, 1, "login", false));
        a.add(sample(START + 600, 5, "queryflight", true));
        a.add(sample(START + 700, 5, "queryflight", true));
        a.add(sample(START - 1, 99, "login", true));
        a.add(sample(END, 99, "queryflight", true));

        List<LabelResult> labels = a.labels();
        assertEquals(List.of("login", "queryflight"), labels.stream().map(LabelResult::label).toList());
        LabelResult login = labels.get(0);
        assertEquals(5, login.samples());
        assertEquals(4, login.transactions());
        assertEquals(1, login.errors());
        assertEquals(2.0, login.throughputPerSecond()); // 4 transactions in 2 s
        // ranks of 4 values: p50 the 2nd (20), p90, p95 and p99 the 4th (40); the failure's 1 ms is not a latency
        assertEquals(new LatencyStats(4, 10, 25.0, 20, 40, 40, 40, 40), login.latencyMs());
        LabelResult query = labels.get(1);
        assertEquals(new LatencyStats(2, 5, 5.0, 5, 5, 5, 5, 5), query.latencyMs());
        assertEquals(1.0, query.throughputPerSecond());
        // the step's totals are the labels' sums; warm-up and late samples are in neither
        assertEquals(6, a.transactions);
        assertEquals(1, a.errors);
        assertEquals(1, a.warmupSkipped);
        assertEquals(1, a.lateSkipped);
    }

    @Test
    void aLabelWithOnlyFailuresHasNoLatency() {
        StepAccumulator a = new StepAccumulator(1, START, END);
        a.add(sample(START, 3, "cancelbooking", false));
        a.add(sample(START, 3, "", true));
        List<LabelResult> labels = a.labels();
        assertEquals(List.of(StepAccumulator.NO_LABEL, "cancelbooking"), labels.stream().map(LabelResult::label).toList());
        assertEquals(null, labels.get(1).latencyMs());
        assertEquals(1, labels.get(1).errors());
    }

    @Test
    void aStepRefusesLabelsThatDoNotAddUp() {
        LatencyStats l = new LatencyStats(2, 5, 5.0, 5, 5, 5, 5, 5);
        List<LabelResult> labels = List.of(new LabelResult("a", 1, 1, 0, 0.5, new LatencyStats(1, 5, 5.0, 5, 5, 5, 5, 5)));
        String m = assertThrows(IllegalArgumentException.class, () -> new StepResult(2, START, END, 2.0, 2, 0, 0, 2, 0, 1.0, l,
                null, null, null, null, null, labels)).getMessage();
        assertTrue(m.contains("its labels' transactions (1) and errors (0) must add up to the step's (2, 0)"), m);
    }
}
