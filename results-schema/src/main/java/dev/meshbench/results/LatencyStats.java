package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Response time of the successful samples of one step after its warm-up, in milliseconds (JMeter's
 * {@code elapsed}: from just before sending the request to after the last byte of the response).
 * Percentiles come from one HdrHistogram (3 significant digits) over all those samples, so values below
 * 2048 ms are exact and larger ones are within 0.1%; {@code min}, {@code avg} and {@code max} are exact.
 *
 * @param count  samples in the histogram (the step's transactions)
 * @param min    fastest, ms
 * @param avg    arithmetic mean, ms
 * @param median 50th percentile, ms
 * @param p90    90th percentile, ms
 * @param p95    95th percentile, ms
 * @param p99    99th percentile, ms
 * @param max    slowest, ms
 */
@JsonPropertyOrder({"count", "min", "avg", "median", "p90", "p95", "p99", "max"})
public record LatencyStats(
        @JsonProperty(required = true) long count,
        @JsonProperty(required = true) long min,
        @JsonProperty(required = true) double avg,
        @JsonProperty(required = true) long median,
        @JsonProperty(required = true) long p90,
        @JsonProperty(required = true) long p95,
        @JsonProperty(required = true) long p99,
        @JsonProperty(required = true) long max) {

    public LatencyStats {
        Checks.positive("latencyMs.count", count);
        Checks.notNegative("latencyMs.min", min);
        Checks.notNegative("latencyMs.avg", avg);
        if (!(min <= median && median <= p90 && p90 <= p95 && p95 <= p99 && p99 <= max)) {
            throw new IllegalArgumentException("latencyMs must satisfy min <= median <= p90 <= p95 <= p99 <= max, "
                    + "got " + min + ", " + median + ", " + p90 + ", " + p95 + ", " + p99 + ", " + max);
        }
    }

    /** The value of a statistic by its JSON name ({@code avg}, {@code median}, {@code p90} ...). */
    public double get(String statistic) {
        return switch (statistic) {
            case "min" -> min;
            case "avg" -> avg;
            case "median" -> median;
            case "p90" -> p90;
            case "p95" -> p95;
            case "p99" -> p99;
            case "max" -> max;
            default -> throw new IllegalArgumentException("latency statistic \"" + statistic + "\" is not one of "
                    + "min|avg|median|p90|p95|p99|max");
        };
    }
}
