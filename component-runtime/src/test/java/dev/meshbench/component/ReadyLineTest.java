package dev.meshbench.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReadyLineTest {
    @Test
    @DisplayName("a printed ready line parses back to the same fields")
    void roundTrip() {
        ReadyLine line = ReadyLine.of("mongo", "address", "127.0.0.1:40123", "ca", "/tmp/run/ca.pem");
        assertEquals("MESHBENCH-READY component=mongo address=127.0.0.1:40123 ca=/tmp/run/ca.pem", line.toString());
        ReadyLine parsed = ReadyLine.parse(line.toString()).orElseThrow();
        assertEquals("mongo", parsed.component());
        assertEquals(Optional.of("127.0.0.1:40123"), parsed.get("address"));
        assertEquals(line.fields(), parsed.fields());
    }

    @Test
    @DisplayName("other output and malformed lines are not ready lines")
    void notReady() {
        assertTrue(ReadyLine.parse("[main] INFO started").isEmpty());
        assertTrue(ReadyLine.parse("MESHBENCH-READY address=1").isEmpty());
        assertTrue(ReadyLine.parse("MESHBENCH-READY component=x bogus").isEmpty());
        assertTrue(ReadyLine.parse(null).isEmpty());
    }

    @Test
    @DisplayName("values with spaces are refused when building")
    void refusesSpaces() {
        assertThrows(IllegalArgumentException.class, () -> ReadyLine.of("x", "path", "/a b"));
        assertThrows(IllegalArgumentException.class, () -> ReadyLine.of("x", "odd"));
    }

    @Test
    @DisplayName("describe joins causes without repeating them")
    void describe() {
        Exception e = new RuntimeException("starting mongo", new java.net.BindException("Address already in use"));
        assertEquals("starting mongo: Address already in use", ComponentMain.describe(e));
    }
}
