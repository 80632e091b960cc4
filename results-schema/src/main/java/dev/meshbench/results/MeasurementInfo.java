package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * How a run judged its own measurements: the rules the results were checked against, so a flag in the results can
 * be read back to the rule that set it.
 *
 * @param saturationThresholdPercent a step whose host CPU was busier than this, in percent of all cores, is flagged
 *                                   {@code saturated} ({@link StepHost})
 */
@JsonPropertyOrder({"saturationThresholdPercent"})
public record MeasurementInfo(@JsonProperty(required = true) double saturationThresholdPercent) {
    /** The default: above 90% busy, the components wait for CPU more than they use it. */
    public static final double DEFAULT_SATURATION_PERCENT = 90;
    public static final MeasurementInfo DEFAULT = new MeasurementInfo(DEFAULT_SATURATION_PERCENT);

    public MeasurementInfo {
        if (!(saturationThresholdPercent > 0 && saturationThresholdPercent <= 100)) {
            throw new IllegalArgumentException("measurement.saturationThresholdPercent (" + saturationThresholdPercent
                    + ") must be above 0 and at most 100");
        }
    }
}
