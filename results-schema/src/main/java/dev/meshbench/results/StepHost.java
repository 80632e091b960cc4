package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The machine during a step's measured window, from {@code host-samples.csv}: how busy all its cores were
 * ({@code /proc/stat}), how many threads were runnable, and what the load generator itself used.
 *
 * @param busyPercent            host CPU busy (not idle, not waiting for I/O), percent of all cores
 * @param runQueue               mean number of runnable threads ({@code procs_running}), all cores together
 * @param cores                  the host's cores, to read {@code runQueue} against
 * @param loadGeneratorCpuPercent CPU of the load generator's process, percent of one core; {@code null} when it was
 *                               not found
 * @param saturated              {@code busyPercent} above the run's threshold ({@link MeasurementInfo}): the
 *                               components queued for CPU, so throughput and latency measure that contention as
 *                               much as the mesh
 */
@JsonPropertyOrder({"busyPercent", "runQueue", "cores", "loadGeneratorCpuPercent", "saturated"})
public record StepHost(
        @JsonProperty(required = true) double busyPercent,
        @JsonProperty(required = true) double runQueue,
        @JsonProperty(required = true) int cores,
        Double loadGeneratorCpuPercent,
        @JsonProperty(required = true) boolean saturated) {

    /** What a saturated step's figures mean, for tables and the report. */
    public static final String SATURATED_MEANING = "saturated: the host's CPU was busier than the threshold, so the "
            + "components waited for cores and the step measures that contention as much as the mesh's cost; "
            + "compare cases at a load below saturation";

    public StepHost {
        if (!(busyPercent >= 0 && busyPercent <= 100.5)) {
            throw new IllegalArgumentException("host.busyPercent (" + busyPercent + ") must be between 0 and 100");
        }
        Checks.notNegative("host.runQueue", runQueue);
        Checks.positive("host.cores", cores);
        if (loadGeneratorCpuPercent != null) {
            Checks.notNegative("host.loadGeneratorCpuPercent", loadGeneratorCpuPercent);
        }
    }
}
