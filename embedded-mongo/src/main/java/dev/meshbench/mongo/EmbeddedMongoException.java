package dev.meshbench.mongo;

/** The embedded MongoDB could not start: the message names the address or file and the cause. */
public class EmbeddedMongoException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EmbeddedMongoException(String message, Throwable cause) {
        super(message, cause);
    }
}
