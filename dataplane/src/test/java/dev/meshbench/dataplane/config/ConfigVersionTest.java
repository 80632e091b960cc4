package dev.meshbench.dataplane.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ConfigVersionTest {
    @Test
    @DisplayName("takes 1-64 letters, digits, '.', '_', ':' and '-'")
    void accepts() {
        for (String v : new String[] {"initial", "v2", "case-3:mtls_1.0", "x".repeat(64), "0"}) {
            assertEquals(v, new ConfigVersion(v).value());
        }
    }

    @Test
    @DisplayName("refuses anything else, quoting it with control characters escaped and long values cut")
    void refuses() {
        String rule = "a config version is 1-64 letters, digits, '.', '_', ':' or '-' (got ";
        assertEquals(rule + "'a b')", assertThrows(IllegalArgumentException.class, () -> new ConfigVersion("a b")).getMessage());
        assertEquals(rule + "'')", assertThrows(IllegalArgumentException.class, () -> new ConfigVersion("")).getMessage());
        assertEquals(rule + "none)", assertThrows(IllegalArgumentException.class, () -> new ConfigVersion(null)).getMessage());
        assertEquals(rule + "'v1\\u000aINFO forged')", assertThrows(IllegalArgumentException.class,
                () -> new ConfigVersion("v1\nINFO forged")).getMessage());
        assertEquals(rule + "'" + "x".repeat(80) + "...')", assertThrows(IllegalArgumentException.class,
                () -> new ConfigVersion("x".repeat(100))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ConfigVersion("x".repeat(65)));
    }
}
