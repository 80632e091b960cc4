package dev.meshbench.orchestrator.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LatencySettingsTest {
    @Test
    void defaultsAreTheGistsMethod() {
        LatencySettings s = LatencySettings.fromProperties(Map.of());
        assertEquals(List.of("single", "double"), s.graphs());
        assertEquals(64, s.connections());
        assertEquals(true, s.stableWarmup(), "warm-up until warm");
        assertEquals(120, s.warmupSeconds(), "its cap");
        assertEquals(30, s.maxSeconds());
        assertEquals(30, s.fixedSeconds());
        assertEquals(0.75, s.loadFraction());
        assertEquals("0.75", s.asProperties().get(LatencySettings.P_LOAD_FRACTION));
    }

    @Test
    void readsEveryProperty() {
        LatencySettings s = LatencySettings.fromProperties(Map.of(LatencySettings.P_GRAPHS, "single, my.yaml", LatencySettings.P_CONNECTIONS, "8",
                LatencySettings.P_MAX_SECONDS, "5", LatencySettings.P_FIXED_SECONDS, "6", LatencySettings.P_WARMUP_SECONDS, "0",
                LatencySettings.P_LOAD_FRACTION, "0.5", LatencySettings.P_CELLS, "single/*/none/*", LatencySettings.P_WARMUP, "fixed"));
        assertEquals(List.of("single", "my.yaml"), s.graphs());
        assertEquals(false, s.stableWarmup());
        assertEquals(8, s.connections());
        assertEquals(11, s.loadSecondsPerCell());
        assertEquals("single/*/none/*", s.cells());
    }

    @Test
    void refusesBadValuesNamingTheProperty() {
        assertEquals("meshbench.latency.loadFraction=75: must be above 0 and at most 1; give a fraction such as 0.75",
                assertThrows(IllegalArgumentException.class, () -> LatencySettings.fromProperties(Map.of(LatencySettings.P_LOAD_FRACTION, "75")))
                        .getMessage());
        assertEquals("meshbench.latency.connections=lots: must be a whole number of connections",
                assertThrows(IllegalArgumentException.class, () -> LatencySettings.fromProperties(Map.of(LatencySettings.P_CONNECTIONS, "lots")))
                        .getMessage());
        assertEquals("meshbench.latency.maxSeconds=0: must be between 1 and 3600 seconds",
                assertThrows(IllegalArgumentException.class, () -> LatencySettings.fromProperties(Map.of(LatencySettings.P_MAX_SECONDS, "0")))
                        .getMessage());
        assertEquals("meshbench.latency.graphs=single,,double: has an empty entry; give graph names or .yaml files separated by commas",
                assertThrows(IllegalArgumentException.class, () -> LatencySettings.fromProperties(Map.of(LatencySettings.P_GRAPHS, "single,,double")))
                        .getMessage());
    }
}
