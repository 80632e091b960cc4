package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.meshbench.orchestrator.latency.LatencyCell;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LatencyOnClusterTest {
    private static String refusal(Map<String, String> props) {
        return assertThrows(IllegalArgumentException.class, () -> LatencyOnCluster.refuseLocalOnly(props)).getMessage();
    }

    @Test
    @DisplayName("what only the local target can do is refused, naming the property and why")
    void refusesLocalOnlySettings() {
        assertEquals("meshbench.dataplane=netty: on a cluster the data plane is Istio's (its sidecars and ingress gateway, recorded as "
                + "'istio'); leave meshbench.dataplane unset with meshbench.target=kubernetes", refusal(Map.of("meshbench.dataplane", "netty")));
        assertEquals("meshbench.proxyWorkers=4: on a cluster Istio sets its proxies' concurrency (proxy.istio.io/config); leave "
                + "meshbench.proxyWorkers unset with meshbench.target=kubernetes", refusal(Map.of("meshbench.proxyWorkers", "4")));
        assertEquals("meshbench.sidecarMtls=false: on a cluster Istio's auto-mTLS decides (on unless a PeerAuthentication says otherwise; "
                + "the latency cells apply none)", refusal(Map.of("meshbench.sidecarMtls", "false")));
        assertEquals("meshbench.cpus.mesh=1: CPU sets are for the local target; on a cluster the scheduler places the pods",
                refusal(Map.of("meshbench.cpus.mesh", "1")));
        assertDoesNotThrow(() -> LatencyOnCluster.refuseLocalOnly(Map.of("meshbench.sidecarMtls", "true", "meshbench.target", "kubernetes")));
    }

    @Test
    @DisplayName("every selected cell must have manifests; a user's graph stops the run before any cell")
    void checksCells() {
        KubernetesSettings s = KubernetesFixtures.settings(Duration.ofSeconds(1));
        assertDoesNotThrow(() -> LatencyOnCluster.checkCells(LatencyCell.matrix(List.of("single", "double")), s));
        String m = assertThrows(IllegalArgumentException.class, () -> LatencyOnCluster.checkCells(
                List.of(new LatencyCell("single", 1, false, false), new LatencyCell("fanout", 5, true, false)), s)).getMessage();
        assertEquals("cell fanout/5/gateway/none has no manifests (istio-config/latency/cells/fanout-5-gateway-none): on a cluster the "
                + "latency study runs the graphs istio-config/latency/services has (single, double) at scales 1 and 5", m);
    }

    @Test
    @DisplayName("results record the cluster settings and Istio's data plane, never the kubeconfig")
    void recordsSettings() {
        Map<String, String> r = LatencyOnCluster.recordedSettings(KubernetesFixtures.settings(Duration.ofSeconds(1)));
        assertEquals("kubernetes", r.get("meshbench.target"));
        assertEquals("meshbench-test", r.get("meshbench.namespace"));
        assertEquals("registry.example/acmeair-services:test", r.get("meshbench.images.services"));
        assertEquals("none: port-forward", r.get("meshbench.ingressUrl"));
        assertFalse(r.keySet().stream().anyMatch(k -> k.contains("kubeconfig")));
        assertEquals("istio", LatencyOnCluster.plannedDataPlane().name());
    }
}
