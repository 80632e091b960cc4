package dev.meshbench.pki;

/** A certificate, key or TLS configuration could not be made, read or written. */
public class PkiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PkiException(String message, Throwable cause) {
        super(message + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()), cause);
    }

    public PkiException(String message) {
        super(message);
    }
}
