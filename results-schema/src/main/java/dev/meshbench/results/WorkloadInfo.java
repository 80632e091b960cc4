package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the application did per transaction: the driver's request mix and data, and the two service behaviours
 * that decide how often a request reaches MongoDB. Runs of different workloads are never mixed in one figure.
 *
 * @param mix          {@code original}: the original Acmeair driver's dates, airports and users (most bookings one
 *                     way); {@code roundtrip}: the kit's first plan (random airport pairs, a round trip booked on
 *                     every found flight)
 * @param flightCache  the flight service cached segments, flights and reward miles (the original's default)
 * @param rewardsAsync the booking service updated reward miles after answering (the original's way)
 * @param addedLatencyMs a deliberate slowdown per service (milliseconds before each API request), standing for a
 *                     regression to try the regression gate with; absent or empty when none. Not part of
 *                     {@link #differences()}: a slowed run is compared with unslowed ones, which is its purpose
 */
@JsonPropertyOrder({"mix", "flightCache", "rewardsAsync", "addedLatencyMs"})
public record WorkloadInfo(
        @JsonProperty(required = true) String mix,
        @JsonProperty(required = true) boolean flightCache,
        @JsonProperty(required = true) boolean rewardsAsync,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Integer> addedLatencyMs) {

    /** No deliberate slowdown. */
    public WorkloadInfo(String mix, boolean flightCache, boolean rewardsAsync) {
        this(mix, flightCache, rewardsAsync, Map.of());
    }

    public static final String ORIGINAL_MIX = "original";
    public static final String ROUNDTRIP_MIX = "roundtrip";
    /** The mixes, default first. */
    public static final List<String> MIXES = List.of(ORIGINAL_MIX, ROUNDTRIP_MIX);

    /** As the study ran Acmeair: the original driver and services. The default. */
    public static final WorkloadInfo ORIGINAL = new WorkloadInfo(ORIGINAL_MIX, true, true);

    /** What every run before schema version 3 ran: round trips, no flight cache, rewards before the answer. */
    public static final WorkloadInfo FIRST_VERSION = new WorkloadInfo(ROUNDTRIP_MIX, false, false);

    public WorkloadInfo {
        if (!MIXES.contains(mix)) {
            throw new IllegalArgumentException("workload.mix (" + mix + ") must be one of " + MIXES);
        }
        addedLatencyMs = addedLatencyMs == null ? Map.of() : Map.copyOf(new TreeMap<>(addedLatencyMs));
        addedLatencyMs.forEach((svc, ms) -> {
            if (ms == null || ms < 0) {
                throw new IllegalArgumentException("workload.addedLatencyMs." + svc + " (" + ms + ") must be 0 or more");
            }
        });
    }

    /** E.g. {@code flight +200 ms}: the deliberate slowdown, empty when none. */
    @JsonIgnore
    public String slowdown() {
        return String.join(", ", new TreeMap<>(addedLatencyMs).entrySet().stream()
                .map(e -> e.getKey() + " +" + e.getValue() + " ms").toList());
    }

    /**
     * How the workload differs from {@link #ORIGINAL}, for series names: empty for the original, else e.g.
     * {@code "roundtrip mix, no flight cache, sync rewards"}.
     */
    @JsonIgnore
    public String differences() {
        List<String> d = new ArrayList<>();
        if (!ORIGINAL_MIX.equals(mix)) {
            d.add(mix + " mix");
        }
        if (!flightCache) {
            d.add("no flight cache");
        }
        if (!rewardsAsync) {
            d.add("sync rewards");
        }
        return String.join(", ", d);
    }
}
