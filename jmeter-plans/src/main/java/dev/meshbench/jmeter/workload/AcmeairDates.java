package dev.meshbench.jmeter.workload;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.random.RandomGenerator;

/**
 * Flight dates as the services accept them wherever the driver runs: midnight UTC of a calendar day, written as
 * an ISO-8601 instant ({@code 2026-11-23T00:00:00Z}). Nothing here reads the JVM's time zone or locale.
 */
public final class AcmeairDates {

    private AcmeairDates() {
    }

    /** Midnight UTC of {@code day}, e.g. {@code 2026-11-23T00:00:00Z}. */
    public static String midnightUtc(LocalDate day) {
        return day.atStartOfDay(ZoneOffset.UTC).toInstant().toString();
    }

    /** The UTC calendar day of an ISO-8601 instant or date ({@code 2026-11-23T00:00:00Z} or {@code 2026-11-23}). */
    public static LocalDate utcDay(String isoInstantOrDate) {
        String s = isoInstantOrDate.trim();
        try {
            if (s.length() == 10) {
                return LocalDate.parse(s);
            }
            return Instant.parse(s).atZone(ZoneOffset.UTC).toLocalDate();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + s + "' is not an ISO-8601 UTC instant like 2026-11-23T00:00:00Z"
                    + " or a date like 2026-11-23", e);
        }
    }

    /** The original driver's outbound days: today plus 0..5 (its {@code __generateDate(from)}). */
    public static final int ORIGINAL_FROM_MAX = 5;
    /** The original driver's return days: today plus 6..12 (its {@code __generateDate(return)}). */
    public static final int ORIGINAL_RETURN_MIN = 6;
    public static final int ORIGINAL_RETURN_MAX = 12;

    /**
     * The day of one leg of a trip, as the mix dates it.
     * <ul>
     * <li>{@code original}, as the original Acmeair driver: leave today plus 0..5 days, return today plus 6..12 days,
     * each drawn on its own. Returns after the loaded days find no flight, and the driver then books one way.</li>
     * <li>{@code roundtrip}, the kit's first plan: leave inside the loaded days (today plus 0..flightDays-2), return
     * the day after {@code outbound}.</li>
     * </ul>
     *
     * @param outbound the outbound day, needed for a {@code roundtrip} return leg
     */
    public static LocalDate tripDay(String mix, boolean returnLeg, LocalDate today, int flightDays, LocalDate outbound,
            RandomGenerator random) {
        if (WorkloadProperties.MIX_ORIGINAL.equals(mix)) {
            return returnLeg ? today.plusDays(random.nextInt(ORIGINAL_RETURN_MIN, ORIGINAL_RETURN_MAX + 1))
                    : today.plusDays(random.nextInt(0, ORIGINAL_FROM_MAX + 1));
        }
        if (returnLeg) {
            if (outbound == null) {
                throw new IllegalArgumentException("a roundtrip return leg needs the outbound day");
            }
            return outbound.plusDays(1);
        }
        return today.plusDays(random.nextInt(0, Math.max(1, flightDays - 1)));
    }

    /**
     * A day offset: a whole number ({@code 0}, {@code 3}, {@code -1}) or an inclusive range {@code a..b} from which
     * one offset is drawn with {@code random}.
     */
    public static int dayOffset(String spec, RandomGenerator random) {
        String s = spec.trim();
        int dots = s.indexOf("..");
        try {
            if (dots < 0) {
                return Integer.parseInt(s);
            }
            int from = Integer.parseInt(s.substring(0, dots).trim());
            int to = Integer.parseInt(s.substring(dots + 2).trim());
            if (to < from) {
                throw new IllegalArgumentException("day range '" + s + "' is empty; write it low..high, e.g. 0..4");
            }
            return from == to ? from : random.nextInt(from, to + 1);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a day offset; give a whole number like 3"
                    + " or a range like 0..4", e);
        }
    }
}
