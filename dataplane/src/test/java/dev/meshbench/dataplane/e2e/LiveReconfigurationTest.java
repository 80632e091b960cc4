package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.LoopbackPorts;
import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.cli.DataplaneMain;
import dev.meshbench.dataplane.testing.AdminClient;
import dev.meshbench.dataplane.testing.Eventually;
import dev.meshbench.dataplane.testing.LogCapture;
import dev.meshbench.dataplane.testing.TaggedClient;
import dev.meshbench.dataplane.testing.TaggedEchoServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A sidecar started from its command line, switched to new listener configurations on {@code PUT /config} while
 * clients use it: real sockets on loopback, upstreams that say who they are ({@link TaggedEchoServer}).
 */
@DisplayName("a running sidecar switched to a new configuration with PUT /config")
class LiveReconfigurationTest {
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private TaggedEchoServer upstream(String tag) throws IOException {
        TaggedEchoServer s = TaggedEchoServer.start(tag);
        toClose.add(s);
        return s;
    }

    private DataplaneBootstrap sidecar(List<String> args) {
        List<String> all = new ArrayList<>(List.of("sidecar"));
        all.addAll(args);
        DataplaneMain.Launch l = DataplaneMain.launch(all.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertNotNull(l.running(), err.toString(StandardCharsets.UTF_8));
        toClose.add(l.running());
        return l.running();
    }

    /** The sidecar's arguments after the command name, as the orchestrator renders them. */
    private static List<String> args(String drainSeconds, String... listeners) {
        List<String> a = new ArrayList<>(List.of("--name", "sidecar-booking", "--admin-port", "0", "--io-threads", "1",
                "--drain-seconds", drainSeconds));
        for (String l : listeners) {
            a.add("--listener");
            a.add(l);
        }
        return a;
    }

    private static String mongo(TaggedEchoServer to) {
        return "name=mongo,port=0,upstream=" + to.hostPort() + ",upstream-name=mongo";
    }

    private static String inbound(TaggedEchoServer to) {
        return "name=inbound,port=0,upstream=" + to.hostPort() + ",upstream-name=booking";
    }

    private TaggedClient client(InetSocketAddress relay) throws IOException {
        TaggedClient c = TaggedClient.connect(relay);
        toClose.add(c);
        return c;
    }

    /**
     * Connects to {@code target} again and again, one connection at a time, each closed once the upstream's tag came
     * back through it (so the relay served it), and keeps every failure.
     */
    private static final class ConnectLoop implements AutoCloseable {
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong attempts = new AtomicLong();
        final List<String> failures = new CopyOnWriteArrayList<>();
        final Thread thread;

        ConnectLoop(InetSocketAddress target) {
            thread = new Thread(() -> {
                while (running.get()) {
                    try (TaggedClient c = TaggedClient.connect(target)) {
                        attempts.incrementAndGet();
                    } catch (IOException e) {
                        attempts.incrementAndGet();
                        if (failures.size() < 10) {
                            failures.add(e.toString());
                        }
                    }
                }
            }, "connect-loop");
            thread.start();
        }

        void awaitAttempts(long atLeast) {
            Eventually.await(atLeast + " connection attempts", () -> attempts.get() >= atLeast);
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(10_000);
        }
    }

    @Test
    @DisplayName("a changed upstream: same port, no refused connect during the switch, new connections reach B at once, "
            + "those from before are closed after the drain time, an unchanged listener keeps its connection")
    void changedUpstream() throws Exception {
        TaggedEchoServer a = upstream("A");
        TaggedEchoServer b = upstream("B");
        TaggedEchoServer app = upstream("APP");
        DataplaneBootstrap sidecar = sidecar(args("1", mongo(a), inbound(app)));
        InetSocketAddress mongoAddress = sidecar.addresses().listener("mongo");
        AdminClient admin = new AdminClient(sidecar.addresses().admin());

        TaggedClient before = client(mongoAddress);
        assertEquals("A", before.tag());
        assertEquals("hello", before.echo("hello"));
        TaggedClient inboundClient = client(sidecar.addresses().listener("inbound"));
        assertEquals("APP", inboundClient.tag());

        HttpResponse<String> answer;
        long sent;
        try (ConnectLoop loop = new ConnectLoop(mongoAddress)) {
            loop.awaitAttempts(20);
            sent = System.nanoTime();
            answer = admin.putConfig("v2", args("1", mongo(b), inbound(app)));
            long atAnswer = loop.attempts.get();
            loop.awaitAttempts(atAnswer + 20);
            loop.close();
            assertEquals(List.of(), loop.failures, "no connection was refused during the switch");
        }
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().startsWith("{\"version\":\"v2\",\"listeners\":[{\"name\":\"mongo\",\"address\":\"127.0.0.1:"
                + mongoAddress.getPort() + "\",\"spec\":\"" + mongo(b) + "\"},{\"name\":\"inbound\""), answer.body());
        assertEquals(mongoAddress, sidecar.addresses().listener("mongo"), "the port stayed");

        TaggedClient after = client(mongoAddress);
        assertEquals("B", after.tag(), "a connection opened after the answer reaches the new upstream");
        assertEquals("x", after.echo("x"));

        assertTrue(before.awaitClosedByPeer(1000 + 10_000), "the connection from before was closed within the drain time and a margin");
        long closedAfterNanos = System.nanoTime() - sent;
        assertTrue(closedAfterNanos >= 1_000_000_000L, "it lived on for the drain time (1 s), closed after " + closedAfterNanos / 1_000_000 + " ms");
        assertEquals("still here", inboundClient.echo("still here"), "the unchanged listener's connection lives on");
        assertEquals("B", client(mongoAddress).tag());
        assertTrue(sidecar.statsJson().endsWith(",\"configVersion\":\"v2\"}"), sidecar.statsJson());
    }

    @Test
    @DisplayName("a removed listener stops listening at once and its connections close after the drain time; added back, it binds "
            + "and its counters go on; the unchanged listener keeps its connection throughout")
    void removedAndAdded() throws Exception {
        TaggedEchoServer a = upstream("A");
        TaggedEchoServer b = upstream("B");
        TaggedEchoServer app = upstream("APP");
        // the removed listener's port below the ephemeral range: once closed, no other build's server on port 0 can take it
        // before the test sees it refuse
        DataplaneBootstrap sidecar = sidecar(args("0.5", mongo(a).replace("port=0", "port=" + LoopbackPorts.pickOne()), inbound(app)));
        InetSocketAddress mongoAddress = sidecar.addresses().listener("mongo");
        AdminClient admin = new AdminClient(sidecar.addresses().admin());
        TaggedClient mongoClient = client(mongoAddress);
        assertEquals("A", mongoClient.tag());
        TaggedClient inboundClient = client(sidecar.addresses().listener("inbound"));
        assertEquals("APP", inboundClient.tag());

        long sent = System.nanoTime();
        HttpResponse<String> bypass = admin.putConfig("bypass", args("0.5", inbound(app)));
        assertEquals(200, bypass.statusCode(), bypass.body());
        assertEquals("{\"version\":\"bypass\",\"listeners\":[{\"name\":\"inbound\",\"address\":\"127.0.0.1:"
                + sidecar.addresses().listener("inbound").getPort() + "\",\"spec\":\"" + inbound(app) + "\"}]}\n", bypass.body());
        assertThrows(ConnectException.class, () -> new Socket(mongoAddress.getAddress(), mongoAddress.getPort()).close(),
                "the removed listener's port is closed");
        String stats = admin.get("/stats").body();
        assertFalse(stats.contains("\"mongo\""), stats);
        assertTrue(stats.contains("\"configVersion\":\"bypass\""), stats);
        assertTrue(mongoClient.awaitClosedByPeer(500 + 10_000), "its connection was closed after the drain time");
        assertTrue(System.nanoTime() - sent >= 500_000_000L, "not before the drain time");

        HttpResponse<String> sidecarCase = admin.putConfig("sidecar", args("0.5", mongo(b), inbound(app)));
        assertEquals(200, sidecarCase.statusCode(), sidecarCase.body());
        InetSocketAddress newMongo = sidecar.addresses().listener("mongo");
        assertTrue(sidecarCase.body().contains("{\"name\":\"mongo\",\"address\":\"127.0.0.1:" + newMongo.getPort() + "\""), sidecarCase.body());
        assertEquals("B", client(newMongo).tag());
        Eventually.await("the mongo listener counted both connections", () -> sidecar.stats("mongo").accepted() == 2);
        assertEquals("still here", inboundClient.echo("still here"), "the unchanged listener's connection lived through both changes");
        assertEquals(1, app.accepted());
        assertEquals(1, sidecar.stats("inbound").accepted());
    }

    @Test
    @DisplayName("GET /config and /stats report --config-version, then each applied version; a refused one leaves it; the body "
            + "may lead with the command name and carry --exit-on-stdin-eof, --tls-provider and --config-version unchanged")
    void versionFollowsAppliedConfigs() throws Exception {
        TaggedEchoServer a = upstream("A");
        TaggedEchoServer b = upstream("B");
        List<String> start = new ArrayList<>(args("1", mongo(a)));
        start.addAll(List.of("--tls-provider", "jdk", "--config-version", "v0", "--exit-on-stdin-eof"));
        DataplaneBootstrap sidecar = sidecar(start);
        AdminClient admin = new AdminClient(sidecar.addresses().admin());
        assertTrue(admin.get("/config").body().startsWith("{\"version\":\"v0\","));
        assertTrue(admin.get("/stats").body().endsWith(",\"tlsProvider\":\"jdk\",\"configVersion\":\"v0\"}\n"));

        List<String> withCommand = new ArrayList<>(List.of("sidecar"));
        withCommand.addAll(args("1", mongo(b)));
        withCommand.addAll(List.of("--tls-provider", "jdk", "--exit-on-stdin-eof", "--config-version", "case-2:gateway_1.0"));
        HttpResponse<String> applied = admin.putConfig("case-2:gateway_1.0", withCommand);
        assertEquals(200, applied.statusCode(), applied.body());
        assertEquals(applied.body(), admin.get("/config").body());
        assertTrue(applied.body().startsWith("{\"version\":\"case-2:gateway_1.0\","));
        assertTrue(admin.get("/stats").body().endsWith(",\"configVersion\":\"case-2:gateway_1.0\"}\n"));
        assertEquals("B", client(sidecar.addresses().listener("mongo")).tag());

        try (LogCapture log = new LogCapture()) {
            List<String> moreThreads = new ArrayList<>(args("1", mongo(a)));
            moreThreads.set(moreThreads.indexOf("--io-threads") + 1, "2");
            HttpResponse<String> refused = admin.putConfig("v3", moreThreads);
            assertEquals(409, refused.statusCode(), refused.body());
            Eventually.await("the refusal is logged at WARN", () -> log.text().lines().anyMatch(l -> l.contains("WARN")
                    && l.contains("sidecar-booking: refused config version v3: sidecar: --io-threads cannot change while the process runs (started with "
                    + "'1', the body gives '2'); only --listener can; restart the process to change it")), log::text);
        }
        assertEquals(applied.body(), admin.get("/config").body(), "a refused config changes nothing");
        assertTrue(admin.get("/stats").body().endsWith(",\"configVersion\":\"case-2:gateway_1.0\"}\n"));
        assertEquals("B", client(sidecar.addresses().listener("mongo")).tag());

        List<String> otherVersion = new ArrayList<>(args("1", mongo(a)));
        otherVersion.addAll(List.of("--config-version", "v9"));
        HttpResponse<String> disagrees = admin.putConfig("v4", otherVersion);
        assertEquals(400, disagrees.statusCode(), disagrees.body());
        assertEquals("sidecar: --config-version v9 disagrees with ?version=v4 (the version of a new configuration is its ?version=)\n",
                disagrees.body());

        try (LogCapture log = new LogCapture()) {
            HttpResponse<String> back = admin.putConfig("v5", args("1", mongo(a)));
            assertEquals(200, back.statusCode(), back.body());
            Eventually.await("the change is logged at INFO", () -> log.text().lines().anyMatch(l -> l.contains("INFO")
                    && l.contains("sidecar-booking: applied config version v5 (was case-2:gateway_1.0): added [], changed [mongo], removed [], "
                    + "kept []; listening: mongo 127.0.0.1:")), log::text);
        }
        assertEquals("A", client(sidecar.addresses().listener("mongo")).tag());
    }
}
