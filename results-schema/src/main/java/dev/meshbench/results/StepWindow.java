package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One load step of a run: a number of concurrent clients and, once the step has run, its wall-clock window.
 *
 * @param clients      concurrent JMeter threads during the step; also the value of the JTL's {@code step} column
 * @param startEpochMs when the step's clients started, epoch milliseconds; {@code null} until the step runs
 * @param endEpochMs   when the step's clients stopped, epoch milliseconds; {@code null} until the step ends
 */
@JsonPropertyOrder({"clients", "startEpochMs", "endEpochMs"})
public record StepWindow(
        @JsonProperty(required = true) int clients,
        Long startEpochMs,
        Long endEpochMs) {

    public StepWindow {
        Checks.positive("clients", clients);
        if (startEpochMs == null && endEpochMs != null) {
            throw new IllegalArgumentException("step of " + clients + " clients: endEpochMs (" + endEpochMs
                    + ") is set but startEpochMs is missing");
        }
        if (startEpochMs != null && endEpochMs != null && endEpochMs <= startEpochMs) {
            throw new IllegalArgumentException("step of " + clients + " clients: endEpochMs (" + endEpochMs
                    + ") must be after startEpochMs (" + startEpochMs + ")");
        }
    }

    /** A step that has not run yet. */
    public static StepWindow planned(int clients) {
        return new StepWindow(clients, null, null);
    }

    /** This step with its start time. */
    public StepWindow started(long epochMs) {
        return new StepWindow(clients, epochMs, null);
    }

    /** This step with its end time; the step must have started. */
    public StepWindow ended(long epochMs) {
        if (startEpochMs == null) {
            throw new IllegalStateException("step of " + clients + " clients cannot end before it started");
        }
        return new StepWindow(clients, startEpochMs, epochMs);
    }

    /** True when both the start and the end are known. */
    @JsonIgnore
    public boolean hasRun() {
        return startEpochMs != null && endEpochMs != null;
    }
}
