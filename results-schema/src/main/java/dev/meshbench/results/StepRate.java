package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A step run at a fixed arrival rate ({@code meshbench.rate}): the target and what the load generator achieved.
 * A step that fell short by more than the run's threshold did not hold the rate: the system (or the load
 * generator's thread pool) could not keep up, so its figures are not at the offered load.
 *
 * @param targetPerSecond   requests per second asked for
 * @param achievedPerSecond requests per second sent in the measured window (successful and failed)
 * @param held              achieved is at most the threshold short of the target ({@link MeasurementInfo})
 */
@JsonPropertyOrder({"targetPerSecond", "achievedPerSecond", "held"})
public record StepRate(
        @JsonProperty(required = true) double targetPerSecond,
        @JsonProperty(required = true) double achievedPerSecond,
        @JsonProperty(required = true) boolean held) {

    /** What a step that did not hold its rate means, for tables and the report. */
    public static final String NOT_HELD_MEANING = "did not hold the rate: fewer requests were sent than the target, "
            + "because answers came too slowly for the step's threads (clients) or the host was saturated; its "
            + "figures are not at the offered load: lower the rate or give more clients";

    public StepRate {
        if (!(targetPerSecond > 0)) {
            throw new IllegalArgumentException("rate.targetPerSecond (" + targetPerSecond + ") must be above 0");
        }
        Checks.notNegative("rate.achievedPerSecond", achievedPerSecond);
    }
}
