package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The application's work per transaction in a step's measured window: counter differences between the window's
 * edges (each counter interpolated linearly between the two samples around an edge) divided by the window's
 * transactions (successful JMeter samples). Work done for failed samples is included, so with errors the figures
 * lean high.
 *
 * @param mongoCommandsPerTransaction     MongoDB commands the services sent (the driver's command listener, all
 *                                        commands but health pings), including those run off the request path
 *                                        (asynchronous reward updates)
 * @param interServiceCallsPerTransaction HTTP calls from one Acmeair service to another
 * @param mongoPathBytesPerTransaction    bytes both ways through the first mesh hop on the MongoDB path (the hop
 *                                        counters); {@code null} when MongoDB traffic takes no mesh hop (bypass)
 *                                        or no hop counters were sampled
 * @param serviceMs                       mean time a client request spent in the service that received it, by that
 *                                        service's own timer, milliseconds with sub-millisecond resolution (JMeter's
 *                                        are whole milliseconds): its calls to other services and to MongoDB through
 *                                        the mesh are inside it, the ingress gateway and its own inbound sidecar are
 *                                        not; the mean over the window, no percentiles; {@code null} where not sampled
 */
@JsonPropertyOrder({"mongoCommandsPerTransaction", "interServiceCallsPerTransaction", "mongoPathBytesPerTransaction",
        "serviceMs"})
public record StepWork(Double mongoCommandsPerTransaction, Double interServiceCallsPerTransaction,
        Double mongoPathBytesPerTransaction,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Double serviceMs) {

    /** Work counted before the services' own timers were. */
    public StepWork(Double mongoCommandsPerTransaction, Double interServiceCallsPerTransaction, Double mongoPathBytesPerTransaction) {
        this(mongoCommandsPerTransaction, interServiceCallsPerTransaction, mongoPathBytesPerTransaction, null);
    }

    public StepWork {
        nonNegative("mongoCommandsPerTransaction", mongoCommandsPerTransaction);
        nonNegative("interServiceCallsPerTransaction", interServiceCallsPerTransaction);
        nonNegative("mongoPathBytesPerTransaction", mongoPathBytesPerTransaction);
        nonNegative("serviceMs", serviceMs);
    }

    private static void nonNegative(String name, Double v) {
        if (v != null) {
            Checks.notNegative(name, v);
        }
    }
}
