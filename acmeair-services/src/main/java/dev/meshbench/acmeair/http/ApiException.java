package dev.meshbench.acmeair.http;

/** A request cannot be served; {@link #status()} is the HTTP answer and the message says why, naming the input. */
public class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public ApiException(int status, String message) {
        super(message);
        this.status = status;
    }

    public ApiException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** Longest request value an error message quotes whole. */
    public static final int QUOTED_MAX = 64;

    /**
     * A value from the request as every error message quotes it: {@code 'value'} up to {@value #QUOTED_MAX} characters,
     * else its start and its length ({@code 'aaaa...' (999000 characters)}), so an answer never grows with the input.
     */
    public static String quoted(String value) {
        if (value == null) {
            return "(none)";
        }
        return value.length() <= QUOTED_MAX ? "'" + value + "'"
                : "'" + value.substring(0, QUOTED_MAX) + "...' (" + value.length() + " characters)";
    }

    /** 400, naming the field. */
    public static ApiException badField(String field, String problem) {
        return new ApiException(400, "field '" + field + "' " + problem);
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, message);
    }

    public static ApiException unauthorized(String message) {
        return new ApiException(401, message);
    }

    public static ApiException forbidden(String message) {
        return new ApiException(403, message);
    }

    /** 502: a peer service failed or could not be reached. */
    public static ApiException badGateway(String message, Throwable cause) {
        return new ApiException(502, message, cause);
    }
}
