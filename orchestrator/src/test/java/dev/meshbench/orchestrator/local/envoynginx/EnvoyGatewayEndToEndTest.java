package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.component.MeshNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.model.ComponentNames;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Envoy running case gateway's egress gateway (TLS passthrough by SNI) in front of a loopback echo server
 * standing in for MongoDB, read through {@link EnvoyStatsReader}. Skipped, with the reason, when there is no Envoy.
 */
class EnvoyGatewayEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    @DisplayName("passes a ClientHello for the MongoDB host through, refuses an unknown name, and counts both")
    void passthrough(@TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.GATEWAY, false);
        ComponentPlan gateway = plan.component(ComponentNames.EGRESS_GATEWAY);
        try (EnvoyFixtures.EchoServer mongo = new EnvoyFixtures.EchoServer(0)) {
            LocalAddresses addrs = EnvoyFixtures.withPort(EnvoyFixtures.freeAddresses(plan), new Endpoint("mongo", "mongo"), mongo.port());
            Process p = EnvoyFixtures.startEnvoy(envoy, plan, gateway, addrs, EnvoyFixtures.realMeshFiles(plan, dir), dir);
            URI admin = URI.create("http://127.0.0.1:" + addrs.adminPort(gateway.name()));
            try {
                JsonNode before = hop(gateway, addrs, admin);
                int port = addrs.port(gateway.name(), "egress");

                EnvoyFixtures.sendClientHello(port, MeshNames.MONGO_HOST);
                assertTrue(EnvoyFixtures.await(Duration.ofSeconds(10), () -> mongo.accepted.get() == 1), "the gateway connected to MongoDB");
                EnvoyFixtures.sendClientHello(port, "unknown.example");

                assertTrue(EnvoyFixtures.await(Duration.ofSeconds(10), () -> {
                    JsonNode now = hop(gateway, addrs, admin);
                    return now.path("accepted").asLong() - before.path("accepted").asLong() == 2
                            && now.path("closed").asLong() - before.path("closed").asLong() == 2;
                }), "both connections counted and closed: " + hop(gateway, addrs, admin));
                JsonNode after = hop(gateway, addrs, admin);
                assertEquals(1, after.at("/refused/sni").asLong() - before.at("/refused/sni").asLong(), after.toString());
                assertEquals(0, after.at("/refused/tls").asLong());
                assertEquals(0, after.at("/refused/upstreamConnect").asLong());
                assertTrue(after.path("bytesClientToUpstream").asLong() > 0, "the ClientHello reached MongoDB: " + after);
                assertEquals(after.path("bytesClientToUpstream").asLong(), after.path("bytesUpstreamToClient").asLong(), "echoed");
                assertEquals("none", after.path("tls").asText());
                assertEquals(1, after.at("/envoy/listener.egress.downstream_cx_total").asLong(), "only the matched one got a filter chain");
                assertEquals(1, after.at("/envoy/cluster.outbound|27017||mongo.meshbench.test.upstream_cx_total").asLong());
                assertEquals(1, mongo.accepted.get(), "the unknown name never reached MongoDB");
            } finally {
                assertTrue(EnvoyFixtures.stop(p), "envoy and its children stopped");
            }
            assertTrue(!p.isAlive());
        }
    }

    @Test
    @DisplayName("case mtls: MongoDB traffic crosses the sidecar-gateway mTLS tunnel; a client without a certificate is refused")
    void mtlsTunnel(@TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.MTLS, false);
        ComponentPlan gateway = plan.component(ComponentNames.EGRESS_GATEWAY);
        ComponentPlan sidecar = plan.component(ComponentNames.sidecarOf("booking"));
        try (EnvoyFixtures.EchoServer mongo = new EnvoyFixtures.EchoServer(0)) {
            LocalAddresses addrs = EnvoyFixtures.withPort(EnvoyFixtures.freeAddresses(plan), new Endpoint("mongo", "mongo"), mongo.port());
            dev.meshbench.orchestrator.local.MeshFiles files = EnvoyFixtures.realMeshFiles(plan, Files.createDirectories(dir.resolve("pki")));
            List<Process> processes = new ArrayList<>();
            try {
                for (ComponentPlan c : List.of(gateway, sidecar)) {
                    processes.add(EnvoyFixtures.startEnvoy(envoy, plan, c, addrs, files, dir));
                }
                URI gatewayAdmin = URI.create("http://127.0.0.1:" + addrs.adminPort(gateway.name()));
                URI sidecarAdmin = URI.create("http://127.0.0.1:" + addrs.adminPort(sidecar.name()));

                EnvoyFixtures.sendClientHello(addrs.port(sidecar.name(), "mongo"), MeshNames.MONGO_HOST);
                assertTrue(EnvoyFixtures.await(Duration.ofSeconds(10), () -> mongo.accepted.get() == 1), "MongoDB reached through the tunnel");
                assertTrue(EnvoyFixtures.await(Duration.ofSeconds(10), () -> hop(gateway, addrs, gatewayAdmin, "egress").path("closed").asLong() == 1),
                        "the gateway closed the session: " + hop(gateway, addrs, gatewayAdmin, "egress"));
                JsonNode side = hop(sidecar, addrs, sidecarAdmin, "mongo");
                assertEquals("mtls-originate", side.path("tls").asText());
                assertEquals(0, side.at("/refused/tls").asLong(), side.toString());
                assertEquals(1, side.at("/envoy/cluster.outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local.ssl.handshake").asLong(),
                        "one mTLS handshake with the gateway: " + side);
                JsonNode gw = hop(gateway, addrs, gatewayAdmin, "egress");
                assertEquals("mtls-terminate", gw.path("tls").asText());
                assertEquals(1, gw.at("/envoy/listener.egress.ssl.handshake").asLong(), gw.toString());
                assertTrue(gw.path("bytesClientToUpstream").asLong() > 0, gw.toString());

                // Straight to the gateway, trusting the mesh CA but without a client certificate.
                java.security.cert.X509Certificate ca = (java.security.cert.X509Certificate) java.security.cert.CertificateFactory
                        .getInstance("X.509").generateCertificate(Files.newInputStream(files.caPem()));
                javax.net.ssl.SSLContext noCert = javax.net.ssl.SSLContext.getInstance("TLS");
                noCert.init(null, dev.meshbench.pki.TlsContexts.trustManagers(List.of(ca)).getTrustManagers(), null);
                EnvoyFixtures.sendClientHello(addrs.port(gateway.name(), "egress"), MeshNames.MONGO_HOST, noCert);
                assertTrue(EnvoyFixtures.await(Duration.ofSeconds(10), () -> hop(gateway, addrs, gatewayAdmin, "egress").at("/refused/tls").asLong() == 1),
                        "refused for want of a client certificate: " + hop(gateway, addrs, gatewayAdmin, "egress"));
                assertEquals(1, hop(gateway, addrs, gatewayAdmin, "egress").at("/envoy/listener.egress.ssl.fail_verify_no_cert").asLong());
            } finally {
                for (Process p : processes) {
                    assertTrue(EnvoyFixtures.stop(p), "envoy stopped");
                }
            }
        }
    }

    private static JsonNode hop(ComponentPlan gateway, LocalAddresses addrs, URI admin) {
        return hop(gateway, addrs, admin, "egress");
    }

    private static JsonNode hop(ComponentPlan c, LocalAddresses addrs, URI admin, String listener) {
        Optional<String> stats = EnvoyFixtures.httpGet(admin.resolve("/stats"));
        try {
            return JSON.readTree(EnvoyStatsReader.hopJson(c, addrs, stats.orElseThrow(() -> new AssertionError("no /stats from " + admin))))
                    .at("/listeners/" + listener);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
