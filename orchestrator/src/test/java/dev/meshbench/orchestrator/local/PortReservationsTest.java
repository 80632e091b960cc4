package dev.meshbench.orchestrator.local;

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

class PortReservationsTest {
    @Test
    @DisplayName("reserved ports are distinct, below the ephemeral range, and free to bind")
    void reservesBelowEphemeralRange() throws Exception {
        Map<String, Integer> ports = PortReservations.reserve(List.of("customer", "flight", "auth", "booking"));
        assertEquals(4, new HashSet<>(ports.values()).size());
        int low = PortReservations.ephemeralLow();
        for (int p : ports.values()) {
            assertTrue(p >= PortReservations.LOWEST && p < low, p + " must lie in [" + PortReservations.LOWEST + ", " + low + ")");
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), p));
            }
        }
    }
}
