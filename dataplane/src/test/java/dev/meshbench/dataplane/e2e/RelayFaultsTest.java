package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.testing.ClosedPort;
import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.dataplane.loopback.MeshIdentities;
import dev.meshbench.dataplane.stats.Refusal;
import dev.meshbench.dataplane.testing.Eventually;
import dev.meshbench.dataplane.testing.LogCapture;
import dev.meshbench.dataplane.testing.TlsProviders;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the client sees when the upstream goes away, and what the hop counts and logs. */
class RelayFaultsTest {
    /** Accepts one connection, reads {@code n} bytes, answers "bye" and closes it. */
    private static CompletableFuture<byte[]> upstreamThatHangsUpAfter(ServerSocket server, int n) {
        return CompletableFuture.supplyAsync(() -> {
            try (Socket s = server.accept()) {
                byte[] got = s.getInputStream().readNBytes(n);
                s.getOutputStream().write("bye".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                return got;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** Reads until EOF; returns what came, or fails the test if the connection stays open. */
    private static byte[] readUntilClosed(Socket client) throws IOException {
        client.setSoTimeout(10_000);
        return client.getInputStream().readAllBytes();
    }

    @Test
    @DisplayName("an upstream closing mid-stream closes the client's connection through a plain relay, after its last bytes")
    void upstreamCloseThroughRelay() throws Exception {
        try (ServerSocket upstream = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                DataplaneBootstrap sidecar = new DataplaneBootstrap(ComponentConfig.of("sidecar-booking",
                        List.of(ListenerConfig.relay("mongo", 0, Upstream.of(new HostAndPort("127.0.0.1", upstream.getLocalPort()), "mongo"))),
                        null))) {
            InetSocketAddress entry = sidecar.start().listener("mongo");
            CompletableFuture<byte[]> seen = upstreamThatHangsUpAfter(upstream, 5);
            try (Socket client = new Socket(entry.getAddress(), entry.getPort())) {
                OutputStream out = client.getOutputStream();
                out.write("hello, more is coming".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.flush();
                assertEquals("bye", new String(readUntilClosed(client), java.nio.charset.StandardCharsets.US_ASCII));
            }
            assertEquals("hello", new String(seen.get(), java.nio.charset.StandardCharsets.US_ASCII));
            Eventually.await("the sidecar closed both sides", () -> sidecar.stats("mongo").active() == 0);
            assertEquals(1, sidecar.stats("mongo").closed());
            assertEquals(3, sidecar.stats("mongo").bytesUpstreamToClient());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.meshbench.dataplane.testing.TlsProviders#both")
    @DisplayName("an upstream closing mid-stream closes the client through sidecar =mTLS=> gateway as well")
    void upstreamCloseThroughMtlsTunnel(TlsProvider provider) throws Exception {
        TlsProviders.assumeUsable(provider);
        MeshIdentities ids = MeshIdentities.create();
        try (ServerSocket upstream = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                DataplaneBootstrap gateway = new DataplaneBootstrap(ComponentConfig.of("egress-gateway",
                        List.of(ListenerConfig.mtlsTerminating("egress", 0, RouteTable.of("*",
                                Upstream.of(new HostAndPort("127.0.0.1", upstream.getLocalPort()), "mongo")))), ids.gatewayTls())
                        .withTlsProvider(provider))) {
            InetSocketAddress gw = gateway.start().listener("egress");
            try (DataplaneBootstrap sidecar = new DataplaneBootstrap(ComponentConfig.of("sidecar-booking",
                    List.of(ListenerConfig.mtlsOriginating("mongo", 0, Upstream.of(HostAndPort.of(gw), "egress-gateway"),
                            new UpstreamTls.MutualTls("mongo.meshbench.test", ids.gatewayId()))), ids.sidecarTls()).withTlsProvider(provider))) {
                InetSocketAddress entry = sidecar.start().listener("mongo");
                CompletableFuture<byte[]> seen = upstreamThatHangsUpAfter(upstream, 5);
                try (Socket client = new Socket(entry.getAddress(), entry.getPort())) {
                    client.getOutputStream().write("hello, more is coming".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    client.getOutputStream().flush();
                    assertEquals("bye", new String(readUntilClosed(client), java.nio.charset.StandardCharsets.US_ASCII));
                }
                assertEquals("hello", new String(seen.get(), java.nio.charset.StandardCharsets.US_ASCII));
                Eventually.await("both hops closed", () -> sidecar.stats("mongo").active() == 0 && gateway.stats("egress").active() == 0);
            }
        }
    }

    @Test
    @DisplayName("a refused upstream connect closes the client, is counted, and is logged naming the hop and the upstream")
    void upstreamConnectRefused() throws Exception {
        try (ClosedPort dead = new ClosedPort();
                DataplaneBootstrap sidecar = new DataplaneBootstrap(ComponentConfig.of("sidecar-booking",
                        List.of(ListenerConfig.relay("mongo", 0, Upstream.of(new HostAndPort("127.0.0.1", dead.port()), "egress-gateway"))), null));
                LogCapture log = new LogCapture()) {
            InetSocketAddress entry = sidecar.start().listener("mongo");
            try (Socket client = new Socket(entry.getAddress(), entry.getPort())) {
                InputStream in = client.getInputStream();
                client.setSoTimeout(10_000);
                int first;
                try {
                    first = in.read();
                } catch (IOException reset) {
                    first = -1;
                }
                assertEquals(-1, first, "the client sees the connection end");
            }
            Eventually.await("refusal counted", () -> sidecar.stats("mongo").refused(Refusal.UPSTREAM_CONNECT) == 1);
            String expected = "sidecar-booking/mongo: upstream 127.0.0.1:" + dead.port() + " (egress-gateway) connect failed: ";
            Eventually.await("failure logged", () -> log.text().contains(expected), log::text);
            String line = log.text().lines().filter(l -> l.contains(expected)).findFirst().orElseThrow();
            assertTrue(line.contains("Connection refused"), line);
            assertTrue(line.contains("WARN"), line);
            Eventually.await("closed", () -> sidecar.stats("mongo").active() == 0);
            assertEquals(0, sidecar.stats("mongo").refused(Refusal.TLS));
        }
    }
}
