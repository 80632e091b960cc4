package dev.meshbench.component.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Number converters whose messages read after the option's name ({@link ComponentCommandLine}): {@code --port 'x' is
 * not a whole number}, {@code --port 70000 must be between 0 and 65535}.
 */
public final class Converters {
    private Converters() {
    }

    /** Any whole number, sign allowed: for options whose range the command checks itself, with its own words. */
    public static final class AnyWholeNumber implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return parse(value);
        }
    }

    /** A whole number, 0 or more. */
    public static final class WholeNumber implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n = parse(value);
            if (n < 0) {
                throw new TypeConversionException(value + " must not be negative");
            }
            return n;
        }
    }

    /** A TCP port, 0 (a free one) to 65535. */
    public static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n = parse(value);
            if (n < 0 || n > 65535) {
                throw new TypeConversionException(n + " must be between 0 and 65535");
            }
            return n;
        }
    }

    private static int parse(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a whole number");
        }
    }
}
