package dev.meshbench.orchestrator.deploy;

/** A target could not deploy, reach or tear down a case. The message says which component and why. */
public class TargetException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TargetException(String message) {
        super(message);
    }

    public TargetException(String message, Throwable cause) {
        super(message, cause);
    }
}
