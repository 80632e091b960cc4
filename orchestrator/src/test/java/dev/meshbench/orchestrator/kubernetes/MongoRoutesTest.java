package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.kubernetes.MongoRoutes.Proxy;
import dev.meshbench.orchestrator.kubernetes.MongoRoutes.Route;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Reading MongoDB's routes from an Istio proxy's own Envoy dumps, and what each case expects of each proxy. */
class MongoRoutesTest {
    static final MongoRoutes.Mesh MESH = new MongoRoutes.Mesh("mongo.meshbench.test", 27017, "*.meshbench.test", "10.231.0.1/32",
            "acmeair", "istio-system");
    private static final String GATEWAY_CLUSTER = "outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local";

    /**
     * A sidecar of case mtls as its Envoy dumps it on the test cluster (trimmed to MongoDB's listener, the 443 listener
     * the ServiceEntry's second port adds, and the clusters they name).
     */
    static final String SIDECAR_MTLS_LISTENERS = """
            {"configs":[
             {"@type":"type.googleapis.com/envoy.admin.v3.ListenersConfigDump.DynamicListener","name":"0.0.0.0_27017",
              "active_state":{"listener":{"@type":"type.googleapis.com/envoy.config.listener.v3.Listener","name":"0.0.0.0_27017",
               "address":{"socket_address":{"address":"0.0.0.0","port_value":27017}},
               "filter_chains":[{"filter_chain_match":{"server_names":["mongo.meshbench.test"]},
                 "filters":[{"name":"envoy.filters.network.tcp_proxy","typed_config":{
                   "@type":"type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
                   "stat_prefix":"outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local",
                   "cluster":"outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local"}}],
                 "transport_socket_connect_timeout":"15s"}],
               "listener_filters":[{"name":"envoy.filters.listener.tls_inspector"}],
               "traffic_direction":"OUTBOUND",
               "default_filter_chain":{"filter_chain_match":{},"filters":[{"name":"envoy.filters.network.tcp_proxy",
                 "typed_config":{"stat_prefix":"PassthroughCluster","cluster":"PassthroughCluster"}}],"name":"PassthroughFilterChain"},
               "bind_to_port":false},"last_updated":"2026-11-29T02:02:27.727Z"}},
             {"@type":"type.googleapis.com/envoy.admin.v3.ListenersConfigDump.DynamicListener","name":"0.0.0.0_443",
              "active_state":{"listener":{"name":"0.0.0.0_443","address":{"socket_address":{"address":"0.0.0.0","port_value":443}},
               "filter_chains":[{"filter_chain_match":{"server_names":["mongo.meshbench.test"]},
                 "filters":[{"name":"envoy.filters.network.tcp_proxy","typed_config":{"stat_prefix":"outbound|443||mongo.meshbench.test",
                   "cluster":"outbound|443||mongo.meshbench.test"}}]}]}}}
            ]}""";
    static final String SIDECAR_MTLS_CLUSTERS = """
            {"configs":[
             {"@type":"type.googleapis.com/envoy.admin.v3.ClustersConfigDump.DynamicCluster","cluster":{
               "name":"outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local","type":"EDS",
               "transport_socket":{"name":"envoy.transport_sockets.tls","typed_config":{
                 "@type":"type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext",
                 "common_tls_context":{"alpn_protocols":["istio"]},"sni":"mongo.meshbench.test"}}}},
             {"@type":"type.googleapis.com/envoy.admin.v3.ClustersConfigDump.DynamicCluster","cluster":{
               "name":"outbound|443||mongo.meshbench.test","type":"STRICT_DNS"}}
            ]}""";
    /** Istio's egress gateway right after leaving case mtls: its listener only draining, nothing active. */
    static final String GATEWAY_DRAINING_LISTENERS = """
            {"configs":[{"@type":"type.googleapis.com/envoy.admin.v3.ListenersConfigDump.DynamicListener","name":"0.0.0.0_8443",
              "draining_state":{"listener":{"name":"0.0.0.0_8443","address":{"socket_address":{"address":"0.0.0.0","port_value":8443}},
               "filter_chains":[{"filter_chain_match":{"server_names":["mongo.meshbench.test"]},
                 "filters":[{"name":"envoy.filters.network.tcp_proxy","typed_config":{"cluster":"outbound|27017||mongo.meshbench.test"}}],
                 "transport_socket":{"name":"envoy.transport_sockets.tls","typed_config":{"require_client_certificate":true}}}]}}}]}""";

    @Test
    @DisplayName("a sidecar of case mtls routes MongoDB's port to Istio's egress gateway, starting mTLS with MongoDB's name; its 443 listener is not MongoDB's path")
    void readsASidecarOfCaseMtls() {
        Set<Route> has = MongoRoutes.observed(SIDECAR_MTLS_LISTENERS, SIDECAR_MTLS_CLUSTERS, MESH.host(), MESH.listenerPort(Proxy.SIDECAR));
        assertEquals(Set.of(new Route(List.of("mongo.meshbench.test"), false, GATEWAY_CLUSTER, Optional.of("mongo.meshbench.test"))), has);
        assertEquals(MongoRoutes.expected(EgressCase.MTLS, Proxy.SIDECAR, MESH), has);
        assertEquals(List.of(EgressCase.MTLS), MongoRoutes.casesWith(has, Proxy.SIDECAR, MESH));
    }

    @Test
    @DisplayName("the same sidecar is not what case gateway (no TLS started) or sni (the wildcard, the kit's gateway) expects")
    void mtlsIsNeitherGatewayNorSni() {
        Set<Route> has = MongoRoutes.observed(SIDECAR_MTLS_LISTENERS, SIDECAR_MTLS_CLUSTERS, MESH.host(), OptionalInt.of(27017));
        assertNotEquals(MongoRoutes.expected(EgressCase.GATEWAY, Proxy.SIDECAR, MESH), has);
        assertNotEquals(MongoRoutes.expected(EgressCase.SNI, Proxy.SIDECAR, MESH), has);
    }

    @Test
    @DisplayName("a listener that is only draining routes nothing: a gateway leaving mtls has no MongoDB route")
    void aDrainingListenerIsNoRoute() {
        Set<Route> has = MongoRoutes.observed(GATEWAY_DRAINING_LISTENERS, "{\"configs\":[]}", MESH.host(), OptionalInt.empty());
        assertEquals(Set.of(), has);
        assertEquals(List.of(EgressCase.BYPASS, EgressCase.SIDECAR, EgressCase.SNI), MongoRoutes.casesWith(has, Proxy.ISTIO_EGRESS_GATEWAY, MESH));
        assertEquals("no route for MongoDB", MongoRoutes.describe(has));
    }

    @Test
    @DisplayName("every case's routes for every proxy read back from dumps holding them, and tell the cases apart where they differ")
    void everyCaseReadsBack() {
        for (Proxy proxy : Proxy.values()) {
            for (EgressCase c : EgressCase.values()) {
                Set<Route> routes = MongoRoutes.expected(c, proxy, MESH);
                int port = proxy == Proxy.SIDECAR ? 27017 : 8443;
                Set<Route> has = MongoRoutes.observed(EnvoyDumps.listeners(routes, port), EnvoyDumps.clusters(routes), MESH.host(),
                        MESH.listenerPort(proxy));
                assertEquals(routes, has, proxy + " in " + c.id());
                assertTrue(MongoRoutes.casesWith(has, proxy, MESH).contains(c));
            }
        }
        // Every case gives the sidecars a route of its own: a sidecar with the previous case's routes is always caught.
        for (EgressCase a : EgressCase.values()) {
            assertEquals(List.of(a), MongoRoutes.casesWith(MongoRoutes.expected(a, Proxy.SIDECAR, MESH), Proxy.SIDECAR, MESH), a.id());
        }
    }

    @Test
    @DisplayName("case gateway passes TLS through Istio's egress gateway, case mtls ends it there; sni ends it at the kit's gateway")
    void gatewaysDifferByWhereTlsEnds() {
        assertEquals("SNI mongo.meshbench.test -> outbound|27017||mongo.meshbench.test",
                MongoRoutes.describe(MongoRoutes.expected(EgressCase.GATEWAY, Proxy.ISTIO_EGRESS_GATEWAY, MESH)));
        assertEquals("SNI mongo.meshbench.test (TLS ended here) -> outbound|27017||mongo.meshbench.test",
                MongoRoutes.describe(MongoRoutes.expected(EgressCase.MTLS, Proxy.ISTIO_EGRESS_GATEWAY, MESH)));
        assertEquals("SNI *.meshbench.test (TLS ended here) -> outbound|27017||sni-proxy.local",
                MongoRoutes.describe(MongoRoutes.expected(EgressCase.SNI, Proxy.KIT_EGRESS_GATEWAY, MESH)));
        assertEquals("SNI *.meshbench.test -> outbound|443|mongo|meshbench-egressgateway.acmeair.svc.cluster.local (TLS started, SNI mongo.meshbench.test)",
                MongoRoutes.describe(MongoRoutes.expected(EgressCase.SNI, Proxy.SIDECAR, MESH)));
    }

    @Test
    @DisplayName("a server name covers the host itself or as a wildcard of its domain, nothing else")
    void serverNamesCoverTheHost() {
        assertTrue(MongoRoutes.covers("mongo.meshbench.test", "mongo.meshbench.test"));
        assertTrue(MongoRoutes.covers("*.meshbench.test", "mongo.meshbench.test"));
        assertTrue(MongoRoutes.covers("*.test", "mongo.meshbench.test"));
        assertFalse(MongoRoutes.covers("*.meshbench.test", "meshbench.test"));
        assertFalse(MongoRoutes.covers("*.example", "mongo.meshbench.test"));
        assertFalse(MongoRoutes.covers("other.meshbench.test", "mongo.meshbench.test"));
    }

    @Test
    @DisplayName("healthy endpoints are counted from Envoy's clusters text, other clusters and unhealthy endpoints left out")
    void countsHealthyEndpoints() {
        String text = """
                outbound|443|mongo|meshbench-egressgateway.acmeair.svc.cluster.local::observability_name::outbound|443|mongo|x;
                outbound|443|mongo|meshbench-egressgateway.acmeair.svc.cluster.local::10.244.0.18:443::cx_active::0
                outbound|443|mongo|meshbench-egressgateway.acmeair.svc.cluster.local::10.244.0.18:443::health_flags::healthy
                outbound|443|mongo|meshbench-egressgateway.acmeair.svc.cluster.local::10.244.0.19:443::health_flags::/failed_eds_health
                outbound|443||meshbench-egressgateway.acmeair.svc.cluster.local::10.244.0.18:443::health_flags::healthy
                """;
        assertEquals(1, MongoRoutes.healthyEndpoints(text, "outbound|443|mongo|meshbench-egressgateway.acmeair.svc.cluster.local"));
        assertEquals(0, MongoRoutes.healthyEndpoints(text, "outbound|27017||mongo.meshbench.test"));
    }

    @Test
    @DisplayName("draining is the sum of Envoy's two listener_manager gauges; stats without them say nothing")
    void readsDraining() {
        assertEquals(OptionalInt.of(0), MongoRoutes.draining(EnvoyDumps.drainingStats(0, 0)));
        assertEquals(OptionalInt.of(2), MongoRoutes.draining(EnvoyDumps.drainingStats(1, 1)));
        assertEquals(OptionalInt.empty(), MongoRoutes.draining("server.live: 1\n"));
    }

    @Test
    @DisplayName("an answer that is not JSON (the proxy's error text) is refused, naming which dump")
    void notJsonIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MongoRoutes.observed("Error: dial tcp 127.0.0.1:15000: connect: connection refused", "{}", MESH.host(), OptionalInt.empty()));
        assertTrue(e.getMessage().startsWith("the listeners' config dump is not JSON"), e.getMessage());
        assertTrue(e.getMessage().endsWith("Error: dial tcp 127.0.0.1:15000: connect: connection refused"), e.getMessage());
    }
}
