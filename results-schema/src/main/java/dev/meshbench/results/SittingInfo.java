package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * Where a run stood in its sitting: the method that brought its case up, its round and its place in the sitting's
 * order, so that the report can pair the runs of one round and say how the cases were interleaved.
 *
 * @param id            the sitting, the name of its folder beside the runs ({@code 20261129-101500-sitting}); every run
 *                      of one sitting carries the same
 * @param method        {@link #SWITCHED}: the application was deployed and warmed once and this run's case was switched
 *                      in underneath it; {@link #FRESH}: this run deployed its case from scratch and tore it down
 * @param order         the cases of this run's round, in the order that round runs them: with the switched method,
 *                      bypass first in odd rounds and last in even ones (every second round the other way round); the
 *                      calibration's is the first round's
 * @param round         this run's round, 1-based (also {@code measurement.repeat})
 * @param position      this run's place in the whole sitting, 1-based: round by round, case by case (the calibration, if
 *                      any, is 0)
 * @param switchSeconds how long switching this run's case in took, from the first change to every proxy and service
 *                      confirming it, seconds; absent for the first case of a sitting and for the fresh method
 * @param switched      what the switch changed, in words, in the order it was done (e.g. {@code started egress-gateway},
 *                      {@code sidecar-auth: configuration gateway-2 (Envoy, LDS/CDS from files) applied}); absent where
 *                      nothing was switched
 * @param bypassSwitch  how this sitting takes the mesh off the MongoDB path for bypass and puts it back, in words
 *                      (switched method only)
 */
@JsonPropertyOrder({"id", "method", "order", "round", "position", "switchSeconds", "switched", "bypassSwitch"})
public record SittingInfo(
        @JsonProperty(required = true) String id,
        @JsonProperty(required = true) String method,
        @JsonProperty(required = true) List<String> order,
        @JsonProperty(required = true) int round,
        @JsonProperty(required = true) int position,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double switchSeconds,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> switched,
        @JsonInclude(JsonInclude.Include.NON_NULL) String bypassSwitch) {

    /** The application deployed and warmed once, each case switched in underneath it. */
    public static final String SWITCHED = "switched";
    /** Each run deploys its case from scratch and tears it down. */
    public static final String FRESH = "fresh";

    public SittingInfo {
        Checks.text("sitting.id", id);
        if (!SWITCHED.equals(method) && !FRESH.equals(method)) {
            throw new IllegalArgumentException("sitting.method '" + method + "' must be " + SWITCHED + " or " + FRESH);
        }
        order = order == null ? List.of() : List.copyOf(order);
        if (order.isEmpty()) {
            throw new IllegalArgumentException("sitting.order must name at least one case");
        }
        if (round < 1) {
            throw new IllegalArgumentException("sitting.round (" + round + ") must be at least 1");
        }
        if (position < 0) {
            throw new IllegalArgumentException("sitting.position (" + position + ") must be 0 (the calibration) or more");
        }
        if (switchSeconds != null && !(switchSeconds >= 0)) {
            throw new IllegalArgumentException("sitting.switchSeconds (" + switchSeconds + ") must be 0 or more");
        }
        switched = switched == null ? List.of() : List.copyOf(switched);
    }

    /** Whether the run's case was switched in under a warm application ({@link #SWITCHED}). */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean switchedMethod() {
        return SWITCHED.equals(method);
    }

    /** The same with how the switch into this run's case went. */
    public SittingInfo withSwitch(double seconds, List<String> what) {
        return new SittingInfo(id, method, order, round, position, seconds, what, bypassSwitch);
    }
}
