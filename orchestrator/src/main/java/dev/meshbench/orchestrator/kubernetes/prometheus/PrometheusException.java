package dev.meshbench.orchestrator.kubernetes.prometheus;

/**
 * A Prometheus query failed: not reachable, an HTTP error, an error status or an answer this client cannot read.
 * The message names the operation, the endpoint and the cause, e.g. {@code Prometheus query_range at
 * http://127.0.0.1:9090/api/v1/query_range: connection refused}; it never holds credentials or headers.
 */
public class PrometheusException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PrometheusException(String message) {
        super(message);
    }

    public PrometheusException(String message, Throwable cause) {
        super(message, cause);
    }
}
