package dev.meshbench.results;

import java.util.regex.Pattern;

/** Argument checks whose messages name the field, the value and the rule. */
final class Checks {
    private Checks() {
    }

    static <T> T present(String field, T value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is missing");
        }
        return value;
    }

    static String text(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + " (" + quote(value) + ") must not be blank");
        }
        return value;
    }

    static String matches(String field, String value, Pattern pattern, String rule) {
        text(field, value);
        if (!pattern.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " (" + quote(value) + ") " + rule);
        }
        return value;
    }

    static long positive(String field, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " (" + value + ") must be positive");
        }
        return value;
    }

    static double positive(String field, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " (" + value + ") must be a finite number > 0");
        }
        return value;
    }

    static long notNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " (" + value + ") must not be negative");
        }
        return value;
    }

    static double notNegative(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " (" + value + ") must be a finite number >= 0");
        }
        return value;
    }

    private static String quote(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }
}
