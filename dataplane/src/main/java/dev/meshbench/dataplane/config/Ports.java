package dev.meshbench.dataplane.config;

/** Port number parsing with messages that name the value. */
public final class Ports {
    private Ports() {
    }

    /** Parses a port in {@code [min, 65535]}; {@code what} names the value in the error. */
    public static int parse(String text, String what, int min) {
        try {
            return parse(text, min);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " " + e.getMessage());
        }
    }

    /** Parses a port in {@code [min, 65535]}; the error says what is wrong, without naming the value. */
    public static int parse(String text, int min) {
        int port;
        try {
            port = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a number " + min + "-65535 (got '" + text + "')");
        }
        if (port < min || port > 65535) {
            throw new IllegalArgumentException("must be " + min + "-65535 (got " + port + ")");
        }
        return port;
    }

    public static int check(int port, String what, int min) {
        if (port < min || port > 65535) {
            throw new IllegalArgumentException(what + " must be " + min + "-65535 (got " + port + ")");
        }
        return port;
    }
}
