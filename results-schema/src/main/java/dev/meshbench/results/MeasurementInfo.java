package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * How a run judged its own measurements: the rules the results were checked against, so a flag in the results can
 * be read back to the rule that set it.
 *
 * @param saturationThresholdPercent a step whose host CPU was busier than this, in percent of all cores, is flagged
 *                                   {@code saturated} ({@link StepHost})
 * @param driftThresholdPercent      a step whose throughput in the last third of its window differs from the first
 *                                   third by more than this, in percent, is flagged not steady ({@link StepDrift});
 *                                   {@code null} in runs that recorded none, read as the default
 */
@JsonPropertyOrder({"saturationThresholdPercent", "driftThresholdPercent"})
public record MeasurementInfo(@JsonProperty(required = true) double saturationThresholdPercent, Double driftThresholdPercent) {
    /** The default: above 90% busy, the components wait for CPU more than they use it. */
    public static final double DEFAULT_SATURATION_PERCENT = 90;
    /** The default: throughput that moves more than 10% within a step has not settled. */
    public static final double DEFAULT_DRIFT_PERCENT = 10;
    public static final MeasurementInfo DEFAULT = new MeasurementInfo(DEFAULT_SATURATION_PERCENT, DEFAULT_DRIFT_PERCENT);

    /** The drift threshold, the default where none was recorded. */
    public double driftOrDefault() {
        return driftThresholdPercent == null ? DEFAULT_DRIFT_PERCENT : driftThresholdPercent;
    }

    public MeasurementInfo {
        if (driftThresholdPercent != null && !(driftThresholdPercent > 0)) {
            throw new IllegalArgumentException("measurement.driftThresholdPercent (" + driftThresholdPercent + ") must be above 0");
        }
        if (!(saturationThresholdPercent > 0 && saturationThresholdPercent <= 100)) {
            throw new IllegalArgumentException("measurement.saturationThresholdPercent (" + saturationThresholdPercent
                    + ") must be above 0 and at most 100");
        }
    }
}
