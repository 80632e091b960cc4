package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import java.util.TreeMap;

/**
 * One load phase of a latency cell: the closed-loop phase that finds the maximum rate, or the open-loop phase at a
 * fraction of it. Latencies of an open-loop phase count from each request's <em>intended</em> send time, so a
 * request that waited for a free connection carries its wait (no coordinated omission).
 *
 * @param connections      connections the generator used
 * @param seconds          measured duration, seconds (warm-up excluded)
 * @param requests         requests completed in the measured window, errors included
 * @param errors           failed requests by kind ({@code http-503}, {@code connect}, {@code timeout}, {@code io})
 * @param targetRate       requests/s the schedule asked for; {@code null} for a closed loop
 * @param achievedRate     requests/s completed
 * @param p50              50th percentile, ms (all latencies ms, from the histogram, 3 significant digits)
 * @param p90              90th percentile, ms
 * @param p99              99th percentile, ms
 * @param p999             99.9th percentile, ms
 * @param max              slowest, ms
 * @param mean             mean, ms
 * @param lateSends        open loop: requests sent later than their intended time by more than the generator's
 *                         tolerance; 0 for a closed loop
 * @param maxSendLagMs     open loop: the largest delay between a request's intended and actual send time, ms
 * @param missed           open loop: requests due within the phase that were never sent
 * @param fellBehind       open loop: the generator could not keep its schedule, so the rate was not offered as asked
 * @param fellBehindReason why, in words; {@code null} when it kept up
 * @param serviceTime      open loop: the same percentiles counted from each request's <em>actual</em> send, what a
 *                         tool prone to coordinated omission reports; the gap to {@code p50}..{@code p999} is time
 *                         requests waited behind the schedule (for a free connection or a late generator).
 *                         {@code null} for a closed loop (there it equals the latency) and in older files
 * @param histogram        the latency histogram, HdrHistogram's compressed encoding in base64 (microseconds), so
 *                         runs can be merged
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"connections", "seconds", "requests", "errors", "targetRate", "achievedRate", "p50", "p90", "p99", "p999",
        "max", "mean", "lateSends", "maxSendLagMs", "missed", "fellBehind", "fellBehindReason", "serviceTime", "histogram"})
public record LoadPhase(
        @JsonProperty(required = true) int connections,
        @JsonProperty(required = true) double seconds,
        @JsonProperty(required = true) long requests,
        @JsonProperty(required = true) Map<String, Long> errors,
        Double targetRate,
        @JsonProperty(required = true) double achievedRate,
        @JsonProperty(required = true) double p50,
        @JsonProperty(required = true) double p90,
        @JsonProperty(required = true) double p99,
        @JsonProperty(required = true) double p999,
        @JsonProperty(required = true) double max,
        @JsonProperty(required = true) double mean,
        @JsonProperty(required = true) long lateSends,
        @JsonProperty(required = true) double maxSendLagMs,
        @JsonProperty(required = true) long missed,
        @JsonProperty(required = true) boolean fellBehind,
        String fellBehindReason,
        ServiceTime serviceTime,
        String histogram) {

    public LoadPhase {
        Checks.positive("connections", connections);
        Checks.notNegative("seconds", seconds);
        Checks.notNegative("requests", requests);
        errors = new TreeMap<>(Checks.present("errors", errors));
        if (targetRate != null) {
            Checks.positive("targetRate", targetRate);
        }
        Checks.notNegative("achievedRate", achievedRate);
        Checks.notNegative("lateSends", lateSends);
        Checks.notNegative("missed", missed);
        if (fellBehind && (fellBehindReason == null || fellBehindReason.isBlank())) {
            throw new IllegalArgumentException("fellBehindReason must say why a phase fell behind its schedule");
        }
    }

    /** Percentiles of the time from a request's actual send to the end of its answer, ms. */
    @JsonPropertyOrder({"p50", "p90", "p99", "p999"})
    public record ServiceTime(
            @JsonProperty(required = true) double p50,
            @JsonProperty(required = true) double p90,
            @JsonProperty(required = true) double p99,
            @JsonProperty(required = true) double p999) {
        public ServiceTime {
            Checks.notNegative("serviceTime.p50", p50);
            Checks.notNegative("serviceTime.p90", p90);
            Checks.notNegative("serviceTime.p99", p99);
            Checks.notNegative("serviceTime.p999", p999);
        }
    }

    /** Failed requests, all kinds. */
    @JsonIgnore
    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Failed requests as a percentage of all requests (100 when none completed). */
    @JsonIgnore
    public double errorPercent() {
        return requests == 0 ? 100 : 100.0 * errorCount() / requests;
    }

    /** True for the open-loop phase (it had a schedule). */
    @JsonIgnore
    public boolean openLoop() {
        return targetRate != null;
    }
}
