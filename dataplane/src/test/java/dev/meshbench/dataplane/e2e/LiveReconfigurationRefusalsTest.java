package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.cli.DataplaneMain;
import dev.meshbench.dataplane.testing.AdminClient;
import dev.meshbench.dataplane.testing.TaggedClient;
import dev.meshbench.dataplane.testing.TaggedEchoServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What {@code PUT /config} refuses, with which status and message, and that a refused configuration changes nothing: the
 * same {@code GET /config}, the same version in {@code /stats}, the listener in force still serving its connections.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("PUT /config refuses")
class LiveReconfigurationRefusalsTest {
    private TaggedEchoServer upstream;
    private DataplaneBootstrap sidecar;
    private AdminClient admin;
    private String configBefore;
    private TaggedClient openBefore;

    @BeforeAll
    void start() throws IOException {
        upstream = TaggedEchoServer.start("A");
        List<String> args = new ArrayList<>(List.of("sidecar"));
        args.addAll(args(mongo()));
        args.addAll(List.of("--config-version", "v1"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        DataplaneMain.Launch l = DataplaneMain.launch(args.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertNotNull(l.running(), err.toString(StandardCharsets.UTF_8));
        sidecar = l.running();
        admin = new AdminClient(sidecar.addresses().admin());
    }

    @AfterAll
    void stop() throws IOException {
        sidecar.close();
        upstream.close();
    }

    @BeforeEach
    void recordState() throws Exception {
        configBefore = admin.get("/config").body();
        openBefore = TaggedClient.connect(sidecar.addresses().listener("mongo"));
        assertEquals("A", openBefore.tag());
    }

    /** Nothing changed: the same configuration and version, and the connection opened before still relays. */
    @AfterEach
    void nothingChanged() throws Exception {
        assertEquals(configBefore, admin.get("/config").body());
        assertTrue(configBefore.startsWith("{\"version\":\"v1\","), configBefore);
        assertTrue(admin.get("/stats").body().endsWith(",\"configVersion\":\"v1\"}\n"));
        assertEquals("ping", openBefore.echo("ping"));
        openBefore.close();
        try (TaggedClient fresh = TaggedClient.connect(sidecar.addresses().listener("mongo"))) {
            assertEquals("A", fresh.tag());
        }
    }

    private String mongo() {
        return "name=mongo,port=0,upstream=" + upstream.hostPort() + ",upstream-name=mongo";
    }

    private static List<String> args(String... listeners) {
        List<String> a = new ArrayList<>(List.of("--name", "sidecar-booking", "--admin-port", "0", "--io-threads", "1"));
        for (String l : listeners) {
            a.add("--listener");
            a.add(l);
        }
        return a;
    }

    private static void assertAnswer(int status, String body, HttpResponse<String> answer) {
        assertEquals(status + " " + body + "\n", answer.statusCode() + " " + answer.body());
    }

    @Test
    @DisplayName("an unparsable body: 400 with the command line's own message naming the option")
    void unparsable() throws Exception {
        assertAnswer(400, "sidecar: --listener 'name=mongo,port=x,upstream=127.0.0.1:1': port must be a number 0-65535 (got 'x')",
                admin.putConfig("v2", args("name=mongo,port=x,upstream=127.0.0.1:1")));
        assertAnswer(400, "sidecar: unknown option '--bogus'", admin.putConfig("v2", List.of("--bogus", "1")));
        assertAnswer(400, "sidecar: --listener is required (at least one, e.g. name=mongo,port=0,upstream=127.0.0.1:27017)",
                admin.putConfig("v2", List.of("--name", "sidecar-booking")));
        assertAnswer(400, "sidecar: the body is empty; it is the command's arguments, one per line", admin.put("/config?version=v2", "\n"));
        assertAnswer(400, "sidecar: --help is not a configuration", admin.putConfig("v2", List.of("--help")));
    }

    @Test
    @DisplayName("an option other than the listeners changed: 409 naming it (also the TLS files, and mTLS without them)")
    void fixedOption() throws Exception {
        assertAnswer(409, "sidecar: --admin-port cannot change while the process runs (started with '0', the body gives '8001'); only "
                + "--listener can; restart the process to change it", admin.putConfig("v2", List.of("--admin-port", "8001", "--listener", mongo())));
        assertAnswer(409, "sidecar: --name cannot change while the process runs (started with 'sidecar-booking', the body gives 'other'); "
                + "only --listener can; restart the process to change it", admin.putConfig("v2", List.of("--name", "other", "--listener", mongo())));
        assertAnswer(409, "sidecar: --ca-file cannot change while the process runs (started without it, the body gives 'ca.pem'); only "
                + "--listener can; restart the process to change it", admin.putConfig("v2", List.of("--ca-file", "ca.pem", "--listener", mongo())));
        assertAnswer(409, "sidecar: --drain-seconds cannot change while the process runs (started with '1', the body gives '2.5'); only "
                + "--listener can; restart the process to change it", admin.putConfig("v2", List.of("--drain-seconds", "2.5", "--listener", mongo())));
        assertAnswer(409, "sidecar: listener mongo uses mutual TLS (mtls-originate), but the process was started without --ca-file, "
                + "--cert-file and --key-file; restart it with them", admin.putConfig("v2", args(mongo() + ",tls=mtls-originate,sni=mongo.meshbench.test")));
        assertAnswer(409, "the body is for egress-gateway, this process runs sidecar",
                admin.putConfig("v2", List.of("egress-gateway", "--name", "sidecar-booking", "--mode", "mtls")));
    }

    @Test
    @DisplayName("a bad version string: 400, before the body is read")
    void badVersion() throws Exception {
        String rule = "1-64 letters, digits, '.', '_', ':' or '-'";
        assertAnswer(400, "?version=: a config version is " + rule + " (got 'a/b')", admin.put("/config?version=a%2Fb", String.join("\n", args(mongo()))));
        assertAnswer(400, "?version=: a config version is " + rule + " (got '')", admin.put("/config?version=", String.join("\n", args(mongo()))));
        assertAnswer(400, "?version=: a config version is " + rule + " (got '" + "x".repeat(65) + "')",
                admin.put("/config?version=" + "x".repeat(65), String.join("\n", args(mongo()))));
        assertAnswer(400, "PUT /config needs one ?version=<v>, " + rule, admin.put("/config", String.join("\n", args(mongo()))));
        assertAnswer(400, "PUT /config needs one ?version=<v>, " + rule, admin.put("/config?version=a&version=b", String.join("\n", args(mongo()))));
    }

    @Test
    @DisplayName("an added listener whose port is taken: 409 naming listener and port, the other changes not applied either")
    void portTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                TaggedEchoServer other = TaggedEchoServer.start("B")) {
            int port = taken.getLocalPort();
            HttpResponse<String> answer = admin.putConfig("v2", args("name=mongo,port=0,upstream=" + other.hostPort(),
                    "name=inbound,port=0,upstream=127.0.0.1:9", "name=extra,port=" + port + ",upstream=127.0.0.1:9"));
            assertEquals(409, answer.statusCode(), answer.body());
            assertTrue(answer.body().startsWith("sidecar-booking: binding listener extra to 127.0.0.1:" + port + " failed: "), answer.body());
            assertTrue(answer.body().endsWith("; nothing changed\n"), answer.body());
            InetSocketAddress unchanged = sidecar.addresses().listener("mongo");
            assertEquals(List.of("mongo"), List.copyOf(sidecar.addresses().listeners().keySet()), "inbound was not bound either");
            try (TaggedClient c = TaggedClient.connect(unchanged)) {
                assertEquals("A", c.tag(), "mongo still relays to its old upstream");
            }
            assertEquals(0, other.accepted());
        }
    }
}
