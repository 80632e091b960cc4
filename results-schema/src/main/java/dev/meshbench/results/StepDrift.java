package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Whether a step ran at steady state: the throughput of the first and last thirds of its measured window, by the
 * start times of the successful samples. A step whose throughput still climbs (JIT warm-up, caches filling) or
 * sinks (a queue building up) is flagged not steady: its mean hides a trend.
 *
 * @param firstThirdPerSecond throughput in the window's first third, transactions per second
 * @param lastThirdPerSecond  throughput in the window's last third
 * @param changePercent       {@code (last - first) / first}, percent; {@code null} when the first third had none
 * @param steady              the change is within the run's drift threshold ({@link MeasurementInfo})
 */
@JsonPropertyOrder({"firstThirdPerSecond", "lastThirdPerSecond", "changePercent", "steady"})
public record StepDrift(
        @JsonProperty(required = true) double firstThirdPerSecond,
        @JsonProperty(required = true) double lastThirdPerSecond,
        Double changePercent,
        @JsonProperty(required = true) boolean steady) {

    /** What a step that is not steady means, for tables and the report. */
    public static final String NOT_STEADY_MEANING = "not steady: throughput moved between the first and last thirds "
            + "of the window by more than the threshold, so the step's mean hides a trend (warm-up not over, or a "
            + "queue building up); give more warm-up or longer steps";

    public StepDrift {
        Checks.notNegative("drift.firstThirdPerSecond", firstThirdPerSecond);
        Checks.notNegative("drift.lastThirdPerSecond", lastThirdPerSecond);
    }
}
