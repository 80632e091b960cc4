package dev.meshbench.acmeair;

/** A service could not start; the message names the service, the address and the cause. */
public class ServiceStartException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ServiceStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
