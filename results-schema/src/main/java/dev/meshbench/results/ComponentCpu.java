package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * CPU of one component (all its processes) during a step's measured window.
 *
 * @param component           component name as sampled (e.g. {@code booking-sidecar}, {@code egress-gateway})
 * @param role                mesh, app, database or load
 * @param cpuMillis           CPU time (user + system) used in the window, milliseconds
 * @param cores               average cores busy: {@code cpuMillis} / window length
 * @param cpuMsPerTransaction {@code cpuMillis} / the step's transactions; {@code null} when there were none
 * @param coverage            fraction (0..1) of the window covered by this component's samples; below 1 the CPU
 *                            is undercounted (process started late, restarted, or stopped being sampled)
 * @param processes           processes (pids) of the component seen in the window; more than 1 means a restart
 * @param maxRssBytes         largest resident set size sampled in the window, bytes; {@code null} when none
 * @param mongoPathShare      the fraction (0..1) of a mesh component's CPU on the MongoDB path ({@link MeshPart}): 1 for
 *                            the egress gateway and the SNI proxy, 0 for the ingress gateway, for a sidecar its
 *                            MongoDB listener's bytes over all its listeners' bytes in the window (0 when the case
 *                            takes MongoDB traffic past the sidecars); absent when the step has no
 *                            {@link StepCpu#attribution()} and for other roles
 */
@JsonPropertyOrder({"component", "role", "cpuMillis", "cores", "cpuMsPerTransaction", "coverage", "processes",
        "maxRssBytes", "mongoPathShare"})
public record ComponentCpu(
        @JsonProperty(required = true) String component,
        @JsonProperty(required = true) ComponentRole role,
        @JsonProperty(required = true) double cpuMillis,
        @JsonProperty(required = true) double cores,
        Double cpuMsPerTransaction,
        @JsonProperty(required = true) double coverage,
        @JsonProperty(required = true) int processes,
        Long maxRssBytes,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double mongoPathShare) {

    /** A component without a MongoDB share (no attribution). */
    public ComponentCpu(String component, ComponentRole role, double cpuMillis, double cores,
            Double cpuMsPerTransaction, double coverage, int processes, Long maxRssBytes) {
        this(component, role, cpuMillis, cores, cpuMsPerTransaction, coverage, processes, maxRssBytes, null);
    }

    public ComponentCpu {
        Checks.text("component", component);
        Checks.present("role of " + component, role);
        Checks.notNegative("cpuMillis of " + component, cpuMillis);
        Checks.notNegative("cores of " + component, cores);
        if (!(coverage >= 0 && coverage <= 1)) {
            throw new IllegalArgumentException("coverage of " + component + " (" + coverage + ") must be within 0..1");
        }
        Checks.notNegative("processes of " + component, processes);
        if (mongoPathShare != null && !(mongoPathShare >= 0 && mongoPathShare <= 1)) {
            throw new IllegalArgumentException("mongoPathShare of " + component + " (" + mongoPathShare
                    + ") must be within 0..1");
        }
    }

    /** This component with {@code share} of its CPU on the MongoDB path. */
    public ComponentCpu withMongoPathShare(Double share) {
        return new ComponentCpu(component, role, cpuMillis, cores, cpuMsPerTransaction, coverage, processes,
                maxRssBytes, share);
    }
}
