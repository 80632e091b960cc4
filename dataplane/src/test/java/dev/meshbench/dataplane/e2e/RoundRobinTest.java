package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.testing.ClosedPort;
import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.dataplane.stats.HopStats;
import dev.meshbench.dataplane.stats.Refusal;
import dev.meshbench.dataplane.testing.Eventually;
import dev.meshbench.dataplane.testing.LogCapture;
import dev.meshbench.dataplane.testing.TlsProviders;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A sidecar listener in front of a service's replicas: connections spread in turn, one that fails stays failed. */
class RoundRobinTest {
    /** Sends a line and reads it back through the relay; the connection stays open. */
    private static void echo(Socket client, String text) throws IOException {
        byte[] sent = text.getBytes(StandardCharsets.US_ASCII);
        client.setSoTimeout(10_000);
        client.getOutputStream().write(sent);
        client.getOutputStream().flush();
        assertArrayEquals(sent, client.getInputStream().readNBytes(sent.length), text);
    }

    private static Socket connect(InetSocketAddress a) throws IOException {
        return new Socket(a.getAddress(), a.getPort());
    }

    private static Upstream replica(EchoServer s) {
        return Upstream.of(HostAndPort.of(s.address()), "customer");
    }

    private static long[] accepted(List<EchoServer> servers) {
        return servers.stream().mapToLong(EchoServer::accepted).toArray();
    }

    @Test
    @DisplayName("spreads 6 connections over 3 upstreams in turn, 2 each, and counts them per upstream in /stats")
    void threeUpstreams() throws Exception {
        List<EchoServer> replicas = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                replicas.add(EchoServer.start(null, EchoServer.Mode.ECHO));
            }
            Routing routing = Routing.of(replicas.stream().map(RoundRobinTest::replica).toList());
            try (DataplaneBootstrap sidecar = new DataplaneBootstrap(ComponentConfig.of("sidecar-booking",
                    List.of(new ListenerConfig("to-customer", 0, false, routing, UpstreamTls.NONE)), null).withIoThreads(2))) {
                InetSocketAddress entry = sidecar.start().listener("to-customer");
                List<Socket> open = new ArrayList<>();
                try {
                    for (int i = 0; i < 6; i++) {
                        long[] before = accepted(replicas);
                        Socket client = connect(entry);
                        open.add(client);
                        echo(client, "call " + i + "\n");
                        long[] after = accepted(replicas);
                        for (int r = 0; r < 3; r++) {
                            assertEquals(before[r] + (r == i % 3 ? 1 : 0), after[r], "connection " + i + " goes to replica " + i % 3);
                        }
                    }
                    assertEquals(6, sidecar.stats("to-customer").active(), "all 6 open at once");
                } finally {
                    for (Socket s : open) {
                        s.close();
                    }
                }
                assertArrayEquals(new long[] {2, 2, 2}, accepted(replicas));
                Map<String, Long> expected = new LinkedHashMap<>();
                replicas.forEach(r -> expected.put("127.0.0.1:" + r.address().getPort(), 2L));
                HopStats s = sidecar.stats("to-customer");
                assertEquals(expected, s.upstreams());
                assertEquals(6, s.accepted());
                assertEquals(0, s.refusedTotal());
                String json = sidecar.statsJson();
                String perUpstream = expected.keySet().stream().map(k -> "\"" + k + "\":2")
                        .collect(java.util.stream.Collectors.joining(",", "\"upstreams\":{", "}"));
                assertTrue(json.contains("\"upstreamTls\":0}," + perUpstream + "}"), json);
                assertTrue(json.contains("\"routing\":\"round-robin[127.0.0.1:"), json);
                Eventually.await("closed", () -> sidecar.stats("to-customer").active() == 0);
            }
        } finally {
            replicas.forEach(EchoServer::close);
        }
    }

    @Test
    @DisplayName("a replica that refuses its turn's connection closes that client, counted and logged, not retried elsewhere")
    void refusingReplica() throws Exception {
        try (ClosedPort dead = new ClosedPort();
                EchoServer alive = EchoServer.start(null, EchoServer.Mode.ECHO);
                DataplaneBootstrap sidecar = new DataplaneBootstrap(ComponentConfig.of("sidecar-booking", List.of(
                        new ListenerConfig("to-customer", 0, false, Routing.of(List.of(replica(alive),
                                Upstream.of(new HostAndPort("127.0.0.1", dead.port()), "customer"))), UpstreamTls.NONE)), null));
                LogCapture log = new LogCapture()) {
            InetSocketAddress entry = sidecar.start().listener("to-customer");
            for (int i = 0; i < 4; i++) {
                try (Socket client = connect(entry)) {
                    if (i % 2 == 0) {
                        echo(client, "call " + i + "\n");
                    } else {
                        client.setSoTimeout(10_000);
                        int first;
                        try {
                            first = client.getInputStream().read();
                        } catch (IOException reset) {
                            first = -1;
                        }
                        assertEquals(-1, first, "connection " + i + " (the dead replica's turn) ends");
                        int n = i;
                        Eventually.await("refusal " + n + " counted",
                                () -> sidecar.stats("to-customer").refused(Refusal.UPSTREAM_CONNECT) == (n + 1) / 2);
                    }
                }
            }
            assertEquals(2, alive.accepted(), "the live replica got its own turns only");
            HopStats s = sidecar.stats("to-customer");
            assertEquals(Map.of("127.0.0.1:" + alive.address().getPort(), 2L, "127.0.0.1:" + dead.port(), 2L), s.upstreams());
            assertEquals(2, s.refused(Refusal.UPSTREAM_CONNECT));
            assertEquals(2, s.refusedTotal());
            String expected = "sidecar-booking/to-customer: upstream 127.0.0.1:" + dead.port() + " (customer) connect failed: ";
            Eventually.await("both failures logged", () -> log.text().lines().filter(l -> l.contains(expected)).count() == 2, log::text);
            Eventually.await("closed", () -> sidecar.stats("to-customer").active() == 0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.meshbench.dataplane.testing.TlsProviders#both")
    @DisplayName("originates mutual TLS to 2 replicas in turn, one SNI and peer id for both, each checking the caller")
    void mtlsToTwoReplicas(TlsProvider provider) throws Exception {
        TlsProviders.assumeUsable(provider);
        CertificateAuthority mesh = CertificateAuthority.create("mesh CA");
        TlsMaterial booking = TlsMaterial.of(mesh.certificate(), mesh.issue(CertificateSpec.workload("cluster.local", "default", "booking")));
        TlsMaterial customer = TlsMaterial.of(mesh.certificate(), mesh.issue(CertificateSpec.workload("cluster.local", "default", "customer")));
        List<EchoServer> apps = new ArrayList<>();
        List<DataplaneBootstrap> calleeSidecars = new ArrayList<>();
        try {
            List<Upstream> inbounds = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                EchoServer app = EchoServer.start(null, EchoServer.Mode.ECHO);
                apps.add(app);
                DataplaneBootstrap callee = new DataplaneBootstrap(ComponentConfig.of("sidecar-customer-" + i, List.of(
                        new ListenerConfig("inbound", 0, true, new Routing.Fixed(Upstream.of(HostAndPort.of(app.address()), "customer")),
                                UpstreamTls.NONE)), customer).withTlsProvider(provider));
                calleeSidecars.add(callee);
                inbounds.add(Upstream.of(HostAndPort.of(callee.start().listener("inbound")), "sidecar-customer"));
            }
            try (DataplaneBootstrap caller = new DataplaneBootstrap(ComponentConfig.of("sidecar-booking", List.of(
                    new ListenerConfig("to-customer", 0, false, Routing.of(inbounds), new UpstreamTls.MutualTls("customer.default.svc",
                            URI.create("spiffe://cluster.local/ns/default/sa/customer")))), booking).withTlsProvider(provider))) {
                InetSocketAddress entry = caller.start().listener("to-customer");
                for (int i = 0; i < 4; i++) {
                    try (Socket client = connect(entry)) {
                        echo(client, "POST /customer/internal/validateid " + i + "\n");
                    }
                }
                assertArrayEquals(new long[] {2, 2}, accepted(apps));
                for (DataplaneBootstrap callee : calleeSidecars) {
                    assertEquals(2, callee.stats("inbound").accepted(), callee.config().name());
                    assertEquals(0, callee.stats("inbound").refusedTotal(), callee.config().name());
                }
                HopStats s = caller.stats("to-customer");
                assertEquals(List.of(2L, 2L), List.copyOf(s.upstreams().values()));
                assertEquals(0, s.refusedTotal());
                Eventually.await("closed", () -> caller.stats("to-customer").active() == 0);
            }
        } finally {
            calleeSidecars.forEach(DataplaneBootstrap::close);
            apps.forEach(EchoServer::close);
        }
    }
}
