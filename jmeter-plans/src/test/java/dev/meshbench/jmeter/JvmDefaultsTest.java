package dev.meshbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Instant;
import java.util.Locale;
import java.util.TimeZone;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** Proves the second surefire execution really runs the tests under a ru locale and a non-UTC zone. */
class JvmDefaultsTest {

    @Test
    @EnabledIfSystemProperty(named = "meshbench.test.expectedLanguage", matches = ".+")
    @DisplayName("runs under the requested default locale and a time zone that is not UTC")
    void defaultsAreSet() {
        assertEquals(System.getProperty("meshbench.test.expectedLanguage"), Locale.getDefault().getLanguage());
        assertNotEquals(0, TimeZone.getDefault().getOffset(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli()));
    }
}
