package dev.meshbench.dataplane.config;

import java.util.Objects;

/**
 * A new listener configuration a running component did not apply, and why. A refused configuration changes nothing:
 * the listeners, their connections and the version in force stay as they were.
 */
public final class ConfigRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why, with the HTTP status {@code PUT /config} answers. */
    public enum Reason {
        /** The version or the body is not a configuration of this command (unparsable, invalid): 400. */
        BAD_INPUT(400),
        /**
         * It is one, but not one this process can switch to while it runs: it changes an option fixed at start (name,
         * admin port, TLS files, provider, ...), or a listener it adds cannot bind its port: 409.
         */
        CONFLICT(409),
        /** The component takes no configuration over HTTP (started from the Java API, which has {@code apply}): 501. */
        NOT_SUPPORTED(501);

        private final int httpStatus;

        Reason(int httpStatus) {
            this.httpStatus = httpStatus;
        }

        public int httpStatus() {
            return httpStatus;
        }
    }

    private final Reason reason;

    public ConfigRefusedException(Reason reason, String message) {
        this(reason, message, null);
    }

    public ConfigRefusedException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public static ConfigRefusedException badInput(String message) {
        return new ConfigRefusedException(Reason.BAD_INPUT, message);
    }

    public static ConfigRefusedException conflict(String message) {
        return new ConfigRefusedException(Reason.CONFLICT, message);
    }

    public Reason reason() {
        return reason;
    }
}
