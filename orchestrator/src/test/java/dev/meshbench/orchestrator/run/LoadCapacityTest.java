package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The bounds a run's size is checked against before anything is deployed: the machine's and the loaders'. */
class LoadCapacityTest {
    @Test
    @DisplayName("the largest step is the smallest of the per-core, open-files and JMeter-heap bounds")
    void smallestBound() {
        assertEquals(500, new RunSettings.LoadCapacity(2, 20_000, 1024).maxClients(), "2 cores bind: 2 x 250");
        assertEquals(128, new RunSettings.LoadCapacity(2, 1024, 1024).maxClients(), "ulimit -n 1024 binds: 1024 / 8");
        assertEquals(300, new RunSettings.LoadCapacity(16, 100_000, 300).maxClients(), "a 300 MB heap binds: 300 x 1 MB");
        assertEquals(4000, new RunSettings.LoadCapacity(16, -1, 8192).maxClients(), "an unknown open-files limit is no bound");
    }

    @Test
    @DisplayName("clients=1,100000 on 2 cores is refused naming the property, the step, the largest allowed and the rule")
    void oversizedRampRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RunSettings.LoadCapacity(2, 20_000, 1024).check(List.of(1, 100_000)));
        assertEquals("meshbench.clients=1,100000: clients 100000 is above the largest this machine can drive in one step, 500: "
                + "the smallest of 250 per core (2 cores: 500), open files (ulimit -n) 20000 / 8 per client (2500), and "
                + "meshbench.jmeterHeapMb=1024 / 1 MB per client (1024); past it a step does not run as planned", e.getMessage());
        IllegalArgumentException five = assertThrows(IllegalArgumentException.class,
                () -> new RunSettings.LoadCapacity(2, 20_000, 1024).check(List.of(1, 5000)));
        assertTrue(five.getMessage().startsWith("meshbench.clients=1,5000: clients 5000 is above"), five.getMessage());
        assertDoesNotThrow(() -> new RunSettings.LoadCapacity(2, 20_000, 1024).check(List.of(1, 5, 10, 20, 500)));
        assertDoesNotThrow(() -> new RunSettings.LoadCapacity(2, 20_000, 1024).check(List.of(1, 5, 10, 20, 30, 40, 50, 60)),
                "the study's ramp fits a 2-core machine");
    }

    @Test
    @DisplayName("a JMeter heap below its -Xms is refused, naming the property")
    void heapBelowStart() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RunSettings.LoadCapacity(2, 20_000, 128));
        assertEquals("meshbench.jmeterHeapMb=128: must be 256 or more MB (JMeter starts with -Xms256m)", e.getMessage());
    }

    @Test
    @DisplayName("this host's capacity reads its cores and open-files limit")
    void thisHost() {
        RunSettings.LoadCapacity c = RunSettings.LoadCapacity.ofThisHost(1024);
        assertEquals(Runtime.getRuntime().availableProcessors(), c.cores());
        assertTrue(c.maxClients() >= 1);
    }

    @Test
    @DisplayName("more customers or flight days than the services' loaders generate are refused where the config is read")
    void loaderLimits() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunSettings.fromProperties(
                Map.of("meshbench.cases", "sni", "meshbench.customers", "1000001"), false, Path.of("results")));
        assertEquals("meshbench.customers=1000001: must be between 1 and 1000000 customers (the most the customer service's "
                + "loader generates)", e.getMessage());
        assertDoesNotThrow(() -> RunSettings.fromProperties(Map.of("meshbench.cases", "sni", "meshbench.customers", "1000000"), false,
                Path.of("results")));
        IllegalArgumentException days = assertThrows(IllegalArgumentException.class, () -> RunSettings.fromProperties(
                Map.of("meshbench.cases", "sni", "meshbench.flightDays", "367"), false, Path.of("results")));
        assertEquals("meshbench.flightDays=367: must be between 2 and 366 days (a round trip returns the day after it leaves; the flight service's loader generates at most 366)",
                days.getMessage());
    }

    @Test
    @DisplayName("the latency study's connections are refused above the open-files limit at 4 descriptors each")
    void latencyConnections() {
        var settings = dev.meshbench.orchestrator.latency.LatencySettings.fromProperties(
                Map.of("meshbench.latency.connections", "4096"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> settings.checkOpenFiles(1024));
        assertEquals("meshbench.latency.connections=4096: is above the 256 this machine's open-files limit allows (ulimit -n 1024 "
                + "/ 4 descriptors per connection); raise the limit or give fewer connections", e.getMessage());
        assertDoesNotThrow(() -> settings.checkOpenFiles(20_000));
        assertDoesNotThrow(() -> settings.checkOpenFiles(-1), "unknown limit: no bound");
    }
}
