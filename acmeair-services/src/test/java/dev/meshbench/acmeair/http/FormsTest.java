package dev.meshbench.acmeair.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.acmeair.HostileDefaults;
import java.text.SimpleDateFormat;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Forms#day}: the ISO forms and the original Acmeair driver's {@code EEE MMM dd 00:00:00 z yyyy}, while the
 * JVM's default locale and zone are ones that would break a parser depending on them (Russian names, UTC+14; see
 * {@link HostileDefaults}).
 */
@ExtendWith(HostileDefaults.class)
@DisplayName("Forms.day")
class FormsTest {
    /** Exactly what the driver's {@code __generateDate} sends for {@code at}, run in {@code zone} (English names). */
    static String driverDate(String zone, Instant at) {
        SimpleDateFormat f = new SimpleDateFormat("EEE MMM dd 00:00:00 z yyyy", Locale.US);
        f.setTimeZone(TimeZone.getTimeZone(zone));
        return f.format(Date.from(at));
    }

    @ParameterizedTest(name = "{0} at {1}")
    @CsvSource({
        "UTC, 2030-01-01T12:00:00Z",
        "Europe/Berlin, 2030-01-01T00:30:00Z",
        "Europe/Berlin, 2030-07-01T23:30:00Z",
        "America/Los_Angeles, 2030-01-01T07:30:00Z",
        "America/Los_Angeles, 2030-07-01T12:00:00Z",
        "Asia/Kolkata, 2030-01-01T20:00:00Z",
        "Asia/Kathmandu, 2030-01-01T18:30:00Z",
        "Pacific/Chatham, 2030-01-01T10:00:00Z",
        "Pacific/Chatham, 2030-07-01T12:00:00Z",
        "Pacific/Kiritimati, 2030-01-01T12:00:00Z",
        "Pacific/Pago_Pago, 2030-01-01T10:00:00Z",
        "GMT+05:30, 2030-01-01T20:00:00Z",
        "Etc/GMT-14, 2030-01-01T12:00:00Z",
    })
    @DisplayName("a date as the original driver formats it means the day it names in its own zone")
    void driverDateMeansNamedDay(String zone, Instant at) {
        String sent = driverDate(zone, at);
        LocalDate named = LocalDate.ofInstant(at, ZoneId.of(zone));
        assertEquals(named, Forms.day("fromDate", sent), sent);
    }

    @Test
    @DisplayName("zones that print as GMT+hh:mm are really sent that way, and read")
    void gmtOffsetZonesPrintAsOffsets() {
        Instant at = Instant.parse("2030-01-01T12:00:00Z");
        assertEquals("Tue Jan 01 00:00:00 GMT+05:30 2030", driverDate("GMT+05:30", at));
        assertEquals("Wed Jan 02 00:00:00 GMT+14:00 2030", driverDate("Etc/GMT-14", at));
        assertEquals(LocalDate.parse("2030-01-02"), Forms.day("fromDate", "Wed Jan 02 00:00:00 GMT+14:00 2030"));
    }

    @Test
    @DisplayName("east of UTC the named day is kept, not moved to the UTC day of local midnight")
    void eastOfUtcKeepsNamedDay() {
        // local midnight of January 2nd in Kiritimati (UTC+14) is 2030-01-01T10:00Z, and in Berlin 2030-01-01T23:00Z
        assertEquals(LocalDate.parse("2030-01-02"), Forms.day("fromDate", "Wed Jan 02 00:00:00 LINT 2030"));
        assertEquals(LocalDate.parse("2030-01-02"), Forms.day("fromDate", "Wed Jan 02 00:00:00 CET 2030"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Sun Nov 22 00:00:00 UTC 2026", "Sun Nov 22 00:00:00 CET 2026", "Sun Nov 22 00:00:00 PST 2026",
        "Sun Nov 22 00:00:00 JST 2026", "Sun Nov 22 00:00:00 IST 2026", "Sun Nov 22 00:00:00 CST 2026",
        "Sun Nov 22 00:00:00 GMT+05:30 2026", "Sun Nov 22 00:00:00 Europe/Berlin 2026",
        "Sun Nov 22 00:00:00 America/Los_Angeles 2026", "Sun Nov 22 13:45:00 UTC 2026"})
    @DisplayName("the driver's form reads short zone names, offsets and region ids")
    void driverFormZones(String sent) {
        assertEquals(LocalDate.parse("2026-11-22"), Forms.day("fromDate", sent));
    }

    @ParameterizedTest
    @CsvSource({
        "2026-11-22, 2026-11-22",
        "2026-11-22T00:00:00Z, 2026-11-22",
        "2026-11-22T00:30:00+01:00, 2026-11-21",
        "2026-11-22T23:30:00-05:00, 2026-11-23",
    })
    @DisplayName("ISO-8601 dates mean that day, date-times with offset their UTC day")
    void isoForms(String sent, LocalDate day) {
        assertEquals(day, Forms.day("fromDate", sent));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "tomorrow", "22/11/2026", "2026-11-31", "2026-11-22T00:00:00", "Sun Nov 22 2026",
        "Sun Nov 22 00:00:00 XYZ 2026", "Sun Feb 30 00:00:00 UTC 2026", "sun nov 22 00:00:00 UTC 2026",
        "Sun Nov 22 00:00:00 UTC 2026 extra"})
    @DisplayName("anything else answers 400 naming the field, the value and both accepted forms")
    void refused(String sent) {
        assertRefused("returnDate", sent);
    }

    @Test
    @DisplayName("a date formatted in Russian, as the driver would send it under a Russian default locale, is refused")
    void russianNamesRefused() {
        SimpleDateFormat ru = new SimpleDateFormat("EEE MMM dd 00:00:00 z yyyy", Locale.forLanguageTag("ru-RU"));
        ru.setTimeZone(TimeZone.getTimeZone("Europe/Moscow"));
        String sent = ru.format(Date.from(Instant.parse("2026-11-22T12:00:00Z")));
        assertTrue(sent.startsWith("вс "), sent);
        assertRefused("fromDate", sent);
    }

    @Test
    @DisplayName("a day-of-week that disagrees with the date is refused, saying which day the date is")
    void wrongDayOfWeekRefused() {
        String message = assertRefused("fromDate", "Mon Nov 22 00:00:00 UTC 2026");
        assertTrue(message.contains("names a Monday but 2026-11-22 is a Sunday"), message);
    }

    private static String assertRefused(String field, String sent) {
        ApiException e = assertThrows(ApiException.class, () -> Forms.day(field, sent), sent);
        assertEquals(400, e.status());
        String m = e.getMessage();
        assertTrue(m.startsWith("field '" + field + "' is '" + sent + "'"), m);
        assertTrue(m.contains("(2026-11-22)") && m.contains("(2026-11-22T00:00:00Z)")
                && m.contains("Sun Nov 22 00:00:00 UTC 2026"), m);
        return m;
    }
}
