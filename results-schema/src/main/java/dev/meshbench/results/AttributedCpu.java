package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The mesh CPU of one side of {@link MeshAttribution} during a step's measured window.
 *
 * @param cpuMillis           CPU time (user + system), milliseconds: the sum of the side's {@link MeshPart}s
 * @param cpuMsPerTransaction {@code cpuMillis} / the step's transactions; {@code null} when there were none
 */
@JsonPropertyOrder({"cpuMillis", "cpuMsPerTransaction"})
public record AttributedCpu(@JsonProperty(required = true) double cpuMillis, Double cpuMsPerTransaction) {
    public AttributedCpu {
        Checks.notNegative("cpuMillis", cpuMillis);
        if (cpuMsPerTransaction != null) {
            Checks.notNegative("cpuMsPerTransaction", cpuMsPerTransaction);
        }
    }
}
