package dev.meshbench.results.convert;

import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.ResultsSchema;
import org.HdrHistogram.Histogram;

/**
 * Counts the samples of one step and records the response times of its successful samples after warm-up in an
 * HdrHistogram (milliseconds, {@value ResultsSchema#HISTOGRAM_SIGNIFICANT_DIGITS} significant digits, auto-resizing
 * so no value is out of range). Failed samples are counted, not recorded: a connection refused in 1 ms would
 * otherwise make a broken case look fast.
 */
final class StepAccumulator {
    final int clients;
    final long windowStart;
    final long windowEnd;
    private final Histogram histogram = new Histogram(ResultsSchema.HISTOGRAM_SIGNIFICANT_DIGITS);
    private long sum;
    private long min = Long.MAX_VALUE;
    private long max;
    long transactions;
    long errors;
    long warmupSkipped;
    long lateSkipped;
    /** Successful samples per third of the window, by start time. */
    final long[] thirds = new long[3];
    /** The label under which samples without one are counted (JMeter always writes one; hand-made JTLs may not). */
    static final String NO_LABEL = "(no label)";
    /** The same window per JMeter label, in label order (only in a step's own accumulator). */
    private final java.util.Map<String, StepAccumulator> labels = new java.util.TreeMap<>();

    StepAccumulator(int clients, long windowStart, long windowEnd) {
        this.clients = clients;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
    }

    void add(JtlSample s) {
        if (s.timeStamp() < windowStart) {
            warmupSkipped++;
            return;
        }
        if (s.timeStamp() >= windowEnd) {
            lateSkipped++;
            return;
        }
        String label = s.label() == null || s.label().isBlank() ? NO_LABEL : s.label();
        labels.computeIfAbsent(label, l -> new StepAccumulator(clients, windowStart, windowEnd)).record(s);
        record(s);
    }

    /** Counts a sample already known to be in the window. */
    private void record(JtlSample s) {
        if (!s.success()) {
            errors++;
            return;
        }
        transactions++;
        thirds[(int) Math.min(2, 3 * (s.timeStamp() - windowStart) / Math.max(1, windowEnd - windowStart))]++;
        histogram.recordValue(s.elapsed());
        sum += s.elapsed();
        min = Math.min(min, s.elapsed());
        max = Math.max(max, s.elapsed());
    }

    /** Seconds in the measured window. */
    double seconds() {
        return (windowEnd - windowStart) / 1000.0;
    }

    /** The latency statistics, or {@code null} when no sample succeeded. */
    LatencyStats latency() {
        if (transactions == 0) {
            return null;
        }
        return new LatencyStats(transactions, min, Rounding.round((double) sum / transactions, 3),
                percentile(50), percentile(90), percentile(95), percentile(99), max);
    }

    /** The window per label, as {@link LabelResult}s in label order. */
    java.util.List<dev.meshbench.results.LabelResult> labels() {
        return labels.entrySet().stream().map(e -> new dev.meshbench.results.LabelResult(e.getKey(),
                e.getValue().transactions + e.getValue().errors, e.getValue().transactions, e.getValue().errors,
                Rounding.round(e.getValue().transactions / seconds(), 3), e.getValue().latency())).toList();
    }

    private long percentile(double p) {
        // the histogram reports the top of the bucket holding the percentile; never beyond the true extremes
        return Math.max(min, Math.min(max, histogram.getValueAtPercentile(p)));
    }
}
