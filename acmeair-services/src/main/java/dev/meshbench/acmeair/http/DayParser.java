package dev.meshbench.acmeair.http;

import java.text.ParsePosition;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the day a flight query asks for, in the two forms clients send:
 *
 * <ul>
 * <li>ISO-8601: a date ({@code 2026-11-22}) means that day; a date-time with an offset
 * ({@code 2026-11-22T00:00:00Z}, {@code 2026-11-22T01:00:00+01:00}) means the UTC day of that instant, because an
 * instant has no other day.</li>
 * <li>the original Acmeair JMeter driver's {@code __generateDate}, which formats local midnight of the day it wants as
 * {@code new SimpleDateFormat("EEE MMM dd 00:00:00 z yyyy")} in its own default zone: {@code Sun Nov 22 00:00:00 UTC 2026},
 * {@code Sun Nov 22 00:00:00 CET 2026}, {@code Sun Nov 22 00:00:00 GMT+05:30 2026}. This means the calendar day the
 * string names, in its own zone, not the UTC day of that instant: the driver sends midnight of the day it means, so
 * converting to UTC would move every driver east of UTC to the day before. The zone is therefore only checked to be
 * one the JDK knows (a short name such as UTC, CET, PST, IST, NPT, a {@code GMT+hh:mm} offset, or a region id such as
 * {@code Europe/Berlin}); an ambiguous short name (IST, CST) gives the same day whichever zone it is.</li>
 * </ul>
 *
 * The driver's form is parsed with java.time in English ({@link Locale#US}, strict resolution), so the answer never
 * depends on the JVM's default locale or zone; a driver running in another language sends other day and month names,
 * which are refused. A day-of-week that disagrees with the date is refused too: it means the client computed the
 * string wrongly, and guessing which half it meant would hide that. Every refusal is a 400 naming the field, the value
 * and both accepted forms.
 */
final class DayParser {
    /** The original driver's pattern, with {@code uuuu} so that strict resolution needs no era. */
    private static final DateTimeFormatter DRIVER = new DateTimeFormatterBuilder()
            .appendPattern("EEE MMM dd HH:mm:ss z uuuu")
            .toFormatter(Locale.US)
            .withResolverStyle(ResolverStyle.STRICT)
            // the day-of-week is compared below, so that a mismatch gets a message saying so
            .withResolverFields(Set.of(ChronoField.YEAR, ChronoField.MONTH_OF_YEAR, ChronoField.DAY_OF_MONTH,
                    ChronoField.HOUR_OF_DAY, ChronoField.MINUTE_OF_HOUR, ChronoField.SECOND_OF_MINUTE));

    /** The accepted forms, with an example of each, for the messages of refusals. */
    static final String ACCEPTED = "an ISO-8601 date (2026-11-22) or date-time with offset (2026-11-22T00:00:00Z), "
            + "or a date as the original Acmeair driver sends it (Sun Nov 22 00:00:00 UTC 2026: English names, any time zone)";

    private DayParser() {
    }

    /** The day {@code value} of form field {@code field} means; 400 naming the field, the value and both forms. */
    static LocalDate parse(String field, String value) {
        try {
            if (!value.isEmpty() && Character.isLetter(value.charAt(0))) {
                return driverDay(field, value);
            }
            if (value.length() <= 10) {
                return LocalDate.parse(value);
            }
            return OffsetDateTime.parse(value).withOffsetSameInstant(ZoneOffset.UTC).toLocalDate();
        } catch (DateTimeException e) {
            throw ApiException.badField(field, "is " + ApiException.quoted(value) + ", not " + ACCEPTED);
        }
    }

    private static LocalDate driverDay(String field, String value) {
        TemporalAccessor parsed = DRIVER.parse(value);
        LocalDate day = LocalDate.from(parsed);
        DayOfWeek named = DayOfWeek.of((int) DRIVER.parseUnresolved(value, new ParsePosition(0))
                .getLong(ChronoField.DAY_OF_WEEK));
        if (named != day.getDayOfWeek()) {
            throw ApiException.badField(field, "is " + ApiException.quoted(value) + ", which names a " + english(named) + " but " + day
                    + " is a " + english(day.getDayOfWeek()) + " (accepted: " + ACCEPTED + ")");
        }
        return day;
    }

    private static String english(DayOfWeek d) {
        return d.getDisplayName(TextStyle.FULL, Locale.US);
    }
}
