package dev.meshbench.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {
    @Test
    @DisplayName("reserved ports are distinct, below the ephemeral range, and free to bind")
    void reservesBelowEphemeralRange() throws Exception {
        Map<String, Integer> ports = LoopbackPorts.reserve(List.of("customer", "flight", "auth", "booking"));
        assertEquals(List.of("customer", "flight", "auth", "booking"), List.copyOf(ports.keySet()));
        assertEquals(4, new HashSet<>(ports.values()).size());
        int low = LoopbackPorts.ephemeralLow();
        for (int p : ports.values()) {
            assertInRangeAndBindable(p, low);
        }
    }

    @Test
    @DisplayName("a single picked port is below the ephemeral range and free to bind")
    void picksOneBelowEphemeralRange() throws Exception {
        assertInRangeAndBindable(LoopbackPorts.pickOne(), LoopbackPorts.ephemeralLow());
    }

    private static void assertInRangeAndBindable(int p, int low) throws Exception {
        assertTrue(p >= LoopbackPorts.LOWEST && p < low, p + " must lie in [" + LoopbackPorts.LOWEST + ", " + low + ")");
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), p));
        }
    }
}
