package dev.meshbench.dataplane;

/** A listener (or the admin endpoint) of a component could not bind its port. */
public final class ListenerBindException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String operation;

    public ListenerBindException(String component, String listener, String host, int port, Throwable cause) {
        super(component + ": binding " + listener + " to " + host + ":" + port + " failed: " + reason(cause), cause);
        this.operation = "binding " + listener + " to " + host + ":" + port;
    }

    /** {@code binding listener mongo to 127.0.0.1:27017}, for {@code ComponentMain.fail}. */
    public String operation() {
        return operation;
    }

    private static String reason(Throwable t) {
        return t == null || t.getMessage() == null ? String.valueOf(t) : t.getMessage();
    }
}
