package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.orchestrator.run.PathProof;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClusterHopsTest {
    private static final MongoRoutes.Mesh MESH = MongoRoutesTest.MESH;
    private static final String TO_MONGO = "outbound|27017||mongo.meshbench.test";
    private static final String TO_ISTIO_GATEWAY = "outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local";
    private static final String TO_SNI_PROXY = "outbound|27017||sni-proxy.local";

    /** A proxy's {@code stats?filter=} answer: the byte counters of the clusters given, and of a service's HTTP cluster beside them. */
    private static String stats(String cluster, long tx, long rx) {
        return "cluster.outbound|8080||customer.meshbench.svc.cluster.local.upstream_cx_rx_bytes_total: 777777\n"
                + "cluster.outbound|8080||customer.meshbench.svc.cluster.local.upstream_cx_tx_bytes_total: 888888\n"
                + "cluster." + cluster + ".upstream_cx_rx_bytes_total: " + rx + "\n"
                + "cluster." + cluster + ".upstream_cx_tx_bytes_total: " + tx + "\n";
    }

    @Test
    @DisplayName("a sidecar's MongoDB clusters are every case's: MongoDB itself, Istio's egress gateway and the kit's")
    void sidecarClusters() {
        Set<String> clusters = ClusterHops.mongoClusters(MongoRoutes.Proxy.SIDECAR, MESH);
        assertEquals(Set.of(TO_MONGO, TO_ISTIO_GATEWAY, "outbound|443|mongo|meshbench-egressgateway.acmeair.svc.cluster.local"),
                clusters);
        assertEquals(Set.of(TO_SNI_PROXY), ClusterHops.mongoClusters(MongoRoutes.Proxy.KIT_EGRESS_GATEWAY, MESH));
    }

    @Test
    @DisplayName("only the MongoDB clusters' bytes count, both directions, with or without the ';' Istio puts after a ServiceEntry host")
    void bytesOfTheMongoClustersOnly() {
        Set<String> clusters = ClusterHops.mongoClusters(MongoRoutes.Proxy.SIDECAR, MESH);
        assertArrayEquals(new long[] {300, 4000}, ClusterHops.bytes(stats(TO_ISTIO_GATEWAY, 300, 4000), clusters));
        assertArrayEquals(new long[] {5, 7}, ClusterHops.bytes(stats(TO_MONGO + ";", 5, 7), clusters));
        assertArrayEquals(new long[] {0, 0}, ClusterHops.bytes("", clusters));
    }

    @Test
    @DisplayName("a sidecar's traffic is its outbound clusters' bytes and its inbound HTTP listener's, not its control or admin traffic")
    void allTraffic() {
        // booking's sidecar on the test cluster in case sidecar (names as its Envoy gives them, values made round)
        String stats = "cluster.outbound|8080||customer.acmeair.svc.cluster.local;.upstream_cx_rx_bytes_total: 1000\n"
                + "cluster.outbound|8080||customer.acmeair.svc.cluster.local;.upstream_cx_tx_bytes_total: 2000\n"
                + "cluster." + TO_MONGO + ";.upstream_cx_rx_bytes_total: 40000\n"
                + "cluster." + TO_MONGO + ";.upstream_cx_tx_bytes_total: 3000\n"
                + "cluster.xds-grpc;.upstream_cx_rx_bytes_total: 129268\n"
                + "cluster.xds-grpc;.upstream_cx_tx_bytes_total: 67526\n"
                + "http.admin.downstream_cx_tx_bytes_total: 164177\n"
                + "http.agent.downstream_cx_rx_bytes_total: 819\n"
                + "http.inbound_0.0.0.0_8080;.downstream_cx_rx_bytes_total: 10000\n"
                + "http.inbound_0.0.0.0_8080;.downstream_cx_tx_bytes_total: 5000\n";
        assertEquals(1000 + 2000 + 40000 + 3000 + 10000 + 5000, ClusterHops.allBytes(stats));
        long[] mongo = ClusterHops.bytes(stats, ClusterHops.mongoClusters(MongoRoutes.Proxy.SIDECAR, MESH));
        assertArrayEquals(new long[] {3000, 40000}, mongo);
        // customer's sidecar, whose app calls nothing but MongoDB: its inbound requests keep its MongoDB share below 1
        String customer = "cluster." + TO_MONGO + ";.upstream_cx_rx_bytes_total: 40000\n"
                + "http.inbound_0.0.0.0_8080;.downstream_cx_rx_bytes_total: 30000\n";
        assertEquals(70000, ClusterHops.allBytes(customer));
    }

    @Test
    @DisplayName("a gateway window on a cluster is proven by the sidecars' and Istio's gateway's bytes; the same counters contradict sni")
    void provesAWindow() {
        Map<String, String> start = Map.of(
                "sidecar-booking", ClusterHops.component("sidecar-booking", HopKind.SIDECAR, ClusterHops.bytes(stats(TO_ISTIO_GATEWAY, 100, 100),
                        ClusterHops.mongoClusters(MongoRoutes.Proxy.SIDECAR, MESH))),
                "egress-gateway", ClusterHops.component("egress-gateway", HopKind.EGRESS_GATEWAY, ClusterHops.bytes(stats(TO_MONGO, 100, 100),
                        ClusterHops.mongoClusters(MongoRoutes.Proxy.ISTIO_EGRESS_GATEWAY, MESH))));
        Map<String, String> end = Map.of(
                "sidecar-booking", ClusterHops.component("sidecar-booking", HopKind.SIDECAR, ClusterHops.bytes(stats(TO_ISTIO_GATEWAY, 900, 5000),
                        ClusterHops.mongoClusters(MongoRoutes.Proxy.SIDECAR, MESH))),
                "egress-gateway", ClusterHops.component("egress-gateway", HopKind.EGRESS_GATEWAY, ClusterHops.bytes(stats(TO_MONGO, 900, 5000),
                        ClusterHops.mongoClusters(MongoRoutes.Proxy.ISTIO_EGRESS_GATEWAY, MESH))));
        assertEquals(List.of(), PathProof.gaps(EgressCase.GATEWAY, start, end));
        assertEquals(List.of("the MongoDB path of sidecar does not pass the egress gateway, but egress-gateway/egress carried 5700 bytes in the window"),
                PathProof.gaps(EgressCase.SIDECAR, start, end));
        assertEquals(List.of("the MongoDB path of sni passes the sni proxy, but no such component ran in the window"),
                PathProof.gaps(EgressCase.SNI, start, end));
    }

    @Test
    @DisplayName("a proxy that could not be read leaves its part unproven, named with why, instead of counting as no bytes")
    void unreadProxy() {
        Map<String, String> start = Map.of("sidecar-booking", ClusterHops.component("sidecar-booking", HopKind.SIDECAR, new long[] {1, 1}),
                "egress-gateway", ClusterHops.component("egress-gateway", HopKind.EGRESS_GATEWAY, new long[] {0, 0}));
        Map<String, String> end = Map.of("sidecar-booking", ClusterHops.component("sidecar-booking", HopKind.SIDECAR, new long[] {90, 900}),
                "egress-gateway", ClusterHops.unread("egress-gateway", "asking the proxy of pod istio-system/gw-1 for stats failed: gone"));
        List<String> gaps = PathProof.gaps(EgressCase.SIDECAR, start, end);
        assertEquals(1, gaps.size(), gaps.toString());
        assertTrue(gaps.get(0).equals("the counters of egress-gateway could not be read at the window's end, so its part of the path is "
                + "unproven: asking the proxy of pod istio-system/gw-1 for stats failed: gone"), gaps.get(0));
    }
}
