package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The warm-up before a run's first measured step: JMeter at the ramp's highest step (at its rate, if any), samples
 * thrown away, until the system is warm or for a fixed time. JVMs of a dozen fresh processes need it: without it the
 * first steps measure JIT compilation and cold caches.
 *
 * @param mode             {@code stable}: until warm (the JIT quiet in every JVM, no trend in throughput and CPU per
 *                         request over the last {@code trendWindows} windows), at most {@code limitSeconds};
 *                         {@code fixed}: exactly {@code limitSeconds}; {@code none}
 * @param limitSeconds     the cap ({@code stable}) or the duration ({@code fixed}); 0 for {@code none}
 * @param windowSeconds    length of the windows judged ({@code stable})
 * @param tolerancePercent how much throughput and CPU per request may change over the last {@code trendWindows}
 *                         windows (least-squares trend), percent of their mean
 * @param clients          the clients the warm-up ran with
 * @param tookSeconds      how long it ran
 * @param stable           {@code stable} mode: whether it was warm before the cap ({@code false}: capped);
 *                         {@code null} for the other modes
 * @param windowsPerSecond throughput of each window, requests per second, in order
 * @param trendWindows     how many of the last windows the trend is judged over; absent in runs before it was recorded
 * @param jitQuietMs       the most CPU any one JVM's JIT compiler threads may use in a window for the JIT to count as
 *                         quiet, milliseconds; absent where the target cannot see its JVMs' compilers
 * @param cpuMsPerRequest  CPU of every component per request in each window, milliseconds; absent where not sampled
 * @param compileMs        the most CPU one JVM's JIT compiler threads used in each window, milliseconds
 * @param reason           why the warm-up ended, in words (warm, and by which signs; or what was still moving at the cap)
 */
@JsonPropertyOrder({"mode", "limitSeconds", "windowSeconds", "tolerancePercent", "clients", "tookSeconds", "stable",
        "reason", "trendWindows", "jitQuietMs", "windowsPerSecond", "cpuMsPerRequest", "compileMs"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WarmupInfo(
        @JsonProperty(required = true) String mode,
        @JsonProperty(required = true) int limitSeconds,
        int windowSeconds,
        double tolerancePercent,
        int clients,
        double tookSeconds,
        Boolean stable,
        List<Double> windowsPerSecond,
        Integer trendWindows,
        Double jitQuietMs,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Double> cpuMsPerRequest,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Double> compileMs,
        String reason) {
    public static final String STABLE = "stable";
    public static final String FIXED = "fixed";
    public static final String NONE = "none";

    /** A plan, or a warm-up recorded before its rule had trend windows and the JIT. */
    public WarmupInfo(String mode, int limitSeconds, int windowSeconds, double tolerancePercent, int clients,
            double tookSeconds, Boolean stable, List<Double> windowsPerSecond) {
        this(mode, limitSeconds, windowSeconds, tolerancePercent, clients, tookSeconds, stable, windowsPerSecond, null,
                null, List.of(), List.of(), null);
    }

    public WarmupInfo {
        if (!List.of(STABLE, FIXED, NONE).contains(mode)) {
            throw new IllegalArgumentException("warmup.mode (" + mode + ") must be stable, fixed or none");
        }
        windowsPerSecond = windowsPerSecond == null ? List.of() : List.copyOf(windowsPerSecond);
        cpuMsPerRequest = cpuMsPerRequest == null ? List.of() : List.copyOf(cpuMsPerRequest);
        compileMs = compileMs == null ? List.of() : List.copyOf(compileMs);
    }
}
