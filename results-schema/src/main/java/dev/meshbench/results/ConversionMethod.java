package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * How {@code results.json} was computed, so a reader does not have to guess.
 *
 * @param latencyUnit                unit of every latency value ({@code ms})
 * @param histogramSignificantDigits HdrHistogram precision of the percentiles
 * @param failedSamplesInLatency     whether failed samples enter the latency statistics ({@code false}: only
 *                                   successful samples do; failures are counted in {@code errors})
 * @param cpuSamples                 whether the run had a {@code cpu-samples.csv}
 */
@JsonPropertyOrder({"latencyUnit", "histogramSignificantDigits", "failedSamplesInLatency", "cpuSamples"})
public record ConversionMethod(
        @JsonProperty(required = true) String latencyUnit,
        @JsonProperty(required = true) int histogramSignificantDigits,
        @JsonProperty(required = true) boolean failedSamplesInLatency,
        @JsonProperty(required = true) boolean cpuSamples) {

    public ConversionMethod {
        Checks.text("conversion.latencyUnit", latencyUnit);
    }

    /** The method of this converter. */
    public static ConversionMethod current(boolean cpuSamples) {
        return new ConversionMethod("ms", ResultsSchema.HISTOGRAM_SIGNIFICANT_DIGITS, false, cpuSamples);
    }
}
