package dev.meshbench.jmeter.functions;

import static dev.meshbench.jmeter.functions.FunctionCalls.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.jmeter.JMeterTestEnvironment;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TimeZone;
import java.util.stream.Stream;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.threads.JMeterContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AcmeairDateTest {

    /** 23:30 UTC: already the 23rd in Vladivostok/Kiritimati, still the 22nd in Honolulu. */
    private static final Instant LATE_EVENING_UTC = Instant.parse("2026-11-22T23:30:00Z");

    private JMeterContext context;

    @BeforeEach
    void freshThread() {
        context = JMeterTestEnvironment.freshContext();
    }

    private static AcmeairDate at(Instant now) {
        // the clock's own zone must not matter either: give it a far-east one
        return new AcmeairDate(Clock.fixed(now, ZoneId.of("Pacific/Kiritimati")), () -> new SplittableRandom(7));
    }

    static Stream<Arguments> jvmDefaults() {
        return Stream.of(
                Arguments.of(Locale.ROOT, "UTC"),
                Arguments.of(Locale.forLanguageTag("ru-RU"), "Asia/Vladivostok"),
                Arguments.of(Locale.forLanguageTag("ru"), "Pacific/Kiritimati"),
                Arguments.of(Locale.forLanguageTag("ar-SA-u-nu-arab"), "Pacific/Honolulu"),
                Arguments.of(Locale.forLanguageTag("th-TH-u-ca-buddhist"), "America/New_York"));
    }

    @ParameterizedTest(name = "locale {0}, time zone {1}")
    @MethodSource("jvmDefaults")
    @DisplayName("gives midnight UTC of the UTC day, whatever the JVM's locale and time zone")
    void utcMidnightInAnyLocaleAndZone(Locale locale, String zone) throws Exception {
        JMeterTestEnvironment.withDefaults(locale, TimeZone.getTimeZone(zone), () -> {
            assertEquals("2026-11-22T00:00:00Z", call(at(LATE_EVENING_UTC), "0"));
            assertEquals("2026-11-23T00:00:00Z", call(at(LATE_EVENING_UTC), "1"));
            assertEquals("2026-11-21T00:00:00Z", call(at(LATE_EVENING_UTC), "-1"));
            assertEquals("2027-01-01T00:00:00Z", call(at(Instant.parse("2026-12-31T00:00:00Z")), "1"));
        });
    }

    @Test
    @DisplayName("stores the date in the named variable")
    void storesInVariable() throws Exception {
        String date = call(at(LATE_EVENING_UTC), "3", "fromDate");
        assertEquals("2026-11-25T00:00:00Z", date);
        assertEquals(date, context.getVariables().get("fromDate"));
    }

    @Test
    @DisplayName("counts from another date when given one, e.g. a return the day after departure")
    void countsFromGivenDate() throws Exception {
        assertEquals("2026-12-01T00:00:00Z", call(at(LATE_EVENING_UTC), "1", "returnDate", "2026-11-30T00:00:00Z"));
        assertEquals("2026-12-01T00:00:00Z", context.getVariables().get("returnDate"));
        assertEquals("2026-12-01T00:00:00Z", call(at(LATE_EVENING_UTC), "1", "", "2026-11-30T23:59:59Z"));
        assertEquals("2026-12-01T00:00:00Z", call(at(LATE_EVENING_UTC), "1", "", "2026-11-30"));
    }

    @Test
    @DisplayName("draws from a day range, staying inside it and reaching both ends")
    void drawsFromRange() throws Exception {
        AcmeairDate function = new AcmeairDate(Clock.fixed(LATE_EVENING_UTC, ZoneId.of("UTC")),
                java.util.concurrent.ThreadLocalRandom::current);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 400; i++) {
            seen.add(call(function, "0..3"));
        }
        assertEquals(Set.of("2026-11-22T00:00:00Z", "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z",
                "2026-11-25T00:00:00Z"), seen);
    }

    @Test
    @DisplayName("refuses a day offset that is not a number or range, naming the function")
    void refusesBadOffset() {
        InvalidVariableException e = assertThrows(InvalidVariableException.class,
                () -> call(at(LATE_EVENING_UTC), "tomorrow"));
        assertTrue(e.getMessage().startsWith("__acmeairDate: 'tomorrow' is not a day offset"), e.getMessage());
        e = assertThrows(InvalidVariableException.class, () -> call(at(LATE_EVENING_UTC), "4..1"));
        assertTrue(e.getMessage().contains("is empty"), e.getMessage());
        e = assertThrows(InvalidVariableException.class, () -> call(at(LATE_EVENING_UTC), "1", "", "23.11.2026"));
        assertTrue(e.getMessage().contains("not an ISO-8601"), e.getMessage());
    }

    @Test
    @DisplayName("refuses a call without the day offset or with too many parameters")
    void refusesWrongParameterCount() {
        assertThrows(InvalidVariableException.class, () -> new AcmeairDate().setParameters(java.util.List.of()));
        assertThrows(InvalidVariableException.class, () -> call(new AcmeairDate(), "1", "a", "b", "c"));
    }

    @Test
    @DisplayName("is registered under __acmeairDate")
    void referenceKey() {
        assertEquals("__acmeairDate", new AcmeairDate().getReferenceKey());
        assertEquals(3, new AcmeairDate().getArgumentDesc().size());
    }
}
