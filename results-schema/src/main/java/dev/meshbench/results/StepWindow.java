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

    /**
     * How much longer than planned a step may run before it is flagged overran, as a share of its planned length:
     * JMeter checks a step's end before each request, so a healthy step ends within one response time of its plan;
     * 10% keeps the study's 300-s steps from being flagged for less than 30 s of tail.
     */
    public static final double OVERRUN_TOLERANCE = 0.10;
    /**
     * The least slack, ms, whatever the step's length: starting the step's threads and the last response (up to
     * seconds on a busy host) take this long on short steps (the kit's 6-to-20-s ones) without the step overrunning.
     */
    public static final long OVERRUN_MIN_SLACK_MS = 5_000;

    /** What a step that overran means, for tables and the report. */
    public static final String OVERRAN_MEANING = "overran: the step ran clearly longer than its planned length (its "
            + "window runs from its first request's start to its last one's end), so the load generator could not start "
            + "or stop its clients in time (too many clients for this machine, or the answers took too long); its "
            + "throughput is over a longer window than planned";

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

    /** How long the step ran, ms; {@code null} until it has run. */
    @JsonIgnore
    public Long lengthMs() {
        return hasRun() ? endEpochMs - startEpochMs : null;
    }

    /**
     * True when the step has run and lasted longer than {@code plannedSeconds} by more than {@link #OVERRUN_TOLERANCE}
     * of it or {@link #OVERRUN_MIN_SLACK_MS}, whichever is larger.
     */
    public boolean overran(int plannedSeconds) {
        if (!hasRun()) {
            return false;
        }
        long planned = plannedSeconds * 1000L;
        return lengthMs() > planned + Math.max(OVERRUN_MIN_SLACK_MS, (long) (planned * OVERRUN_TOLERANCE));
    }

    /** True when both the start and the end are known. */
    @JsonIgnore
    public boolean hasRun() {
        return startEpochMs != null && endEpochMs != null;
    }
}
