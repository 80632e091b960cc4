package dev.meshbench.dataplane.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.dataplane.testing.TlsProviders;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DataplaneMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private DataplaneMain.Launch launch(String... args) {
        return DataplaneMain.launch(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    @Test
    @DisplayName("prints a ready line with the admin address, each listener's real port and, last, the TLS provider auto chose")
    void readyLine() {
        DataplaneMain.Launch l = launch("sidecar", "--name", "sidecar-booking",
                "--listener", "name=mongo,port=0,upstream=127.0.0.1:40123,upstream-name=egress-gateway",
                "--listener", "name=inbound,port=0,upstream=127.0.0.1:8080");
        assertNotNull(l.running(), err.toString());
        try {
            String line = out.toString(StandardCharsets.UTF_8).trim();
            ReadyLine ready = ReadyLine.parse(line).orElseThrow();
            assertEquals("sidecar-booking", ready.component());
            var bound = l.running().addresses();
            assertEquals("127.0.0.1:" + bound.admin().getPort(), ready.get("address").orElseThrow());
            assertEquals("127.0.0.1:" + bound.listener("mongo").getPort(), ready.get("listener.mongo").orElseThrow());
            assertEquals("127.0.0.1:" + bound.listener("inbound").getPort(), ready.get("listener.inbound").orElseThrow());
            assertTrue(bound.listener("mongo").getPort() > 0);
            String provider = TlsProvider.AUTO.resolve().word();
            assertEquals("MESHBENCH-READY component=sidecar-booking address=127.0.0.1:" + bound.admin().getPort()
                    + " listener.mongo=127.0.0.1:" + bound.listener("mongo").getPort()
                    + " listener.inbound=127.0.0.1:" + bound.listener("inbound").getPort() + " tls-provider=" + provider, line);
            assertTrue(l.running().statsJson().endsWith(",\"tlsProvider\":\"" + provider + "\",\"configVersion\":\"initial\"}"), l.running().statsJson());
        } finally {
            l.running().close();
        }
    }

    @Test
    @DisplayName("a listener with upstream=a|b|c relays each connection to the next replica, and GET /stats counts them per upstream")
    void replicasFromTheCommandLine() throws Exception {
        List<EchoServer> replicas = List.of(EchoServer.start(null, EchoServer.Mode.ECHO), EchoServer.start(null, EchoServer.Mode.ECHO),
                EchoServer.start(null, EchoServer.Mode.ECHO));
        try {
            String upstream = replicas.stream().map(r -> "127.0.0.1:" + r.address().getPort()).collect(Collectors.joining("|"));
            DataplaneMain.Launch l = launch("sidecar", "--name", "sidecar-booking",
                    "--listener", "name=to-customer,port=0,upstream=" + upstream + ",upstream-name=customer");
            assertNotNull(l.running(), err.toString());
            try {
                InetSocketAddress entry = l.running().addresses().listener("to-customer");
                for (int i = 0; i < 6; i++) {
                    try (Socket client = new Socket(entry.getAddress(), entry.getPort())) {
                        client.setSoTimeout(10_000);
                        byte[] sent = ("call " + i + "\n").getBytes(StandardCharsets.US_ASCII);
                        client.getOutputStream().write(sent);
                        assertArrayEquals(sent, client.getInputStream().readNBytes(sent.length));
                    }
                }
                assertEquals(List.of(2L, 2L, 2L), replicas.stream().map(EchoServer::accepted).toList());
                InetSocketAddress admin = l.running().addresses().admin();
                HttpResponse<String> stats = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + admin.getPort() + "/stats")).build(), HttpResponse.BodyHandlers.ofString());
                String perUpstream = replicas.stream().map(r -> "\"127.0.0.1:" + r.address().getPort() + "\":2")
                        .collect(Collectors.joining(",", "\"upstreams\":{", "}"));
                assertTrue(stats.body().contains(perUpstream), stats.body());
                assertTrue(stats.body().contains("\"routing\":\"round-robin[127.0.0.1:" + replicas.get(0).address().getPort()
                        + " (customer), "), stats.body());
            } finally {
                l.running().close();
            }
        } finally {
            replicas.forEach(EchoServer::close);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.meshbench.dataplane.testing.TlsProviders#both")
    @DisplayName("--tls-provider picks the provider the ready line and /stats report, also for a component without TLS")
    void tlsProviderOption(TlsProvider provider) {
        TlsProviders.assumeUsable(provider);
        DataplaneMain.Launch l = launch("sni-proxy", "--name", "sni-proxy", "--route", "*=127.0.0.1:1", "--tls-provider", provider.word());
        assertNotNull(l.running(), err.toString());
        try {
            ReadyLine ready = ReadyLine.parse(out.toString(StandardCharsets.UTF_8).trim()).orElseThrow();
            assertEquals(provider.word(), ready.get(DataplaneMain.READY_TLS_PROVIDER).orElseThrow());
            assertEquals(provider, l.running().tlsProvider());
            assertTrue(l.running().statsJson().endsWith(",\"tlsProvider\":\"" + provider.word() + "\",\"configVersion\":\"initial\"}"),
                    l.running().statsJson());
        } finally {
            l.running().close();
        }
    }

    @Test
    @DisplayName("--tls-provider boringssl where BoringSSL is not usable exits 2 with one line naming the option and why")
    void boringSslUnusable() {
        assumeFalse(TlsProvider.BORINGSSL.usable(), "BoringSSL is usable here");
        DataplaneMain.Launch l = launch("egress-gateway", "--name", "gw", "--mode", "sni-passthrough", "--route", "*=127.0.0.1:1",
                "--tls-provider", "boringssl");
        assertEquals(2, l.exitCode());
        String line = err.toString(StandardCharsets.UTF_8).trim();
        assertEquals(1, line.lines().count(), line);
        assertTrue(line.startsWith("dataplane egress-gateway: --tls-provider boringssl: BoringSSL (netty-tcnative-boringssl-static, built for "
                + "linux x86_64) is not usable in this JVM: " + TlsProvider.boringSslProblem().orElseThrow()), line);
        assertTrue(line.endsWith("; use --tls-provider auto or jdk (see --help)"), line);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("a port already in use exits 2 with one line naming component, listener and port")
    void portInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            DataplaneMain.Launch l = launch("sni-proxy", "--name", "sni-proxy", "--listen-port", String.valueOf(port),
                    "--route", "*=127.0.0.1:1");
            assertNull(l.running());
            assertEquals(2, l.exitCode());
            String line = err.toString(StandardCharsets.UTF_8).trim();
            assertEquals(1, line.lines().count(), line);
            assertTrue(line.startsWith("sni-proxy: binding listener sni to 127.0.0.1:" + port + " failed: "), line);
            assertEquals("", out.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    @DisplayName("bad input exits 2 with one line naming the option; --help exits 0")
    void badInput() {
        DataplaneMain.Launch l = launch("egress-gateway", "--name", "gw", "--mode", "sideways", "--route", "*=127.0.0.1:1");
        assertEquals(2, l.exitCode());
        String line = err.toString(StandardCharsets.UTF_8).trim();
        assertEquals(1, line.lines().count(), line);
        assertTrue(line.startsWith("dataplane egress-gateway: --mode must be sni-passthrough or mtls (got 'sideways')"), line);
        err.reset();
        assertEquals(2, launch("sidecar", "--name", "s", "--listener", "name=a,port=0,upstream=127.0.0.1:1", "--tls-provider", "openssl").exitCode());
        assertEquals("dataplane sidecar: --tls-provider must be auto, boringssl or jdk (got 'openssl') (see --help)",
                err.toString(StandardCharsets.UTF_8).trim());
        err.reset();
        assertEquals(2, launch("sidecar", "--name", "s", "--listener", "name=to-customer,port=0,upstream=127.0.0.1:1||127.0.0.1:2").exitCode());
        assertEquals("dataplane sidecar: --listener 'name=to-customer,port=0,upstream=127.0.0.1:1||127.0.0.1:2': upstream "
                + "'127.0.0.1:1||127.0.0.1:2' has an empty entry (replicas are HOST:PORT|HOST:PORT|...) (see --help)",
                err.toString(StandardCharsets.UTF_8).trim());
        assertEquals(2, launch("proxy").exitCode());
        assertEquals(2, launch().exitCode());
        assertEquals(0, launch("sidecar", "--help").exitCode());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--listener name=N,port=P,upstream=HOST:PORT[|HOST:PORT...]"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--tls-provider=P"));
    }
}
