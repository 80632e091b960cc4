package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.ListenerBindException;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.dataplane.loopback.MeshIdentities;
import dev.meshbench.dataplane.stats.HopStats;
import dev.meshbench.dataplane.stats.Refusal;
import dev.meshbench.dataplane.loopback.AppTlsClient;
import dev.meshbench.dataplane.testing.Eventually;
import dev.meshbench.dataplane.testing.TlsProviders;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every hop kind runs at once, wired as the four mesh paths of the study; one TLS echo server stands in for
 * MongoDB. Each test sends the app's TLS through one path and proves with the counters which hops carried it:
 * connections and exact byte counts on every hop of the path, nothing on the others. The whole topology runs once
 * per TLS provider of the relays ({@code boringssl}, {@code jdk}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EgressPathsEndToEndTest {
    private static final String MONGO = "mongo.meshbench.test";

    /** The study's cases that involve the data plane, by the sidecar listener that starts their path. */
    enum Path {
        SIDECAR("sidecar/direct"),
        GATEWAY("sidecar/via-gateway", "egress-gateway-passthrough/egress"),
        MTLS("sidecar/via-mtls", "egress-gateway-mtls/egress"),
        SNI("sidecar/via-sni", "egress-gateway-sni/egress", "sni-proxy/sni");

        final List<String> hops;

        Path(String... hops) {
            this.hops = List.of(hops);
        }
    }

    private MeshIdentities ids;
    private EchoServer echo;
    private final Map<TlsProvider, Map<String, DataplaneBootstrap>> topologies = new EnumMap<>(TlsProvider.class);

    static Stream<Arguments> pathsOnEachProvider() {
        return TlsProviders.both().flatMap(p -> Stream.of(Path.values()).map(path -> Arguments.of(p, path)));
    }

    @BeforeAll
    void startEcho() {
        ids = MeshIdentities.create(MONGO);
        echo = EchoServer.start(ids.server(), EchoServer.Mode.ECHO);
    }

    /** Every component of the topology on {@code provider}, started on first use (skips the test where it cannot run). */
    private Map<String, DataplaneBootstrap> topology(TlsProvider provider) throws ListenerBindException {
        TlsProviders.assumeUsable(provider);
        Map<String, DataplaneBootstrap> components = topologies.get(provider);
        if (components == null) {
            components = new LinkedHashMap<>();
            topologies.put(provider, components);
            startTopology(provider, components);
        }
        return components;
    }

    private void startTopology(TlsProvider provider, Map<String, DataplaneBootstrap> components) throws ListenerBindException {
        Upstream mongo = Upstream.of(HostAndPort.of(echo.address()), "mongo");
        InetSocketAddress proxy = start(components, provider, "sni-proxy", null,
                ListenerConfig.sniPassthrough("sni", 0, RouteTable.of("*.meshbench.test", mongo)));
        InetSocketAddress gwPass = start(components, provider, "egress-gateway-passthrough", null,
                ListenerConfig.sniPassthrough("egress", 0, RouteTable.of(MONGO, mongo)));
        InetSocketAddress gwMtls = start(components, provider, "egress-gateway-mtls", ids.gatewayTls(),
                ListenerConfig.mtlsTerminating("egress", 0, RouteTable.of(MONGO, mongo)));
        InetSocketAddress gwSni = start(components, provider, "egress-gateway-sni", ids.gatewayTls(), ListenerConfig.mtlsTerminating("egress", 0,
                RouteTable.of("*.meshbench.test", Upstream.of(HostAndPort.of(proxy), "sni-proxy"))));
        UpstreamTls.MutualTls tunnel = new UpstreamTls.MutualTls(MONGO, ids.gatewayId());
        DataplaneBootstrap sidecar = new DataplaneBootstrap(new ComponentConfig("sidecar", null, 0, 1, List.of(
                ListenerConfig.relay("direct", 0, mongo),
                ListenerConfig.relay("via-gateway", 0, Upstream.of(HostAndPort.of(gwPass), "egress-gateway-passthrough")),
                ListenerConfig.mtlsOriginating("via-mtls", 0, Upstream.of(HostAndPort.of(gwMtls), "egress-gateway-mtls"), tunnel),
                ListenerConfig.mtlsOriginating("via-sni", 0, Upstream.of(HostAndPort.of(gwSni), "egress-gateway-sni"), tunnel)),
                ids.sidecarTls(), provider));
        components.put("sidecar", sidecar);
        sidecar.start();
    }

    private static InetSocketAddress start(Map<String, DataplaneBootstrap> components, TlsProvider provider, String name, TlsMaterial tls,
            ListenerConfig listener) throws ListenerBindException {
        DataplaneBootstrap b = new DataplaneBootstrap(new ComponentConfig(name, null, 0, 1, List.of(listener), tls, provider));
        components.put(name, b);
        return b.start().listener(listener.name());
    }

    @AfterAll
    void stop() {
        topologies.values().forEach(t -> t.values().forEach(DataplaneBootstrap::close));
        if (echo != null) {
            echo.close();
        }
    }

    private static Map<String, HopStats> allHops(Map<String, DataplaneBootstrap> components) {
        Map<String, HopStats> out = new LinkedHashMap<>();
        components.forEach((name, b) -> b.stats().forEach((listener, s) -> out.put(name + "/" + listener, s)));
        return out;
    }

    private static InetSocketAddress entry(Map<String, DataplaneBootstrap> components, Path path) {
        return components.get("sidecar").addresses().listener(path.hops.get(0).substring("sidecar/".length()));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("pathsOnEachProvider")
    @DisplayName("carries the app's TLS end to end, host name verified, and the counters show exactly the hops of the path")
    void echoesThroughPath(TlsProvider provider, Path path) throws Exception {
        Map<String, DataplaneBootstrap> components = topology(provider);
        awaitQuiet(components);
        Map<String, HopStats> before = allHops(components);
        long echoBefore = echo.accepted();
        byte[] message = new byte[620];
        new Random(path.ordinal()).nextBytes(message);

        long written;
        long read;
        try (AppTlsClient app = AppTlsClient.connect(entry(components, path), MONGO, ids.externalCa().certificate())) {
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(message, app.roundTrip(message), "echo through " + path);
            }
            written = app.rawWritten();
            read = app.rawRead();
            Map<String, HopStats> during = allHops(components);
            for (String hop : path.hops) {
                HopStats d = minus(during.get(hop), before.get(hop));
                assertEquals(written, d.bytesClientToUpstream(), hop + " relayed every byte the app wrote");
                assertEquals(read, d.bytesUpstreamToClient(), hop + " relayed every byte the app read");
                assertEquals(1, d.accepted(), hop + " accepted one connection");
                assertEquals(1, d.active(), hop + " holds it open");
            }
        }
        assertTrue(written > 3 * message.length && read > 3 * message.length, "TLS records carry more than the payload");
        for (String hop : path.hops) {
            Eventually.await(hop + " closed its connection", () -> allHops(components).get(hop).active() == before.get(hop).active(),
                    () -> allHops(components).get(hop).toString());
        }
        assertEquals(echoBefore + 1, echo.accepted(), "the echo server saw one connection");
        Map<String, HopStats> after = allHops(components);
        for (Map.Entry<String, HopStats> e : after.entrySet()) {
            HopStats d = minus(e.getValue(), before.get(e.getKey()));
            if (path.hops.contains(e.getKey())) {
                assertEquals(1, d.accepted(), e.getKey());
                assertEquals(1, d.closed(), e.getKey());
                assertEquals(0, d.refusedTotal(), e.getKey() + " refused nothing");
            } else {
                assertEquals(minus(before.get(e.getKey()), before.get(e.getKey())), d, e.getKey() + " is not on the " + path + " path");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.meshbench.dataplane.testing.TlsProviders#both")
    @DisplayName("serves the counters and the TLS provider as JSON on GET /stats, and readiness on GET /ready")
    void adminEndpoint(TlsProvider provider) throws Exception {
        DataplaneBootstrap sidecar = topology(provider).get("sidecar");
        URI base = URI.create("http://127.0.0.1:" + sidecar.addresses().admin().getPort());
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> stats = http.send(HttpRequest.newBuilder(base.resolve("/stats")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, stats.statusCode());
        assertEquals("application/json", stats.headers().firstValue("content-type").orElse(""));
        String json = stats.body();
        assertTrue(json.startsWith("{\"component\":\"sidecar\",\"listeners\":{\"direct\":{\"address\":\"127.0.0.1:"), json);
        for (String listener : List.of("direct", "via-gateway", "via-mtls", "via-sni")) {
            assertTrue(json.contains("\"" + listener + "\":{"), json);
        }
        assertTrue(json.contains("\"tls\":\"mtls-originate\""), json);
        assertTrue(json.contains("\"refused\":{\"tls\":0,\"sni\":0,\"clientHello\":0,\"upstreamConnect\":0,\"upstreamTls\":0}"), json);
        assertTrue(json.endsWith("}},\"tlsProvider\":\"" + provider.word() + "\",\"configVersion\":\"initial\"}\n"), json);
        assertEquals(200, http.send(HttpRequest.newBuilder(base.resolve("/ready")).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(404, http.send(HttpRequest.newBuilder(base.resolve("/nope")).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(405, http.send(HttpRequest.newBuilder(base.resolve("/stats")).POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    @DisplayName("the app verifies MongoDB's own certificate through every hop: a name the certificate lacks fails the handshake")
    void appTlsIsEndToEnd() throws ListenerBindException {
        Map<String, DataplaneBootstrap> components = topology(TlsProvider.JDK);
        // other.meshbench.test matches the wildcard routes, so the bytes reach the echo server, whose certificate is
        // only for mongo.meshbench.test: the app's host name check must fail.
        javax.net.ssl.SSLHandshakeException e = org.junit.jupiter.api.Assertions.assertThrows(javax.net.ssl.SSLHandshakeException.class,
                () -> AppTlsClient.connect(entry(components, Path.SIDECAR), "other.meshbench.test", ids.externalCa().certificate()).close());
        assertTrue(String.valueOf(e.getMessage()).contains("other.meshbench.test"), e.getMessage());
        awaitQuiet(components);
    }

    /** Waits until no hop holds a connection, so one test's closing connections do not show in another's deltas. */
    private static void awaitQuiet(Map<String, DataplaneBootstrap> components) {
        Eventually.await("every hop is idle", () -> allHops(components).values().stream().allMatch(s -> s.active() == 0),
                () -> allHops(components).toString());
    }

    static HopStats minus(HopStats a, HopStats b) {
        Map<Refusal, Long> r = new java.util.EnumMap<>(Refusal.class);
        for (Refusal k : Refusal.values()) {
            r.put(k, a.refused(k) - b.refused(k));
        }
        return new HopStats(a.accepted() - b.accepted(), a.active() - b.active(), a.closed() - b.closed(),
                a.bytesClientToUpstream() - b.bytesClientToUpstream(), a.bytesUpstreamToClient() - b.bytesUpstreamToClient(), r);
    }
}
