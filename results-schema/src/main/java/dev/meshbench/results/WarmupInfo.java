package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The warm-up before a run's first measured step: JMeter at the ramp's highest step, samples thrown away, until
 * throughput is stable or for a fixed time. JVMs of a dozen fresh processes need it: without it the first steps
 * measure JIT compilation and cold caches.
 *
 * @param mode             {@code stable}: until two successive windows agree within the tolerance, at most
 *                         {@code limitSeconds}; {@code fixed}: exactly {@code limitSeconds}; {@code none}
 * @param limitSeconds     the cap ({@code stable}) or the duration ({@code fixed}); 0 for {@code none}
 * @param windowSeconds    length of the windows compared ({@code stable})
 * @param tolerancePercent how far two successive windows' throughputs may differ, percent of the larger
 * @param clients          the clients the warm-up ran with
 * @param tookSeconds      how long it ran
 * @param stable           {@code stable} mode: whether the rule was met before the cap ({@code false}: capped);
 *                         {@code null} for the other modes
 * @param windowsPerSecond throughput of each window, requests per second, in order
 */
@JsonPropertyOrder({"mode", "limitSeconds", "windowSeconds", "tolerancePercent", "clients", "tookSeconds", "stable",
        "windowsPerSecond"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WarmupInfo(
        @JsonProperty(required = true) String mode,
        @JsonProperty(required = true) int limitSeconds,
        int windowSeconds,
        double tolerancePercent,
        int clients,
        double tookSeconds,
        Boolean stable,
        List<Double> windowsPerSecond) {
    public static final String STABLE = "stable";
    public static final String FIXED = "fixed";
    public static final String NONE = "none";

    public WarmupInfo {
        if (!List.of(STABLE, FIXED, NONE).contains(mode)) {
            throw new IllegalArgumentException("warmup.mode (" + mode + ") must be stable, fixed or none");
        }
        windowsPerSecond = windowsPerSecond == null ? List.of() : List.copyOf(windowsPerSecond);
    }
}
