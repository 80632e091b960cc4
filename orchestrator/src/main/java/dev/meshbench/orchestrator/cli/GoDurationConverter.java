package dev.meshbench.orchestrator.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as fortio (Go) writes them: {@code 30s}, {@code 500ms}, {@code 1m30s}, {@code 1.5s}, {@code 2h}; a
 * bare number is seconds; ISO-8601 ({@code PT30S}) is accepted too.
 */
final class GoDurationConverter implements ITypeConverter<Duration> {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|us|µs|ns|s|m|h)");
    private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:\\.\\d+)?(?:ms|us|µs|ns|s|m|h))+");

    @Override
    public Duration convert(String value) {
        String v = value.trim();
        try {
            if (v.matches("\\d+(\\.\\d+)?")) {
                return nanos(new BigDecimal(v), 1_000_000_000L);
            }
            if (v.startsWith("P") || v.startsWith("p")) {
                return Duration.parse(v);
            }
        } catch (RuntimeException e) {
            throw new TypeConversionException("'" + value + "' is not a duration such as 30s, 500ms or 1m30s");
        }
        if (!WHOLE.matcher(v).matches()) {
            throw new TypeConversionException("'" + value + "' is not a duration such as 30s, 500ms or 1m30s");
        }
        Duration d = Duration.ZERO;
        Matcher m = PART.matcher(v);
        while (m.find()) {
            long unit = switch (m.group(2)) {
                case "h" -> 3_600_000_000_000L;
                case "m" -> 60_000_000_000L;
                case "s" -> 1_000_000_000L;
                case "ms" -> 1_000_000L;
                case "us", "µs" -> 1_000L;
                default -> 1L;
            };
            d = d.plus(nanos(new BigDecimal(m.group(1)), unit));
        }
        return d;
    }

    private static Duration nanos(BigDecimal amount, long unitNanos) {
        return Duration.ofNanos(amount.multiply(BigDecimal.valueOf(unitNanos)).longValueExact());
    }
}
