package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What one request type (a JMeter sampler's label, e.g. {@code QueryFlight}) measured in one step's window, counted
 * as the step counts ({@link StepResult}): its successful samples are its transactions, and its response times come
 * from its own HdrHistogram, so its percentiles are exact below 2048 ms as the step's are.
 *
 * @param label               the sampler's label in {@code samples.jtl}
 * @param samples             samples with this label in the window: {@code transactions + errors}
 * @param transactions        successful samples
 * @param errors              failed samples
 * @param throughputPerSecond {@code transactions / measuredSeconds} of the step
 * @param latencyMs           response time of the successful samples; {@code null} when there were none
 */
@JsonPropertyOrder({"label", "samples", "transactions", "errors", "throughputPerSecond", "latencyMs"})
public record LabelResult(
        @JsonProperty(required = true) String label,
        @JsonProperty(required = true) long samples,
        @JsonProperty(required = true) long transactions,
        @JsonProperty(required = true) long errors,
        @JsonProperty(required = true) double throughputPerSecond,
        @JsonInclude(JsonInclude.Include.NON_NULL) LatencyStats latencyMs) {

    public LabelResult {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("labels[].label must not be empty");
        }
        Checks.notNegative("labels[" + label + "].transactions", transactions);
        Checks.notNegative("labels[" + label + "].errors", errors);
        Checks.notNegative("labels[" + label + "].throughputPerSecond", throughputPerSecond);
        if (samples != transactions + errors) {
            throw new IllegalArgumentException("labels[" + label + "]: samples (" + samples + ") must equal transactions ("
                    + transactions + ") + errors (" + errors + ")");
        }
        if ((latencyMs == null) != (transactions == 0)) {
            throw new IllegalArgumentException("labels[" + label + "]: latencyMs must be present exactly when there are "
                    + "transactions (" + transactions + ")");
        }
    }

    /** Failed samples as a fraction of this label's samples. */
    public double errorRatio() {
        return samples == 0 ? 0 : (double) errors / samples;
    }
}
