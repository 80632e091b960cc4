package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.meshbench.component.MeshNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.model.ComponentNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** What the rendered bootstraps must say for each case to route and secure as Istio would. */
class EnvoyBootstrapRendererTest {
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String DOWNSTREAM_TLS = "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext";
    private static final String GATEWAY_SPIFFE = "spiffe://cluster.local/ns/istio-system/sa/istio-egressgateway";

    static Stream<Arguments> everyEnvoyProxyOfEveryCase() {
        return Stream.of(EgressCase.values()).flatMap(c -> Stream.of(true, false).flatMap(mtls ->
                EnvoyFixtures.plan(c, mtls).components().stream()
                        .filter(p -> p.kind() == ComponentKind.SIDECAR || p.kind() == ComponentKind.EGRESS_GATEWAY)
                        .map(p -> Arguments.of(c, mtls, p.name()))));
    }

    private static JsonNode render(EgressCase c, boolean sidecarMtls, String component) throws IOException {
        TopologyPlan plan = EnvoyFixtures.plan(c, sidecarMtls);
        return YAML.readTree(EnvoyBootstrapRenderer.render(plan, plan.component(component), EnvoyFixtures.fixedAddresses(plan),
                EnvoyFixtures.fixedMeshFiles(plan)));
    }

    private static JsonNode listener(JsonNode bootstrap, String name) {
        for (JsonNode l : bootstrap.at("/static_resources/listeners")) {
            if (l.path("name").asText().equals(name)) {
                return l;
            }
        }
        throw new AssertionError("no listener " + name + " in " + bootstrap);
    }

    private static JsonNode cluster(JsonNode bootstrap, String name) {
        for (JsonNode c : bootstrap.at("/static_resources/clusters")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no cluster " + name + " in " + bootstrap.at("/static_resources/clusters"));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> values(JsonNode tree, String field) {
        List<String> out = new ArrayList<>();
        tree.findValues(field).forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    @DisplayName("case gateway: the gateway passes TLS through, routing by the ClientHello's server name")
    void gatewayPassesThrough() throws IOException {
        JsonNode gw = render(EgressCase.GATEWAY, true, ComponentNames.EGRESS_GATEWAY);
        assertFalse(values(gw, "@type").contains(DOWNSTREAM_TLS), "no TLS termination at the passthrough gateway");
        assertTrue(values(gw, "@type").stream().noneMatch(t -> t.endsWith("UpstreamTlsContext")), "no TLS origination either");
        JsonNode egress = listener(gw, "egress");
        assertEquals("envoy.filters.listener.tls_inspector", egress.at("/listener_filters/0/name").asText());
        assertEquals(1, egress.path("filter_chains").size(), "one chain, no default chain");
        assertEquals(List.of("mongo.meshbench.test"), texts(egress.at("/filter_chains/0/filter_chain_match/server_names")));
        assertEquals("outbound|27017||mongo.meshbench.test", egress.at("/filter_chains/0/filters/0/typed_config/cluster").asText());
    }

    @ParameterizedTest(name = "case {0}: the gateway terminates mesh mTLS and requires a client certificate of the mesh CA")
    @EnumSource(value = EgressCase.class, names = {"MTLS", "SNI"})
    void gatewayRequiresClientCertificate(EgressCase c) throws IOException {
        JsonNode gw = render(c, false, ComponentNames.EGRESS_GATEWAY);
        JsonNode chain = listener(gw, "egress").at("/filter_chains/0");
        JsonNode tls = chain.at("/transport_socket/typed_config");
        assertEquals(DOWNSTREAM_TLS, tls.path("@type").asText());
        assertTrue(tls.path("require_client_certificate").asBoolean(), tls.toString());
        assertEquals(EnvoyFixtures.FIXED_PKI.resolve("mesh-ca.pem").toString(), tls.at("/common_tls_context/validation_context/trusted_ca/filename").asText());
        assertEquals(EnvoyFixtures.FIXED_PKI.resolve("egress-gateway.crt").toString(),
                tls.at("/common_tls_context/tls_certificates/0/certificate_chain/filename").asText());
        String expectedName = c == EgressCase.SNI ? MeshNames.MONGO_WILDCARD : MeshNames.MONGO_HOST;
        assertEquals(List.of(expectedName), texts(chain.at("/filter_chain_match/server_names")), "matched on the tunnel's server name");
        String expectedCluster = c == EgressCase.SNI ? "outbound|27017||sni-proxy.local" : "outbound|27017||mongo.meshbench.test";
        assertEquals(expectedCluster, chain.at("/filters/0/typed_config/cluster").asText());
        assertTrue(cluster(gw, expectedCluster).path("transport_socket").isMissingNode(), "the gateway's upstream is plain TCP carrying the app's TLS");
    }

    @ParameterizedTest(name = "case {0}: the sidecar's MongoDB cluster originates mTLS to the gateway's identity")
    @EnumSource(value = EgressCase.class, names = {"MTLS", "SNI"})
    void sidecarOriginatesMtlsToGateway(EgressCase c) throws IOException {
        JsonNode sidecar = render(c, false, ComponentNames.sidecarOf("booking"));
        String name = listener(sidecar, "mongo").at("/filter_chains/0/filters/0/typed_config/cluster").asText();
        assertEquals("outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local", name);
        JsonNode tls = cluster(sidecar, name).at("/transport_socket/typed_config");
        assertEquals("type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext", tls.path("@type").asText());
        assertEquals(MeshNames.MONGO_HOST, tls.path("sni").asText());
        JsonNode san = tls.at("/common_tls_context/validation_context/match_typed_subject_alt_names/0");
        assertEquals("URI", san.path("san_type").asText());
        assertEquals(GATEWAY_SPIFFE, san.at("/matcher/exact").asText());
        assertEquals(EnvoyFixtures.FIXED_PKI.resolve("sidecar-booking.key").toString(),
                tls.at("/common_tls_context/tls_certificates/0/private_key/filename").asText());
    }

    @ParameterizedTest(name = "case {0}: the sidecar's mongo chain matches the case's server names")
    @EnumSource(value = EgressCase.class, names = {"SIDECAR", "GATEWAY", "MTLS", "SNI"})
    void sidecarMongoServerNames(EgressCase c) throws IOException {
        JsonNode mongo = listener(render(c, true, ComponentNames.sidecarOf("customer")), "mongo");
        List<String> expected = c == EgressCase.SNI ? List.of("*.meshbench.test") : List.of("mongo.meshbench.test");
        assertEquals(expected, texts(mongo.at("/filter_chains/0/filter_chain_match/server_names")));
        assertEquals(1, mongo.path("filter_chains").size(), "no default chain: an unknown name is refused");
        assertEquals("envoy.filters.listener.tls_inspector", mongo.at("/listener_filters/0/name").asText());
        assertEquals("mongo", mongo.at("/filter_chains/0/filters/0/typed_config/stat_prefix").asText());
    }

    @Test
    @DisplayName("case sidecar: the sidecar sends MongoDB traffic straight to MongoDB, untouched")
    void sidecarCaseGoesStraightToMongo() throws IOException {
        JsonNode sidecar = render(EgressCase.SIDECAR, false, ComponentNames.sidecarOf("flight"));
        String name = listener(sidecar, "mongo").at("/filter_chains/0/filters/0/typed_config/cluster").asText();
        assertEquals("outbound|27017||mongo.meshbench.test", name);
        assertTrue(cluster(sidecar, name).path("transport_socket").isMissingNode());
        assertFalse(values(sidecar, "@type").stream().anyMatch(t -> t.contains("TlsContext")), "no mTLS anywhere with sidecar mTLS off");
    }

    @Test
    @DisplayName("case bypass: sidecars carry no MongoDB listener")
    void bypassHasNoMongoListener() throws IOException {
        JsonNode sidecar = render(EgressCase.BYPASS, true, ComponentNames.sidecarOf("booking"));
        assertEquals(List.of("inbound", "inbound-mesh", "to-flight", "to-customer"), values(sidecar.at("/static_resources/listeners"), "stat_prefix")
                .stream().distinct().toList());
        sidecar.at("/static_resources/listeners").forEach(l -> assertFalse(l.path("name").asText().equals("mongo")));
    }

    @Test
    @DisplayName("sidecar mTLS on: inbound-mesh accepts any mesh identity, to-<peer> checks the peer's identity")
    void sidecarMeshMtls() throws IOException {
        JsonNode booking = render(EgressCase.GATEWAY, true, ComponentNames.sidecarOf("booking"));
        JsonNode inboundMesh = listener(booking, "inbound-mesh").at("/filter_chains/0/transport_socket/typed_config");
        assertTrue(inboundMesh.path("require_client_certificate").asBoolean());
        assertTrue(inboundMesh.at("/common_tls_context/validation_context/match_typed_subject_alt_names").isMissingNode(),
                "Istio's inbound accepts any identity of the mesh CA");
        assertTrue(listener(booking, "inbound").at("/filter_chains/0/transport_socket").isMissingNode(), "plain inbound from the load generator");

        String toFlight = listener(booking, "to-flight").at("/filter_chains/0/filters/0/typed_config/route_config/virtual_hosts/0/routes/0/route/cluster").asText();
        assertEquals("outbound|80||flight.acmeair.svc.cluster.local", toFlight);
        JsonNode tls = cluster(booking, toFlight).at("/transport_socket/typed_config");
        assertEquals("flight.acmeair.svc.cluster.local", tls.path("sni").asText());
        assertEquals("spiffe://cluster.local/ns/acmeair/sa/flight", tls.at("/common_tls_context/validation_context/match_typed_subject_alt_names/0/matcher/exact").asText());

        JsonNode plain = render(EgressCase.GATEWAY, false, ComponentNames.sidecarOf("booking"));
        assertTrue(cluster(plain, "outbound|80||flight.acmeair.svc.cluster.local").path("transport_socket").isMissingNode());
        plain.at("/static_resources/listeners").forEach(l -> assertFalse(l.path("name").asText().equals("inbound-mesh")));
    }

    @ParameterizedTest(name = "case {0}, sidecar mTLS {1}: {2} is consistent with the plan and its addresses")
    @MethodSource("everyEnvoyProxyOfEveryCase")
    void consistentWithPlan(EgressCase c, boolean sidecarMtls, String component) throws IOException {
        TopologyPlan plan = EnvoyFixtures.plan(c, sidecarMtls);
        ComponentPlan proxy = plan.component(component);
        LocalAddresses addrs = EnvoyFixtures.fixedAddresses(plan);
        JsonNode b = render(c, sidecarMtls, component);
        assertEquals(component, b.at("/node/id").asText());
        assertEquals(addrs.adminPort(component), b.at("/admin/address/socket_address/port_value").asInt());
        assertEquals("127.0.0.1", b.at("/admin/address/socket_address/address").asText());
        assertEquals(proxy.listeners().size(), b.at("/static_resources/listeners").size());
        for (ListenerPlan l : proxy.listeners()) {
            JsonNode rendered = listener(b, l.name());
            assertEquals(l.name(), rendered.path("stat_prefix").asText());
            assertEquals("127.0.0.1", rendered.at("/address/socket_address/address").asText());
            assertEquals(addrs.port(component, l.name()), rendered.at("/address/socket_address/port_value").asInt());
            String filterStatPrefix = rendered.at("/filter_chains/0/filters/0/typed_config/stat_prefix").asText();
            assertEquals(l.name(), filterStatPrefix);
        }
        Set<String> clusters = new HashSet<>();
        for (JsonNode cl : b.at("/static_resources/clusters")) {
            assertTrue(clusters.add(cl.path("name").asText()), "cluster names are unique");
            assertEquals("STATIC", cl.path("type").asText());
            assertEquals("10s", cl.path("connect_timeout").asText());
            JsonNode t = cl.at("/circuit_breakers/thresholds/0");
            for (String f : List.of("max_connections", "max_pending_requests", "max_requests", "max_retries")) {
                assertEquals(4294967295L, t.path(f).asLong(), f + " of " + cl.path("name").asText());
            }
        }
        assertEquals(clusters, new HashSet<>(values(b.at("/static_resources/listeners"), "cluster")), "every cluster is used and every used cluster exists");
    }

    @Test
    @DisplayName("the bootstrap names key files but never holds key material")
    void noKeyMaterial(@TempDir Path dir) throws IOException {
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, true);
        MeshFiles files = EnvoyFixtures.realMeshFiles(plan, dir);
        String yaml = EnvoyBootstrapRenderer.render(plan, plan.component("sidecar-auth"), EnvoyFixtures.fixedAddresses(plan), files);
        assertFalse(yaml.contains("-----BEGIN"), yaml);
        String keyBody = Files.readString(files.key("sidecar-auth")).lines().filter(s -> !s.startsWith("-----")).findFirst().orElseThrow();
        assertFalse(yaml.contains(keyBody));
        assertTrue(yaml.contains(files.key("sidecar-auth").toString()));
    }

    @Test
    @DisplayName("only sidecars and the egress gateway are Envoys")
    void rejectsOtherComponents() {
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, true);
        LocalAddresses addrs = EnvoyFixtures.fixedAddresses(plan);
        MeshFiles files = EnvoyFixtures.fixedMeshFiles(plan);
        for (String name : List.of("sni-proxy", "mongo", "booking")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> EnvoyBootstrapRenderer.render(plan, plan.component(name), addrs, files));
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }
    }

    @Test
    @DisplayName("cluster names follow Istio's direction|port|subset|host form")
    void clusterNames() {
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, true);
        LocalAddresses addrs = EnvoyFixtures.fixedAddresses(plan);
        assertEquals("outbound|27017||mongo.meshbench.test", EnvoyClusterNames.of(new dev.meshbench.orchestrator.plan.Endpoint("mongo", "mongo"), addrs));
        assertEquals("outbound|27017||sni-proxy.local", EnvoyClusterNames.of(new dev.meshbench.orchestrator.plan.Endpoint("sni-proxy", "sni"), addrs));
        assertEquals("outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local",
                EnvoyClusterNames.of(new dev.meshbench.orchestrator.plan.Endpoint("egress-gateway", "egress"), addrs));
        assertEquals("outbound|80||customer.acmeair.svc.cluster.local",
                EnvoyClusterNames.of(new dev.meshbench.orchestrator.plan.Endpoint("sidecar-customer", "inbound-mesh"), addrs));
        assertEquals("inbound|" + addrs.port("booking", "http") + "||",
                EnvoyClusterNames.of(new dev.meshbench.orchestrator.plan.Endpoint("booking", "http"), addrs));
    }
}
