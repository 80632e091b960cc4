package dev.meshbench.acmeair.http;

import io.javalin.http.Context;
import java.time.LocalDate;

/** Reads form fields and query parameters; every failure is a 400 naming the field. */
public final class Forms {
    private Forms() {
    }

    public static String required(Context ctx, String field) {
        String v = ctx.formParam(field);
        if (v == null || v.isBlank()) {
            throw ApiException.badField(field, "is required (form-encoded body, Content-Type application/x-www-form-urlencoded)");
        }
        return v.trim();
    }

    public static String optional(Context ctx, String field) {
        String v = ctx.formParam(field);
        return v == null || v.isBlank() ? null : v.trim();
    }

    public static boolean requiredBoolean(Context ctx, String field) {
        return bool(field, required(ctx, field));
    }

    public static long requiredLong(Context ctx, String field) {
        return whole(field, required(ctx, field));
    }

    /** A whole number from the query string; 400 naming the parameter when missing or bad. */
    public static int queryInt(Context ctx, String param, int min, int max) {
        String v = ctx.queryParam(param);
        if (v == null || v.isBlank()) {
            throw new ApiException(400, "query parameter '" + param + "' is required (a whole number from " + min + " to " + max
                    + "); nothing was changed");
        }
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new ApiException(400, "query parameter '" + param + "' is " + ApiException.quoted(v) + ", not a whole number; nothing was changed");
        }
        if (n < min || n > max) {
            throw new ApiException(400, "query parameter '" + param + "' is " + n + ", must be from " + min + " to " + max
                    + "; nothing was changed");
        }
        return (int) n;
    }

    /**
     * An optional whole number from the query string: {@code null} when absent or blank, else a number from
     * {@code min} to {@code max}; 400 naming the parameter otherwise. For reads, so nothing is said about changes.
     */
    public static Long optionalQueryLong(Context ctx, String param, long min, long max) {
        String v = ctx.queryParam(param);
        if (v == null || v.isBlank()) {
            return null;
        }
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new ApiException(400, "query parameter '" + param + "' is " + ApiException.quoted(v) + ", not a whole number (from " + min
                    + " to " + max + ")");
        }
        if (n < min || n > max) {
            throw new ApiException(400, "query parameter '" + param + "' is " + n + ", must be from " + min + " to " + max);
        }
        return n;
    }

    public static boolean bool(String field, String v) {
        return switch (v.toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw ApiException.badField(field, "is " + ApiException.quoted(v) + ", must be true or false");
        };
    }

    public static long whole(String field, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw ApiException.badField(field, "is " + ApiException.quoted(v) + ", not a whole number");
        }
    }

    /**
     * The day a date field means: an ISO-8601 date ({@code 2026-11-22}), an ISO-8601 date-time with offset
     * ({@code 2026-11-22T00:00:00Z}, its UTC day) or the original Acmeair driver's {@code Sun Nov 22 00:00:00 CET 2026}
     * (the day it names, in its own zone); see {@link DayParser} for why. Never depends on the server's default time
     * zone or locale; anything else is a 400 naming the field, the value and the accepted forms.
     */
    public static LocalDate day(String field, String v) {
        return DayParser.parse(field, v);
    }
}
