package dev.meshbench.jmeter.extractors;

/** A response body is not the JSON the workload expects from that endpoint. */
public final class ResponseFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    public ResponseFormatException(String message) {
        super(message);
    }

    public ResponseFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
