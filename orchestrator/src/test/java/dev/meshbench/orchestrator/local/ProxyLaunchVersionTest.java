package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The configuration name a proxy starts with when its deployment does not name one. */
class ProxyLaunchVersionTest {
    @Test
    @DisplayName("a latency cell's id loses its slashes (a Netty relay refused 'single/1/none/sidecar' and exited 2); an egress case's id is kept; a long id is cut at 64")
    void configVersionFromPlanId() {
        assertEquals("single-1-none-sidecar", ProxyLaunch.configVersion("single/1/none/sidecar"));
        assertEquals("sni", ProxyLaunch.configVersion("sni"));
        assertEquals("a.b_c:d-e", ProxyLaunch.configVersion("a.b_c:d-e"));
        assertEquals(64, ProxyLaunch.configVersion("x".repeat(80)).length());
    }
}
