package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Mesh CPU of a step split by {@link MeshPart}: what the MongoDB path cost, where the cases differ, and what every
 * case shares. The two add up to the step's mesh CPU ({@link StepCpu#mesh()}). Present only when every mesh
 * component's MongoDB share is known ({@link ComponentCpu#mongoPathShare()}); in bypass the MongoDB path is 0 by
 * construction (no mesh component on it).
 *
 * @param mongoPath egress gateway + SNI proxy + each sidecar's CPU times its MongoDB share
 * @param shared    ingress gateway + each sidecar's CPU times one minus its MongoDB share
 */
@JsonPropertyOrder({"mongoPath", "shared"})
public record MeshAttribution(@JsonProperty(required = true) AttributedCpu mongoPath,
        @JsonProperty(required = true) AttributedCpu shared) {
    public MeshAttribution {
        Checks.present("attribution.mongoPath", mongoPath);
        Checks.present("attribution.shared", shared);
    }
}
