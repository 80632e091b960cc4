package dev.meshbench.acmeair.cli;

import java.net.URI;
import java.net.URISyntaxException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Converters of the services' option values; messages read after the option's name ({@code --flight-cache 'x' must be ...}). */
final class OptionConverters {
    private OptionConverters() {
    }

    /** {@code true} or {@code false}, nothing else. */
    static final class Switch implements ITypeConverter<Boolean> {
        @Override
        public Boolean convert(String value) {
            return switch (value.trim()) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new TypeConversionException("'" + value + "' must be true or false");
            };
        }
    }

    /** A service's base URL, without a trailing {@code /}; {@code ServiceConfig} checks scheme and host. */
    static final class BaseUrl implements ITypeConverter<URI> {
        @Override
        public URI convert(String value) {
            try {
                return new URI(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
            } catch (URISyntaxException e) {
                throw new TypeConversionException("'" + value + "' must be an http(s) URL with a host, e.g. http://127.0.0.1:9082 ("
                        + e.getMessage() + ")");
            }
        }
    }
}
