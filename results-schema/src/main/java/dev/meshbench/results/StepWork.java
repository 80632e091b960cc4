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
 * @param jitMs                           CPU each JVM of the deployment spent in its JIT compiler during the window,
 *                                        milliseconds, by component (not per transaction); empty where the target
 *                                        shows no JIT (a cluster). A JVM above the warm-up's quiet level was still
 *                                        compiling while the window measured ({@link #busiestJit})
 */
@JsonPropertyOrder({"mongoCommandsPerTransaction", "interServiceCallsPerTransaction", "mongoPathBytesPerTransaction",
        "serviceMs", "jitMs"})
public record StepWork(Double mongoCommandsPerTransaction, Double interServiceCallsPerTransaction,
        Double mongoPathBytesPerTransaction,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Double serviceMs,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
        java.util.Map<String, Double> jitMs) {

    /** Work counted before the services' own timers were. */
    public StepWork(Double mongoCommandsPerTransaction, Double interServiceCallsPerTransaction, Double mongoPathBytesPerTransaction) {
        this(mongoCommandsPerTransaction, interServiceCallsPerTransaction, mongoPathBytesPerTransaction, null, null);
    }

    /** What a window whose JIT was busy means, as the step table and the report say it. */
    public static final String JIT_BUSY_MEANING = "a JVM of the deployment was still compiling (its JIT above the warm-up's "
            + "quiet level) while the window measured: the JVMs were not yet warm, so the window's CPU and response times "
            + "include that work; the rounds' alternating order puts such a drift on every case alike";

    public StepWork {
        nonNegative("mongoCommandsPerTransaction", mongoCommandsPerTransaction);
        nonNegative("interServiceCallsPerTransaction", interServiceCallsPerTransaction);
        nonNegative("mongoPathBytesPerTransaction", mongoPathBytesPerTransaction);
        nonNegative("serviceMs", serviceMs);
        jitMs = jitMs == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(jitMs));
        jitMs.forEach((component, ms) -> Checks.notNegative("jitMs." + component, ms));
    }

    /**
     * The JVM whose JIT was busiest in the window, if any spent more than {@code quietMsPer10s} per 10 s of the window's
     * {@code seconds} (the warm-up's quiet level): {@code component=ms}.
     */
    public java.util.Optional<java.util.Map.Entry<String, Double>> busiestJit(double seconds, double quietMsPer10s) {
        if (!(seconds > 0)) {
            return java.util.Optional.empty();
        }
        return jitMs.entrySet().stream().max(java.util.Map.Entry.comparingByValue())
                .filter(e -> e.getValue() / seconds * 10 > quietMsPer10s);
    }

    private static void nonNegative(String name, Double v) {
        if (v != null) {
            Checks.notNegative(name, v);
        }
    }
}
