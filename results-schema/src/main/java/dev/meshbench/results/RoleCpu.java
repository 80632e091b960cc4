package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * CPU of all components of one role during a step's measured window.
 *
 * @param cpuMillis           CPU time (user + system) of the role's components, milliseconds
 * @param cores               average cores busy: {@code cpuMillis} / window length
 * @param cpuMsPerTransaction {@code cpuMillis} / the step's transactions; {@code null} when there were none
 * @param components          how many components were added up
 */
@JsonPropertyOrder({"cpuMillis", "cores", "cpuMsPerTransaction", "components"})
public record RoleCpu(
        @JsonProperty(required = true) double cpuMillis,
        @JsonProperty(required = true) double cores,
        Double cpuMsPerTransaction,
        @JsonProperty(required = true) int components) {

    public RoleCpu {
        Checks.notNegative("cpuMillis", cpuMillis);
        Checks.notNegative("cores", cores);
        Checks.positive("components", components);
    }
}
