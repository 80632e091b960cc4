package dev.meshbench.orchestrator.latency.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LoadSpecTest {
    private static final URI A = URI.create("http://127.0.0.1:8080/");
    private static final URI B = URI.create("http://127.0.0.1:8081/x");
    private static final LoadSpec BASE = LoadSpec.of(List.of(A));

    private static void refused(String messageStart, Supplier<LoadSpec> spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, spec::get);
        assertTrue(e.getMessage().startsWith(messageStart), "\"" + e.getMessage() + "\" does not start with \"" + messageStart + "\"");
    }

    @Test
    @DisplayName("defaults are fortio's closed loop: 64 connections, 30 s, GET, no body, no warm-up, timeout 5 s")
    void defaults() {
        assertEquals(64, BASE.connections());
        assertEquals(Duration.ofSeconds(30), BASE.duration());
        assertEquals(OptionalDouble.empty(), BASE.ratePerSecond());
        assertEquals(Duration.ofSeconds(5), BASE.timeout());
        assertEquals("GET", BASE.method());
        assertEquals(0, BASE.requestBodyBytes());
        assertEquals(Duration.ZERO, BASE.warmup());
        assertEquals("closed loop (as fast as possible), 64 connections to http://127.0.0.1:8080/, GET, 30 s, timeout 5 s",
                BASE.describe());
        assertEquals("open loop at 750.5 req/s, 3 connections over 2 targets, POST with 100 B body, 2 s after a 0.5 s warm-up, timeout 1 s",
                LoadSpec.of(List.of(A, B)).withConnections(3).withRate(750.5).withRequest("POST", 100)
                        .withDuration(Duration.ofSeconds(2)).withWarmup(Duration.ofMillis(500)).withTimeout(Duration.ofSeconds(1)).describe());
    }

    @Test
    @DisplayName("connection i goes to target i mod n")
    void roundRobin() {
        LoadSpec s = LoadSpec.of(List.of(A, B)).withConnections(5);
        assertEquals(A, s.targetOf(0));
        assertEquals(B, s.targetOf(1));
        assertEquals(A, s.targetOf(4));
    }

    @Test
    @DisplayName("bad values are refused with a message naming the field, the value and the rule")
    void refusesBadValues() {
        refused("targets ([]) must name at least one http:// URI", () -> LoadSpec.of(List.of()));
        refused("targets (https://127.0.0.1/): the scheme must be http", () -> LoadSpec.of(List.of(URI.create("https://127.0.0.1/"))));
        refused("targets (/relative): the scheme must be http (plain HTTP/1.1; no TLS), it has no host",
                () -> LoadSpec.of(List.of(URI.create("/relative"))));
        refused("connections (0) must be between 1 and 10000", () -> BASE.withConnections(0));
        refused("connections (1) must be at least the number of targets (2)", () -> LoadSpec.of(List.of(A, B)).withConnections(1));
        refused("duration (PT0S) must be positive", () -> BASE.withDuration(Duration.ZERO));
        refused("duration (PT-1S) must be positive", () -> BASE.withDuration(Duration.ofSeconds(-1)));
        refused("duration (null) must be positive", () -> BASE.withDuration(null));
        refused("ratePerSecond (0.0) must be > 0", () -> BASE.withRate(0));
        refused("ratePerSecond (NaN) must be > 0", () -> BASE.withRate(Double.NaN));
        refused("ratePerSecond (Infinity) must be > 0", () -> BASE.withRate(Double.POSITIVE_INFINITY));
        refused("timeout (PT0S) must be positive", () -> BASE.withTimeout(Duration.ZERO));
        refused("method (\"get\") must be an upper-case HTTP method", () -> BASE.withRequest("get", 0));
        refused("method (\"\") must be an upper-case HTTP method", () -> BASE.withRequest("", 0));
        refused("requestBodyBytes (-1) must be between 0 and", () -> BASE.withRequest("POST", -1));
        refused("warmup (PT-1S) must be zero (none) or positive", () -> BASE.withWarmup(Duration.ofSeconds(-1)));
    }
}
