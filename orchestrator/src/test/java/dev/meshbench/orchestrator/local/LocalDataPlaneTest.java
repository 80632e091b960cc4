package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LocalDataPlaneTest {
    private static final PlanOptions NETTY = new PlanOptions(DataPlane.NETTY, true, 1, false);

    @Test
    void theEgressStudyRecordsItsThreeProxyKinds() {
        LocalDataPlane d = LocalDataPlane.resolve(NETTY, null, null, "", "1.2.3");

        assertEquals(Map.of("sidecar", "meshbench-netty 1.2.3", "egress-gateway", "meshbench-netty 1.2.3",
                "sni-proxy", "meshbench-netty 1.2.3"), d.versions());
    }

    @Test
    void theLatencyStudyRecordsTheSidecarAndTheIngressGatewayOnly() {
        LocalDataPlane d = LocalDataPlane.resolve(NETTY, null, null, "", "1.2.3");

        Map<String, String> v = d.latencyVersions();

        assertEquals(List.of("sidecar", "ingress-gateway"), List.copyOf(v.keySet()));
        assertEquals("meshbench-netty 1.2.3", v.get("ingress-gateway"));
    }

    @Test
    void anEnvoyIngressIsTheSidecarsEnvoyAndNginxIsLeftOut() {
        LocalDataPlane d = new LocalDataPlane(new PlanOptions(DataPlane.ENVOY, true, 1, false), Optional.of(Path.of("/x/envoy")),
                Optional.of(Path.of("/x/nginx")), Map.of("sidecar", "envoy 1.40.0", "egress-gateway", "envoy 1.40.0",
                        "sni-proxy", "nginx 1.22.1"));

        assertEquals(Map.of("sidecar", "envoy 1.40.0", "ingress-gateway", "envoy 1.40.0"), d.latencyVersions());
    }

    @Test
    void withoutKnownVersionsNothingIsClaimed() {
        assertTrue(LocalDataPlane.netty(NETTY).latencyVersions().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> new LocalDataPlane(new PlanOptions(DataPlane.ENVOY, true, 1, false),
                Optional.empty(), Optional.empty(), Map.of()));
    }
}
