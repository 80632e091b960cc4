package dev.meshbench.dataplane.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StatsJsonRendererTest {
    @Test
    @DisplayName("renders the stats JSON shape the orchestrator reads, every refusal reason present, the TLS provider last")
    void shape() {
        HopStats mongo = new HopStats(3, 1, 2, 5120, 9300, Map.of(Refusal.UPSTREAM_CONNECT, 1L));
        HopStats inbound = new HopStats(0, 0, 0, 0, 0, Map.of());
        String json = StatsJsonRenderer.render("sidecar-booking", List.of(
                new ListenerReport("mongo", "127.0.0.1:40111", "mtls-originate", "127.0.0.1:40123 (egress-gateway)", mongo),
                new ListenerReport("inbound", "127.0.0.1:40112", "none", "a \"quoted\"\\name", inbound)), "boringssl");
        assertEquals("{\"component\":\"sidecar-booking\",\"listeners\":{"
                + "\"mongo\":{\"address\":\"127.0.0.1:40111\",\"tls\":\"mtls-originate\",\"routing\":\"127.0.0.1:40123 (egress-gateway)\","
                + "\"accepted\":3,\"active\":1,\"closed\":2,\"bytesClientToUpstream\":5120,\"bytesUpstreamToClient\":9300,"
                + "\"refused\":{\"tls\":0,\"sni\":0,\"clientHello\":0,\"upstreamConnect\":1,\"upstreamTls\":0}},"
                + "\"inbound\":{\"address\":\"127.0.0.1:40112\",\"tls\":\"none\",\"routing\":\"a \\\"quoted\\\"\\\\name\","
                + "\"accepted\":0,\"active\":0,\"closed\":0,\"bytesClientToUpstream\":0,\"bytesUpstreamToClient\":0,"
                + "\"refused\":{\"tls\":0,\"sni\":0,\"clientHello\":0,\"upstreamConnect\":0,\"upstreamTls\":0}}},"
                + "\"tlsProvider\":\"boringssl\"}", json);
    }
}
