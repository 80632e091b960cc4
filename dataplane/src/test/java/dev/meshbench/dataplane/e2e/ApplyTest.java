package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.LoopbackPorts;
import dev.meshbench.dataplane.ConfigRevision;
import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.ListenerBindException;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.ConfigRefusedException;
import dev.meshbench.dataplane.config.ConfigVersion;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.PathRoutes;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.loopback.MeshIdentities;
import dev.meshbench.dataplane.testing.AdminClient;
import dev.meshbench.dataplane.testing.TaggedClient;
import dev.meshbench.dataplane.testing.TaggedEchoServer;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link DataplaneBootstrap#apply}, the Java API behind {@code PUT /config}. */
@DisplayName("DataplaneBootstrap.apply")
class ApplyTest {
    private static ListenerConfig relay(String name, int port, TaggedEchoServer to) {
        return ListenerConfig.relay(name, port, Upstream.of(HostAndPort.parse(to.hostPort())));
    }

    private static ComponentConfig sidecar(Duration drain, ListenerConfig... listeners) {
        return new ComponentConfig("sidecar-booking", null, 0, 1, List.of(listeners), null, null, drain);
    }

    private static ConfigRevision revision(String version, ComponentConfig config) {
        return new ConfigRevision(new ConfigVersion(version), config, Map.of());
    }

    @Test
    @DisplayName("a listener given another port moves there: the old port closes, the new one serves; with drain time 0 its "
            + "old connections close at once")
    void movesToAnotherPort() throws Exception {
        try (TaggedEchoServer a = TaggedEchoServer.start("A"); TaggedEchoServer b = TaggedEchoServer.start("B");
                DataplaneBootstrap sidecar = new DataplaneBootstrap(sidecar(Duration.ZERO, relay("mongo", LoopbackPorts.pickOne(), a)))) {
            // both ports below the ephemeral range: the old one, once closed, cannot be taken by another build before it is tried
            InetSocketAddress before = sidecar.start().listener("mongo");
            try (TaggedClient old = TaggedClient.connect(before)) {
                assertEquals("A", old.tag());
                int port = LoopbackPorts.pickOne();
                InetSocketAddress after = sidecar.apply(revision("v2", sidecar(Duration.ZERO, relay("mongo", port, b)))).listener("mongo");
                assertEquals(port, after.getPort());
                assertThrows(ConnectException.class, () -> new Socket(before.getAddress(), before.getPort()).close());
                try (TaggedClient fresh = TaggedClient.connect(after)) {
                    assertEquals("B", fresh.tag());
                }
                assertTrue(old.awaitClosedByPeer(10_000), "closed at once with drain time 0");
            }
            assertEquals("{\"version\":\"v2\",\"listeners\":[{\"name\":\"mongo\",\"address\":\"127.0.0.1:" + sidecar.addresses().listener("mongo")
                    .getPort() + "\",\"spec\":\"name=mongo,port=" + sidecar.addresses().listener("mongo").getPort() + ",upstream=" + b.hostPort()
                    + "\"}]}", sidecar.configJson());
        }
    }

    @Test
    @DisplayName("an unchanged listener is left alone: its connection is not drained even with drain time 0")
    void unchangedLeftAlone() throws Exception {
        try (TaggedEchoServer a = TaggedEchoServer.start("A"); TaggedEchoServer b = TaggedEchoServer.start("B");
                DataplaneBootstrap sidecar = new DataplaneBootstrap(sidecar(Duration.ZERO, relay("inbound", 0, a)))) {
            InetSocketAddress inbound = sidecar.start().listener("inbound");
            try (TaggedClient open = TaggedClient.connect(inbound)) {
                sidecar.apply(revision("v2", sidecar(Duration.ZERO, relay("inbound", inbound.getPort(), a), relay("mongo", 0, b))));
                sidecar.apply(revision("v3", sidecar(Duration.ZERO, relay("inbound", 0, a))));
                assertEquals("still open", open.echo("still open"));
                assertEquals(List.of("inbound"), List.copyOf(sidecar.addresses().listeners().keySet()));
            }
        }
    }

    @Test
    @DisplayName("refuses, changing nothing: another option than listeners, a listener changing between HTTP and TCP, "
            + "mutual TLS in a component without TLS material; PUT /config answers 501 without a command line")
    void refusals() throws Exception {
        try (TaggedEchoServer a = TaggedEchoServer.start("A");
                DataplaneBootstrap sidecar = new DataplaneBootstrap(sidecar(Duration.ZERO, relay("mongo", 0, a)))) {
            sidecar.start();
            String before = sidecar.configJson();
            ConfigRefusedException threads = assertThrows(ConfigRefusedException.class,
                    () -> sidecar.apply(revision("v2", sidecar(Duration.ZERO, relay("mongo", 0, a)).withIoThreads(2))));
            assertEquals("sidecar-booking cannot change its io threads (running 1, asked 2) while running, only its listeners", threads.getMessage());
            ConfigRefusedException http = assertThrows(ConfigRefusedException.class,
                    () -> sidecar.apply(revision("v2", sidecar(Duration.ZERO, ListenerConfig.httpPathRouter("mongo", 0, new Routing.ByPathPrefix(
                            new PathRoutes(List.of(new PathRoutes.Route("/", Upstream.of(HostAndPort.of(a.address()))))), 1024, 1))))));
            assertEquals("listener mongo cannot change between an HTTP router and a TCP relay while running; give it another name",
                    http.getMessage());
            MeshIdentities ids = MeshIdentities.create();
            ConfigRefusedException tls = assertThrows(ConfigRefusedException.class, () -> sidecar.apply(revision("v2",
                    new ComponentConfig("sidecar-booking", null, 0, 1, List.of(relay("mongo", 0, a)), ids.sidecarTls(), null, Duration.ZERO))));
            assertTrue(tls.getMessage().startsWith("sidecar-booking cannot change its TLS material (started without; asked TlsMaterial["),
                    tls.getMessage());
            assertEquals(before, sidecar.configJson());

            var answer = new AdminClient(sidecar.addresses().admin()).putConfig("v2", List.of("--listener", "name=mongo,port=0,upstream=127.0.0.1:1"));
            assertEquals(501, answer.statusCode());
            assertEquals(before, sidecar.configJson());
        }
    }

    @Test
    @DisplayName("counts a listener's connections across configurations, also one accepted under the previous one")
    void countersContinue() throws Exception {
        try (TaggedEchoServer a = TaggedEchoServer.start("A"); TaggedEchoServer b = TaggedEchoServer.start("B");
                DataplaneBootstrap sidecar = new DataplaneBootstrap(sidecar(Duration.ofSeconds(30), relay("mongo", 0, a)))) {
            InetSocketAddress mongo = sidecar.start().listener("mongo");
            try (TaggedClient old = TaggedClient.connect(mongo)) {
                sidecar.apply(revision("v2", sidecar(Duration.ofSeconds(30), relay("mongo", 0, b))));
                try (TaggedClient fresh = TaggedClient.connect(mongo)) {
                    assertEquals("B", fresh.tag());
                    old.echo("12345");
                    fresh.echo("678");
                }
            }
            dev.meshbench.dataplane.testing.Eventually.await("both connections closed", () -> sidecar.stats("mongo").active() == 0);
            assertEquals(2, sidecar.stats("mongo").accepted());
            assertEquals(8, sidecar.stats("mongo").bytesClientToUpstream());
        }
    }

    @Test
    @DisplayName("start still fails naming listener and port when a port is taken (ListenerBindException), releasing the others")
    void startBindFailure() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()); TaggedEchoServer a = TaggedEchoServer.start("A")) {
            DataplaneBootstrap sidecar = new DataplaneBootstrap(sidecar(null, relay("inbound", 0, a), relay("mongo", taken.getLocalPort(), a)));
            ListenerBindException e = assertThrows(ListenerBindException.class, sidecar::start);
            assertTrue(e.getMessage().startsWith("sidecar-booking: binding listener mongo to 127.0.0.1:" + taken.getLocalPort() + " failed"));
        }
    }
}
