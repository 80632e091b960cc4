package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * What the application did per transaction: the driver's request mix and data, and the two service behaviours
 * that decide how often a request reaches MongoDB. Runs of different workloads are never mixed in one figure.
 *
 * @param mix          {@code original}: the original Acmeair driver's dates, airports and users (most bookings one
 *                     way); {@code roundtrip}: the kit's first plan (random airport pairs, a round trip booked on
 *                     every found flight)
 * @param flightCache  the flight service cached segments, flights and reward miles (the original's default)
 * @param rewardsAsync the booking service updated reward miles after answering (the original's way)
 */
@JsonPropertyOrder({"mix", "flightCache", "rewardsAsync"})
public record WorkloadInfo(
        @JsonProperty(required = true) String mix,
        @JsonProperty(required = true) boolean flightCache,
        @JsonProperty(required = true) boolean rewardsAsync) {

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
