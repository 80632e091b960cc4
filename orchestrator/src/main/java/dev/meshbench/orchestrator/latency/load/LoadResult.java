package dev.meshbench.orchestrator.latency.load;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Collections;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What one {@link LoadGenerator#run} measured, after the warm-up, with the spec that produced it. A request is
 * measured when its intended send time (open loop) or its send (closed loop) falls in the measured window; it is
 * counted once it has an answer or an error.
 *
 * <p>Latency: open loop, from the request's <em>intended</em> send time on the schedule to the last byte of its
 * answer, so time spent waiting for a free connection counts (no coordinated omission, as wrk2 measures); closed
 * loop, from its send. {@link #serviceTime()} is always from the actual send: what a tool prone to coordinated
 * omission would report; in a closed loop the two are the same. Both count every request that got an HTTP answer,
 * whatever its status (as fortio does); requests without an answer (connect failure, timeout, I/O error) are only
 * counted in {@link #errors()}. Both start at the connect when a request needed a new connection.
 *
 * @param spec                 what was asked
 * @param startedAt            wall-clock start of the run (of its warm-up, if any)
 * @param elapsed              measured time: from the start of the measured window until its last request ended
 *                             (at least {@code spec.duration()})
 * @param requests             measured requests that ended, with an answer or an error
 * @param ok                   of those, answered with a 2xx status
 * @param errors               the others, by kind
 * @param achievedRate         {@code requests / elapsed}, per second
 * @param latency              see above
 * @param serviceTime          see above
 * @param schedule             open loop only: how well the schedule was kept
 * @param latencyHistogram     {@link #latency()}'s HdrHistogram in microseconds, compressed and base64 encoded:
 *                             {@link #decode(String)} it to merge runs
 * @param serviceTimeHistogram the same for {@link #serviceTime()}
 */
public record LoadResult(LoadSpec spec, Instant startedAt, Duration elapsed, long requests, long ok, Errors errors,
        double achievedRate, Latency latency, Latency serviceTime, Optional<ScheduleKeeping> schedule,
        String latencyHistogram, String serviceTimeHistogram) {

    /** HdrHistogram precision of every histogram here: values within 0.1%. */
    public static final int SIGNIFICANT_DIGITS = 3;

    public LoadResult {
        errors.byStatus().forEach((status, n) -> {
            if (status >= 200 && status < 300) {
                throw new IllegalArgumentException("errors.byStatus has the success status " + status);
            }
        });
        if (ok + errors.total() != requests) {
            throw new IllegalArgumentException("requests (" + requests + ") must be ok (" + ok + ") + errors ("
                    + errors.total() + ")");
        }
        if (spec.openLoop() != schedule.isPresent()) {
            throw new IllegalArgumentException("schedule must be present exactly for an open loop");
        }
    }

    /** The open loop's target rate per second; empty for a closed loop. */
    public OptionalDouble targetRate() {
        return spec.ratePerSecond();
    }

    /** Whether an open loop could not keep its schedule (see {@link ScheduleKeeping}); never for a closed loop. */
    public boolean fellBehind() {
        return schedule.map(ScheduleKeeping::fellBehind).orElse(false);
    }

    public Histogram latencyHistogramDecoded() {
        return decode(latencyHistogram);
    }

    public Histogram serviceTimeHistogramDecoded() {
        return decode(serviceTimeHistogram);
    }

    /** A histogram as kept in a result: compressed, base64. */
    public static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    /** The histogram of {@link #encode(Histogram)}, in microseconds. */
    public static Histogram decode(String encoded) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot decode histogram \"" + abbreviate(encoded) + "\": " + e.getMessage(), e);
        }
    }

    private static String abbreviate(String s) {
        return s == null || s.length() <= 20 ? s : s.substring(0, 20) + "...";
    }

    /**
     * Requests without a 2xx answer.
     *
     * @param byStatus answers with another status, by status code
     * @param connect  the connection could not be opened (refused, unreachable, or not within the timeout)
     * @param timeout  no complete answer within the timeout
     * @param io       the connection failed otherwise: reset, closed mid-answer, an answer that is not HTTP/1.x
     */
    public record Errors(SortedMap<Integer, Long> byStatus, long connect, long timeout, long io) {
        public static final Errors NONE = new Errors(new TreeMap<>(), 0, 0, 0);

        public Errors {
            byStatus = Collections.unmodifiableSortedMap(new TreeMap<>(byStatus));
        }

        public long total() {
            return byStatus.values().stream().mapToLong(Long::longValue).sum() + connect + timeout + io;
        }

        /** {@code HTTP 500: 12, connect: 3}, or {@code none}. */
        public String describe() {
            StringBuilder b = new StringBuilder();
            byStatus.forEach((status, n) -> b.append(b.length() == 0 ? "" : ", ").append("HTTP ").append(status).append(": ").append(n));
            append(b, "connect", connect);
            append(b, "timeout", timeout);
            append(b, "io", io);
            return b.length() == 0 ? "none" : b.toString();
        }

        private static void append(StringBuilder b, String kind, long n) {
            if (n > 0) {
                b.append(b.length() == 0 ? "" : ", ").append(kind).append(": ").append(n);
            }
        }
    }

    /**
     * Percentiles of one histogram, in milliseconds with microsecond resolution; all zero when {@code count} is 0.
     * Percentiles are HdrHistogram's (within 0.1%); {@code max} and {@code mean} too.
     */
    public record Latency(long count, double p50, double p90, double p99, double p999, double max, double mean) {
        public static Latency of(Histogram micros) {
            if (micros.getTotalCount() == 0) {
                return new Latency(0, 0, 0, 0, 0, 0, 0);
            }
            return new Latency(micros.getTotalCount(), ms(micros.getValueAtPercentile(50)),
                    ms(micros.getValueAtPercentile(90)), ms(micros.getValueAtPercentile(99)),
                    ms(micros.getValueAtPercentile(99.9)), ms(micros.getMaxValue()), Math.round(micros.getMean()) / 1000.0);
        }

        private static double ms(long micros) {
            return micros / 1000.0;
        }

        /** {@code p50 1.203  p90 2.1  p99 4.5  p99.9 9.8  max 20.1  mean 1.25}, in ms. */
        public String describe() {
            return "p50 " + Figures.number(p50) + "  p90 " + Figures.number(p90) + "  p99 " + Figures.number(p99) + "  p99.9 " + Figures.number(p999)
                    + "  max " + Figures.number(max) + "  mean " + Figures.number(mean);
        }
    }

    /**
     * How well an open loop kept its schedule: request {@code i} was due at {@code start + i / rate}.
     *
     * <p>The generator <b>fell behind</b> when any of these holds, and {@code reason} says which (when it did not,
     * {@code reason} gives the figures that show it kept up):
     * <ol>
     *   <li>a request due in the measured window was never sent ({@code missed > 0}): all connections were busy
     *       until the end;</li>
     *   <li>more than 1% of the sent requests were sent late, later than {@code lateThresholdMs} after their due
     *       time ({@code max(1 ms, 1 / rate)});</li>
     *   <li>the achieved rate was below 95% of the target.</li>
     * </ol>
     * A late request's latency still counts from its due time, so its figures stay honest; falling behind says the
     * load offered was not the load asked for.
     *
     * @param targetRate      requests per second asked for
     * @param scheduled       requests due in the measured window
     * @param sent            of those, sent
     * @param lateSends       of those, sent more than {@code lateThresholdMs} after their due time
     * @param lateThresholdMs {@code max(1 ms, 1 / rate)}
     * @param maxSendLagMs    the longest a sent request waited after its due time
     * @param missed          {@code scheduled - sent}: due but never sent before the end; not in any other figure
     * @param fellBehind      see above
     * @param reason          why it fell behind, or why not
     */
    public record ScheduleKeeping(double targetRate, long scheduled, long sent, long lateSends, double lateThresholdMs,
            double maxSendLagMs, long missed, boolean fellBehind, String reason) {

        /** More than this share of late sends is falling behind. */
        public static final double MAX_LATE_SHARE = 0.01;
        /** An achieved rate below this share of the target is falling behind. */
        public static final double MIN_RATE_SHARE = 0.95;

        /** Applies the rules above. */
        public static ScheduleKeeping judge(double targetRate, long scheduled, long sent, long lateSends,
                double lateThresholdMs, double maxSendLagMs, double achievedRate) {
            long missed = Math.max(0, scheduled - sent);
            double lateShare = sent == 0 ? 0 : (double) lateSends / sent;
            double rateShare = achievedRate / targetRate;
            StringBuilder why = new StringBuilder();
            if (missed > 0) {
                why.append(missed).append(" of ").append(scheduled)
                        .append(" scheduled requests were never sent (every connection was busy until the end)");
            }
            if (lateShare > MAX_LATE_SHARE) {
                why.append(why.length() == 0 ? "" : "; ").append(Figures.percent(lateShare)).append(" of the requests were sent more than ")
                        .append(Figures.number(lateThresholdMs)).append(" ms late (limit ").append(Figures.percent(MAX_LATE_SHARE))
                        .append("), up to ").append(Figures.number(maxSendLagMs)).append(" ms");
            }
            if (rateShare < MIN_RATE_SHARE) {
                why.append(why.length() == 0 ? "" : "; ").append("achieved ").append(Figures.number(achievedRate))
                        .append(" req/s, ").append(Figures.percent(rateShare)).append(" of the target ").append(Figures.number(targetRate))
                        .append(" req/s (limit ").append(Figures.percent(MIN_RATE_SHARE)).append(")");
            }
            boolean behind = why.length() > 0;
            String reason = behind ? why.toString()
                    : "kept the schedule: none missed, " + Figures.percent(lateShare) + " sent more than " + Figures.number(lateThresholdMs)
                    + " ms late (limit " + Figures.percent(MAX_LATE_SHARE) + "), " + Figures.percent(rateShare) + " of the target rate";
            return new ScheduleKeeping(targetRate, scheduled, sent, lateSends, lateThresholdMs, maxSendLagMs, missed, behind, reason);
        }
    }
}
