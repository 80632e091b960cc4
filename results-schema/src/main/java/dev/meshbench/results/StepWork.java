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
 */
@JsonPropertyOrder({"mongoCommandsPerTransaction", "interServiceCallsPerTransaction", "mongoPathBytesPerTransaction"})
public record StepWork(Double mongoCommandsPerTransaction, Double interServiceCallsPerTransaction,
        Double mongoPathBytesPerTransaction) {

    public StepWork {
        nonNegative("mongoCommandsPerTransaction", mongoCommandsPerTransaction);
        nonNegative("interServiceCallsPerTransaction", interServiceCallsPerTransaction);
        nonNegative("mongoPathBytesPerTransaction", mongoPathBytesPerTransaction);
    }

    private static void nonNegative(String name, Double v) {
        if (v != null) {
            Checks.notNegative(name, v);
        }
    }
}
