package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Envoy's admin {@code /stats} text (as Envoy 1.40 prints it) into the hop JSON. */
class EnvoyStatsReaderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Excerpt of a case-mtls egress gateway after one good session, one unknown name, one client without a certificate. */
    private static final String GATEWAY_STATS = """
            cluster.outbound|27017||mongo.meshbench.test.upstream_cx_connect_fail: 0
            cluster.outbound|27017||mongo.meshbench.test.upstream_cx_destroy: 2
            cluster.outbound|27017||mongo.meshbench.test.upstream_cx_rx_bytes_total: 333
            cluster.outbound|27017||mongo.meshbench.test.upstream_cx_total: 2
            cluster.outbound|27017||mongo.meshbench.test.upstream_cx_tx_bytes_total: 333
            cluster.outbound|27017||mongo.meshbench.test.lb_healthy_panic: 0
            http.admin.downstream_cx_total: 7
            listener.admin.downstream_cx_total: 7
            listener.egress.downstream_cx_active: 0
            listener.egress.downstream_cx_destroy: 2
            listener.egress.downstream_cx_total: 2
            listener.egress.downstream_listener_filter_error: 0
            listener.egress.downstream_pre_cx_timeout: 0
            listener.egress.no_filter_chain_match: 1
            listener.egress.ssl.connection_error: 0
            listener.egress.ssl.fail_verify_error: 0
            listener.egress.ssl.fail_verify_no_cert: 1
            listener.egress.ssl.handshake: 1
            listener.egress.ssl.versions.TLSv1.3: 1
            server.version: 1234
            tcp.egress.downstream_cx_rx_bytes_total: 333
            tcp.egress.downstream_cx_total: 2
            tcp.egress.downstream_cx_tx_bytes_total: 333
            cluster.outbound|27017||mongo.meshbench.test.upstream_cx_connect_ms: No recorded values
            listener.egress.downstream_cx_length_ms: P0(nan,2.03) P25(nan,2.03) P50(nan,2.03) P75(nan,2.06) P90(nan,2.06) P95(nan,2.06) P99(nan,2.06) P99.5(nan,2.06) P99.9(nan,2.06) P100(nan,2.06)
            """;

    @Test
    @DisplayName("parses counters and gauges and skips histograms")
    void parses() {
        Map<String, Long> m = EnvoyStatsReader.parse(GATEWAY_STATS);
        assertEquals(2L, m.get("cluster.outbound|27017||mongo.meshbench.test.upstream_cx_total"));
        assertEquals(1L, m.get("listener.egress.ssl.versions.TLSv1.3"));
        assertFalse(m.containsKey("listener.egress.downstream_cx_length_ms"));
        assertFalse(m.containsKey("cluster.outbound|27017||mongo.meshbench.test.upstream_cx_connect_ms"));
    }

    @Test
    @DisplayName("maps a terminating gateway's counters to the Netty relays' shape")
    void gateway() throws IOException {
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.MTLS, true);
        LocalAddresses a = EnvoyFixtures.fixedAddresses(plan);
        JsonNode hop = JSON.readTree(EnvoyStatsReader.hopJson(plan.component("egress-gateway"), a, GATEWAY_STATS));
        assertEquals("egress-gateway", hop.path("component").asText());
        assertEquals("envoy", hop.path("dataPlane").asText());
        JsonNode l = hop.at("/listeners/egress");
        assertEquals(a.address(new dev.meshbench.orchestrator.plan.Endpoint("egress-gateway", "egress")), l.path("address").asText());
        assertEquals("mtls-terminate", l.path("tls").asText());
        assertEquals("tunnel-sni[mongo.meshbench.test -> " + a.address(new dev.meshbench.orchestrator.plan.Endpoint("mongo", "mongo")) + " (mongo)]",
                l.path("routing").asText());
        assertEquals(3, l.path("accepted").asLong(), "two with a filter chain, one refused before it");
        assertEquals(0, l.path("active").asLong());
        assertEquals(3, l.path("closed").asLong());
        assertEquals(333, l.path("bytesClientToUpstream").asLong());
        assertEquals(333, l.path("bytesUpstreamToClient").asLong());
        assertEquals(1, l.at("/refused/tls").asLong());
        assertEquals(1, l.at("/refused/sni").asLong());
        assertEquals(0, l.at("/refused/upstreamConnect").asLong());
        JsonNode raw = l.path("envoy");
        assertEquals(2, raw.path("cluster.outbound|27017||mongo.meshbench.test.upstream_cx_total").asLong());
        assertEquals(333, raw.path("tcp.egress.downstream_cx_rx_bytes_total").asLong());
        assertEquals(1, raw.path("listener.egress.ssl.fail_verify_no_cert").asLong());
        assertFalse(raw.has("listener.admin.downstream_cx_total"));
        assertFalse(raw.has("cluster.outbound|27017||mongo.meshbench.test.lb_healthy_panic"), "only connection and TLS counters of clusters");
    }

    @Test
    @DisplayName("an originating sidecar counts a failed upstream handshake as TLS, not as a connect failure")
    void originatingSidecar() throws IOException {
        String c = "cluster.outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local.";
        String stats = c + "upstream_cx_connect_fail: 3\n" + c + "ssl.fail_verify_san: 1\n" + c + "ssl.connection_error: 0\n"
                + "listener.mongo.downstream_cx_total: 3\nlistener.mongo.downstream_cx_active: 1\nlistener.mongo.downstream_cx_destroy: 2\n"
                + "tcp.mongo.downstream_cx_rx_bytes_total: 10\ntcp.mongo.downstream_cx_tx_bytes_total: 20\n"
                + "http.inbound.downstream_cx_rx_bytes_total: 500\nhttp.inbound.downstream_cx_tx_bytes_total: 700\n";
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.MTLS, false);
        JsonNode hop = JSON.readTree(EnvoyStatsReader.hopJson(plan.component("sidecar-flight"), EnvoyFixtures.fixedAddresses(plan), stats));
        JsonNode mongo = hop.at("/listeners/mongo");
        assertEquals("mtls-originate", mongo.path("tls").asText());
        assertTrue(mongo.path("routing").asText().startsWith("client-hello-sni[mongo.meshbench.test -> 127.0.0.1:"), mongo.toString());
        assertEquals(1, mongo.at("/refused/tls").asLong());
        assertEquals(2, mongo.at("/refused/upstreamConnect").asLong());
        assertEquals(1, mongo.path("active").asLong());
        assertEquals(10, mongo.path("bytesClientToUpstream").asLong());
        assertEquals(20, mongo.path("bytesUpstreamToClient").asLong());
        JsonNode inbound = hop.at("/listeners/inbound");
        assertEquals("none", inbound.path("tls").asText());
        assertEquals(500, inbound.path("bytesClientToUpstream").asLong(), "HTTP listeners read the connection manager's bytes");
        assertEquals(700, inbound.path("bytesUpstreamToClient").asLong());
        assertEquals(0, inbound.path("accepted").asLong(), "a counter Envoy has not created reads 0");
    }
}
