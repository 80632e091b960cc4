package dev.meshbench.dataplane.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
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

    @Test
    @DisplayName("a listener with several upstreams adds its connections per upstream last, the fields before unchanged")
    void upstreams() {
        Map<String, Long> perUpstream = new LinkedHashMap<>();
        perUpstream.put("127.0.0.1:40201", 2L);
        perUpstream.put("127.0.0.1:40202", 1L);
        perUpstream.put("[::1]:40203", 0L);
        HopStats customer = new HopStats(3, 0, 3, 30, 30, Map.of(), perUpstream);
        String json = StatsJsonRenderer.render("sidecar-booking", List.of(
                new ListenerReport("to-customer", "127.0.0.1:40111", "none", "round-robin[...]", customer)), "jdk");
        assertEquals("{\"component\":\"sidecar-booking\",\"listeners\":{"
                + "\"to-customer\":{\"address\":\"127.0.0.1:40111\",\"tls\":\"none\",\"routing\":\"round-robin[...]\","
                + "\"accepted\":3,\"active\":0,\"closed\":3,\"bytesClientToUpstream\":30,\"bytesUpstreamToClient\":30,"
                + "\"refused\":{\"tls\":0,\"sni\":0,\"clientHello\":0,\"upstreamConnect\":0,\"upstreamTls\":0},"
                + "\"upstreams\":{\"127.0.0.1:40201\":2,\"127.0.0.1:40202\":1,\"[::1]:40203\":0}}},"
                + "\"tlsProvider\":\"jdk\"}", json);
    }

    @Test
    @DisplayName("counts connections per upstream in configuration order; one not in force is counted but not reported")
    void counters() {
        HopCounters c = new HopCounters(List.of("h:2", "h:1"));
        c.routedTo("h:1");
        c.routedTo("h:1");
        assertEquals(List.of("h:2", "h:1"), List.copyOf(c.snapshot().upstreams().keySet()));
        assertEquals(2L, c.snapshot().upstreams().get("h:1"));
        assertEquals(0L, c.snapshot().upstreams().get("h:2"));
        c.routedTo("h:3"); // a connection accepted under another configuration of the listener
        assertEquals(List.of("h:2", "h:1"), List.copyOf(c.snapshot().upstreams().keySet()));
        assertThrows(IllegalArgumentException.class, () -> new HopCounters(List.of("h:1", "h:1")));
        assertTrue(new HopCounters().snapshot().upstreams().isEmpty());
    }

    @Test
    @DisplayName("a listener's new configuration reports its own upstreams, each address keeping its count across configurations")
    void countersAcrossConfigurations() {
        HopCounters c = new HopCounters(List.of("h:1", "h:2"));
        c.routedTo("h:1");
        c.routedTo("h:2");
        c.reportUpstreams(List.of("h:2", "h:3"));
        c.routedTo("h:3");
        c.routedTo("h:1"); // an old connection's pick, counted where it went
        assertEquals(Map.of("h:2", 1L, "h:3", 1L), c.snapshot().upstreams());
        assertEquals(List.of("h:2", "h:3"), List.copyOf(c.snapshot().upstreams().keySet()));
        c.reportUpstreams(List.of("h:1", "h:2"));
        assertEquals(2L, c.snapshot().upstreams().get("h:1"));
        c.reportUpstreams(List.of());
        assertTrue(c.snapshot().upstreams().isEmpty(), "one upstream again: no per-upstream field");

        Map<String, String> before = new LinkedHashMap<>();
        before.put("auth", "127.0.0.1:1");
        HttpCounters http = new HttpCounters(before);
        http.upstream("auth").requestSent();
        http.upstream("flight", "127.0.0.1:3").requestSent(); // made by the new configuration's pools, not reported yet
        assertEquals(List.of("auth"), List.copyOf(http.snapshot().upstreams().keySet()));
        Map<String, String> after = new LinkedHashMap<>();
        after.put("flight", "127.0.0.1:3");
        after.put("auth", "127.0.0.1:2");
        http.reportUpstreams(after);
        http.upstream("auth").requestSent();
        assertEquals(List.of("flight", "auth"), List.copyOf(http.snapshot().upstreams().keySet()));
        assertEquals(new HttpStats.Upstream("127.0.0.1:2", 0, 2), http.snapshot().upstream("auth"));
        assertEquals(new HttpStats.Upstream("127.0.0.1:3", 0, 1), http.snapshot().upstream("flight"));
    }

    @Test
    @DisplayName("the config version comes last, after the TLS provider, the text before it unchanged")
    void configVersion() {
        List<ListenerReport> none = List.of(new ListenerReport("mongo", "127.0.0.1:1", "none", "r", new HopStats(0, 0, 0, 0, 0, Map.of())));
        String without = StatsJsonRenderer.render("s", none, "jdk");
        String with = StatsJsonRenderer.render("s", none, "jdk", "case-2:mtls");
        assertEquals(without.substring(0, without.length() - 1) + ",\"configVersion\":\"case-2:mtls\"}", with);
    }

    @Test
    @DisplayName("an HTTP listener adds its request counters and per-upstream pool counters after refused, the TCP fields unchanged")
    void http() {
        Map<String, String> upstreams = new LinkedHashMap<>();
        upstreams.put("sidecar-auth", "127.0.0.1:41001");
        upstreams.put("sidecar-\"b\"", "127.0.0.1:41004");
        HttpCounters http = new HttpCounters(upstreams);
        HopCounters c = new HopCounters(http);
        c.connectionOpened();
        c.relayedToUpstream(100);
        c.relayedToClient(200);
        for (int i = 0; i < 3; i++) {
            http.request();
        }
        http.response(200);
        http.response(404);
        http.response(503);
        http.noRoute();
        http.upstreamUnavailable();
        http.upstream("sidecar-auth").connectionOpened();
        http.upstream("sidecar-auth").requestSent();
        http.upstream("sidecar-\"b\"").requestSent();
        String json = StatsJsonRenderer.render("ingress-gateway", List.of(
                new ListenerReport("ingress", "127.0.0.1:40100", "none", "path[...]", c.snapshot())), "jdk");
        assertEquals("{\"component\":\"ingress-gateway\",\"listeners\":{"
                + "\"ingress\":{\"address\":\"127.0.0.1:40100\",\"tls\":\"none\",\"routing\":\"path[...]\","
                + "\"accepted\":1,\"active\":1,\"closed\":0,\"bytesClientToUpstream\":100,\"bytesUpstreamToClient\":200,"
                + "\"refused\":{\"tls\":0,\"sni\":0,\"clientHello\":0,\"upstreamConnect\":0,\"upstreamTls\":0},"
                + "\"requests\":3,\"responses\":{\"2xx\":1,\"3xx\":0,\"4xx\":1,\"5xx\":1},"
                + "\"noRoute\":1,\"upstreamUnavailable\":1,\"requestTooLarge\":0,"
                + "\"upstreamPools\":{\"sidecar-auth\":{\"address\":\"127.0.0.1:41001\",\"connectionsOpened\":1,\"requestsSent\":1},"
                + "\"sidecar-\\\"b\\\"\":{\"address\":\"127.0.0.1:41004\",\"connectionsOpened\":0,\"requestsSent\":1}}}},"
                + "\"tlsProvider\":\"jdk\"}", json);
        assertEquals(null, new HopCounters().snapshot().http());
    }
}
