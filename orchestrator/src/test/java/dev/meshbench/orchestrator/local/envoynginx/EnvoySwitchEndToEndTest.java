package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.sun.net.httpserver.HttpServer;
import dev.meshbench.component.MeshNames;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.ListenerNames;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.local.ProcessSupervisor;
import dev.meshbench.orchestrator.local.ProxyLaunch;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Envoy sidecar switched from one case to another while it runs, as the kit switches cases under a deployed
 * application: started by {@link ProxyLaunch#spec} with the {@code sidecar} case, reconfigured by
 * {@link ProxyLaunch#reconfigure} ({@link EnvoyConfigs#push} + {@link EnvoyConfigs#awaitApplied}); loopback servers
 * stand in for each upstream. Ports are reserved once over every case, as the kit does. Skipped, with the reason,
 * when there is no Envoy.
 */
class EnvoySwitchEndToEndTest {
    private static final String PROXY = ComponentNames.sidecarOf("booking");
    private static final Duration APPLY_TIMEOUT = Duration.ofSeconds(60);
    /** How long an old connection may stay open after the push: Envoy's drain time plus a margin for a busy machine. */
    private static final Duration DRAIN_AND_MARGIN = Duration.ofSeconds(EnvoyCommand.DRAIN_SECONDS + 10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<TopologyPlan> plans = EnvoyFixtures.everyCase(true);
    private final TopologyPlan sidecarCase = plans.get(EgressCase.SIDECAR.ordinal());

    @Test
    @DisplayName("sidecar -> gateway: Envoy applies it; old MongoDB connections close after the drain, new ones go to the gateway, the port never refuses, an unchanged HTTP listener keeps its keep-alive connection")
    void sidecarToGateway(@TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        TopologyPlan gatewayCase = plans.get(EgressCase.GATEWAY.ordinal());
        try (EnvoyFixtures.EchoServer mongo = new EnvoyFixtures.EchoServer(0);
                EnvoyFixtures.EchoServer gateway = new EnvoyFixtures.EchoServer(0);
                App booking = new App("booking");
                ProcessSupervisor supervisor = new ProcessSupervisor(dir.resolve("logs"), Duration.ofSeconds(5))) {
            LocalAddresses addrs = EnvoyFixtures.freeAddresses(plans);
            addrs = EnvoyFixtures.withPort(addrs, new Endpoint(ComponentNames.MONGO, ListenerNames.MONGO), mongo.port());
            addrs = EnvoyFixtures.withPort(addrs, new Endpoint(ComponentNames.EGRESS_GATEWAY, ListenerNames.EGRESS), gateway.port());
            addrs = EnvoyFixtures.withPort(addrs, new Endpoint("booking", ListenerNames.HTTP), booking.port());
            MeshFiles mesh = EnvoyFixtures.realMeshFiles(plans, Files.createDirectories(dir.resolve("pki")));
            ProxyLaunch launch = launch(envoy);
            Path configDir = Files.createDirectories(dir.resolve("config"));
            supervisor.start(launch.spec(sidecarCase, sidecarCase.component(PROXY), addrs, mesh, configDir, dir, "sidecar"), APPLY_TIMEOUT);
            int mongoPort = addrs.port(PROXY, ListenerNames.MONGO);
            URI admin = EnvoyFixtures.admin(addrs, sidecarCase.component(PROXY));

            Socket before = relayed(mongoPort);
            assertEquals(1, mongo.accepted.get(), "the sidecar case sends MongoDB traffic straight to MongoDB");
            Socket keepAlive = new Socket(InetAddress.getLoopbackAddress(), addrs.port(PROXY, ListenerNames.INBOUND));
            assertEquals(200, HttpExchange.get(keepAlive, "/before").status());

            try (Prober prober = new Prober(mongoPort)) {
                launch.reconfigure(gatewayCase, gatewayCase.component(PROXY), addrs, mesh, configDir, "gateway", HttpClient.newHttpClient(), admin,
                        APPLY_TIMEOUT);
                assertClosed(before, "the connection opened under the sidecar case");

                Socket after = relayed(mongoPort);
                after.close();
                assertEquals(1, gateway.accepted.get(), "a new connection goes to the egress gateway");
                assertEquals(1, mongo.accepted.get(), "and not to MongoDB directly");
                prober.stop();
                assertTrue(prober.attempts.get() > 0, "the port was probed during the change");
                assertEquals(0, prober.refused.get(), "the MongoDB port refused connections during the change (of " + prober.attempts + ")");
            }
            HttpExchange again = HttpExchange.get(keepAlive, "/after");
            assertEquals(200, again.status(), "the inbound listener, the same in both cases, still serves its old connection");
            assertFalse("close".equalsIgnoreCase(again.headers().getOrDefault("connection", "")), again.headers().toString());
            assertEquals(1, booking.connections.get(), "both requests over one connection to the sidecar and one to the app");
            keepAlive.close();

            String stats = EnvoyFixtures.httpGet(admin.resolve("/stats?filter=listener_manager")).orElseThrow();
            assertTrue(stats.contains("listener_manager.listener_in_place_updated: 1"), "the mongo listener was updated in place: " + stats);
            Set<String> clusters = dynamicClusters(admin);
            assertTrue(clusters.contains(EnvoyClusterNames.of(new Endpoint(ComponentNames.EGRESS_GATEWAY, ListenerNames.EGRESS), addrs)), clusters.toString());
            assertFalse(clusters.contains(EnvoyClusterNames.of(new Endpoint(ComponentNames.MONGO, ListenerNames.MONGO), addrs)), clusters.toString());
        }
    }

    @Test
    @DisplayName("sidecar -> bypass: the sidecar's mongo listener and cluster are gone (the port refuses, config_dump agrees) and its old connection is closed")
    void sidecarToBypass(@TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        TopologyPlan bypass = plans.get(EgressCase.BYPASS.ordinal());
        try (EnvoyFixtures.EchoServer mongo = new EnvoyFixtures.EchoServer(0);
                ProcessSupervisor supervisor = new ProcessSupervisor(dir.resolve("logs"), Duration.ofSeconds(5))) {
            LocalAddresses addrs = EnvoyFixtures.withPort(EnvoyFixtures.freeAddresses(plans),
                    new Endpoint(ComponentNames.MONGO, ListenerNames.MONGO), mongo.port());
            MeshFiles mesh = EnvoyFixtures.realMeshFiles(plans, Files.createDirectories(dir.resolve("pki")));
            ProxyLaunch launch = launch(envoy);
            Path configDir = Files.createDirectories(dir.resolve("config"));
            supervisor.start(launch.spec(sidecarCase, sidecarCase.component(PROXY), addrs, mesh, configDir, dir, "sidecar"), APPLY_TIMEOUT);
            int mongoPort = addrs.port(PROXY, ListenerNames.MONGO);
            URI admin = EnvoyFixtures.admin(addrs, sidecarCase.component(PROXY));
            assertTrue(dynamicListeners(admin).containsKey(ListenerNames.MONGO));
            Socket before = relayed(mongoPort);

            launch.reconfigure(bypass, bypass.component(PROXY), addrs, mesh, configDir, "bypass", HttpClient.newHttpClient(), admin, APPLY_TIMEOUT);

            assertClosed(before, "the connection opened under the sidecar case");
            assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), mongoPort).close(),
                    "the removed mongo listener's port refuses");
            Map<String, Set<String>> listeners = dynamicListeners(admin);
            assertFalse(listeners.containsKey(ListenerNames.MONGO), "config_dump has no mongo listener in any state: " + listeners);
            assertEquals(new TreeSet<>(bypass.component(PROXY).listeners().stream().map(l -> l.name()).toList()), listeners.keySet());
            assertFalse(dynamicClusters(admin).contains(EnvoyClusterNames.of(new Endpoint(ComponentNames.MONGO, ListenerNames.MONGO), addrs)));
        }
    }

    @Test
    @DisplayName("a push written in place instead of renamed is not seen: awaitApplied names the proxy, the version wanted and the one it still has")
    void filesWrittenWithoutTheRenameAreDetected(@TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        TopologyPlan gatewayCase = plans.get(EgressCase.GATEWAY.ordinal());
        LocalAddresses addrs = EnvoyFixtures.freeAddresses(plans);
        MeshFiles mesh = EnvoyFixtures.realMeshFiles(plans, Files.createDirectories(dir.resolve("pki")));
        ComponentPlan proxy = sidecarCase.component(PROXY);
        Process p = EnvoyFixtures.startEnvoy(envoy, sidecarCase, proxy, addrs, mesh, dir);
        try {
            URI admin = EnvoyFixtures.admin(addrs, proxy);
            Path xds = dir.resolve(PROXY + ".xds");
            ComponentPlan next = gatewayCase.component(PROXY);
            Files.writeString(EnvoyConfigs.clustersFile(xds), EnvoyConfigs.clustersDocument(gatewayCase, next, addrs, mesh, "gateway"));
            Files.writeString(EnvoyConfigs.listenersFile(xds), EnvoyConfigs.listenersDocument(gatewayCase, next, addrs, mesh, "gateway"));

            TargetException e = assertThrows(TargetException.class, () -> EnvoyConfigs.awaitApplied(HttpClient.newHttpClient(), admin,
                    gatewayCase, next, addrs, "gateway", Duration.ofSeconds(3)));
            assertTrue(e.getMessage().startsWith(PROXY + " has not applied configuration gateway"), e.getMessage());
            assertTrue(e.getMessage().contains("its listeners are version sidecar") && e.getMessage().contains("its clusters are version sidecar"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("clusters missing [outbound|" + EnvoyClusterNames.GATEWAY_SERVICE_PORT + "|"), e.getMessage());

            // The same files renamed into place are taken: the test above failed for want of the rename alone.
            EnvoyConfigs.push(gatewayCase, next, addrs, mesh, xds, "gateway");
            EnvoyConfigs.awaitApplied(HttpClient.newHttpClient(), admin, gatewayCase, next, addrs, "gateway", APPLY_TIMEOUT);
        } finally {
            assertTrue(EnvoyFixtures.stop(p), "envoy stopped");
        }
    }

    @Test
    @DisplayName("a push Envoy rejects leaves the old configuration: awaitApplied names the proxy, both versions, Envoy's rejection counter and reason")
    void rejectedPushIsDetected(@TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        LocalAddresses addrs = EnvoyFixtures.freeAddresses(plans);
        MeshFiles mesh = EnvoyFixtures.realMeshFiles(plans, Files.createDirectories(dir.resolve("pki")));
        ComponentPlan proxy = sidecarCase.component(PROXY);
        Process p = EnvoyFixtures.startEnvoy(envoy, sidecarCase, proxy, addrs, mesh, dir);
        try {
            URI admin = EnvoyFixtures.admin(addrs, proxy);
            Path xds = dir.resolve(PROXY + ".xds");
            // The sidecar case's listeners as version "broken", with the mongo listener's TCP proxy missing its stat
            // prefix, which Envoy's proto validation requires.
            YAMLMapper yaml = new YAMLMapper();
            ObjectNode doc = (ObjectNode) yaml.readTree(EnvoyConfigs.listenersDocument(sidecarCase, proxy, addrs, mesh, "broken"));
            for (JsonNode l : doc.path("resources")) {
                if (l.path("name").asText().equals(ListenerNames.MONGO)) {
                    ((ObjectNode) l.at("/filter_chains/0/filters/0/typed_config")).remove("stat_prefix");
                }
            }
            EnvoyConfigs.writeAtomically(proxy, EnvoyConfigs.listenersFile(xds), yaml.writeValueAsString(doc));

            TargetException e = assertThrows(TargetException.class, () -> EnvoyConfigs.awaitApplied(HttpClient.newHttpClient(), admin,
                    sidecarCase, proxy, addrs, "broken", Duration.ofSeconds(3)));
            String m = e.getMessage();
            assertTrue(m.startsWith(PROXY + " has not applied configuration broken"), m);
            assertTrue(m.contains("its listeners are version sidecar"), m);
            assertTrue(m.contains("listener_manager.lds.update_rejected 1"), m);
            assertTrue(m.contains("listener mongo: ") && m.contains("StatPrefix"), "Envoy's reason: " + m);
            assertTrue(Files.readString(dir.resolve(PROXY + ".log")).contains("Filesystem config update rejected"), "and its log says so");
            // What it still runs is the sidecar case, in full.
            EnvoyConfigs.awaitApplied(HttpClient.newHttpClient(), admin, sidecarCase, proxy, addrs, "sidecar", Duration.ofSeconds(3));
        } finally {
            assertTrue(EnvoyFixtures.stop(p), "envoy stopped");
        }
    }

    private static ProxyLaunch launch(Path envoy) {
        return new ProxyLaunch(DataPlane.ENVOY, "auto", Path.of(System.getProperty("java.home"), "bin", "java"), Optional.empty(),
                Optional.of(envoy), Optional.empty());
    }

    /**
     * A connection through the sidecar's MongoDB listener: sends a ClientHello for MongoDB's host (the app's own TLS,
     * which the sidecar routes by server name) and reads it back from the echo server standing in for the upstream.
     */
    private static Socket relayed(int port) throws Exception {
        byte[] hello = clientHello(MeshNames.MONGO_HOST);
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(10_000);
        s.getOutputStream().write(hello);
        s.getOutputStream().flush();
        assertArrayEquals(hello, s.getInputStream().readNBytes(hello.length), "relayed to an echo server and back");
        return s;
    }

    /** Asserts the other end closes {@code s} (end of stream or reset) within the drain time plus a margin. */
    private static void assertClosed(Socket s, String what) throws IOException {
        try (s) {
            s.setSoTimeout((int) DRAIN_AND_MARGIN.toMillis());
            try {
                assertEquals(-1, s.getInputStream().read(), what + " was closed, not sent data");
            } catch (SocketTimeoutException e) {
                throw new AssertionError(what + " is still open " + DRAIN_AND_MARGIN.toSeconds() + " s after the push", e);
            } catch (IOException reset) {
                // closed with a reset: closed too
            }
        }
    }

    /** The first TLS record of a client handshake naming {@code serverName}, from the JDK's own TLS engine. */
    private static byte[] clientHello(String serverName) throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine(serverName, 443);
        engine.setUseClientMode(true);
        SSLParameters params = engine.getSSLParameters();
        params.setServerNames(List.of(new SNIHostName(serverName)));
        engine.setSSLParameters(params);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        return hello;
    }

    /** Listener name to its states ({@code active_state}, {@code draining_state}, ...) in Envoy's {@code /config_dump}. */
    private static Map<String, Set<String>> dynamicListeners(URI admin) throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        for (JsonNode c : configDump(admin).path("configs")) {
            if (c.path("@type").asText().endsWith("ListenersConfigDump")) {
                for (JsonNode l : c.path("dynamic_listeners")) {
                    Set<String> states = new TreeSet<>();
                    l.fieldNames().forEachRemaining(f -> {
                        if (f.endsWith("_state")) {
                            states.add(f);
                        }
                    });
                    out.put(l.path("name").asText(), states);
                }
            }
        }
        return out;
    }

    /** The names of the active and warming dynamic clusters in Envoy's {@code /config_dump}. */
    private static Set<String> dynamicClusters(URI admin) throws IOException {
        Set<String> out = new TreeSet<>();
        for (JsonNode c : configDump(admin).path("configs")) {
            if (c.path("@type").asText().endsWith("ClustersConfigDump")) {
                for (String kind : List.of("dynamic_active_clusters", "dynamic_warming_clusters")) {
                    c.path(kind).forEach(x -> out.add(x.at("/cluster/name").asText()));
                }
            }
        }
        return out;
    }

    private static JsonNode configDump(URI admin) throws IOException {
        return JSON.readTree(EnvoyFixtures.httpGet(admin.resolve("/config_dump")).orElseThrow(() -> new AssertionError("no /config_dump from " + admin)));
    }

    /** Connects to a loopback port over and over until stopped, counting refusals. */
    private static final class Prober implements AutoCloseable {
        final AtomicInteger attempts = new AtomicInteger();
        final AtomicInteger refused = new AtomicInteger();
        private final Thread thread;
        private volatile boolean stopped;

        Prober(int port) {
            thread = new Thread(() -> {
                while (!stopped) {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
                    } catch (ConnectException e) {
                        refused.incrementAndGet();
                    } catch (IOException e) {
                        // a connect timeout on a busy machine is not a refusal
                    }
                    attempts.incrementAndGet();
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "prober-" + port);
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.join(10_000);
        }

        @Override
        public void close() {
            try {
                stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A loopback HTTP/1.1 server standing in for a service (keep-alive), counting the connections it accepted. */
    private static final class App implements AutoCloseable {
        final AtomicInteger connections = new AtomicInteger();
        private final HttpServer server;

        App(String name) throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            byte[] body = name.getBytes(StandardCharsets.UTF_8);
            // The JDK server has no connection hook: a new remote port is a new connection.
            Set<Integer> remotePorts = java.util.concurrent.ConcurrentHashMap.newKeySet();
            server.createContext("/", exchange -> {
                if (remotePorts.add(exchange.getRemoteAddress().getPort())) {
                    connections.incrementAndGet();
                }
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    /** One HTTP/1.1 GET over an open socket, and its response (status, lower-case headers, body by Content-Length). */
    private record HttpExchange(int status, Map<String, String> headers, String body) {
        static HttpExchange get(Socket s, String path) throws IOException {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: booking\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String status = line(in);
            Map<String, String> headers = new TreeMap<>();
            for (String h = line(in); !h.isEmpty(); h = line(in)) {
                int colon = h.indexOf(':');
                headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
            }
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
            return new HttpExchange(Integer.parseInt(status.split(" ")[1]), headers, body);
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("connection closed mid-response after '" + b + "'");
                }
                if (c != '\r') {
                    b.write(c);
                }
            }
            return b.toString(StandardCharsets.US_ASCII);
        }
    }
}
