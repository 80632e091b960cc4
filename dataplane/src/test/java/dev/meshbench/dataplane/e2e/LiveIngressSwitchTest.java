package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.cli.DataplaneMain;
import dev.meshbench.dataplane.stats.HttpStats;
import dev.meshbench.dataplane.testing.AdminClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The ingress gateway (HTTP, pooled upstream connections) switched to new routes while it runs. */
@DisplayName("a running ingress gateway switched to new routes with PUT /config")
class LiveIngressSwitchTest {
    private final List<HttpServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    /** An HTTP server answering its name. */
    private String server(String name) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        servers.add(server);
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** One request on a new client (its own connection). */
    private static String get(InetSocketAddress gateway, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.getPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    @Test
    @DisplayName("new requests follow the new route at once on the same port; the counters of an upstream name go on")
    void newRoutes() throws Exception {
        String a = server("A");
        String b = server("B");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        DataplaneMain.Launch l = DataplaneMain.launch(new String[] {"ingress-gateway", "--name", "ingress-gateway", "--io-threads", "1",
            "--route", "/auth=" + a + ",upstream-name=auth"}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertNotNull(l.running(), err.toString(StandardCharsets.UTF_8));
        try (DataplaneBootstrap gateway = l.running()) {
            InetSocketAddress entry = gateway.addresses().listener("ingress");
            assertEquals("200 A", get(entry, "/auth/login"));

            HttpResponse<String> answer = new AdminClient(gateway.addresses().admin()).putConfig("v2", List.of("--listen-port", "0",
                    "--max-request-bytes", "2048", "--route", "/auth=" + b + ",upstream-name=auth", "--route", "GET /flight/{id}=" + a + ",upstream-name=flight"));
            assertEquals(200, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("\"spec\":\"--listen-port 0 --max-request-bytes 2048 --route /auth=" + b
                    + ",upstream-name=auth --route 'GET /flight/{id}=" + a + ",upstream-name=flight'\""), answer.body());
            assertEquals(entry, gateway.addresses().listener("ingress"));
            assertEquals("200 B", get(entry, "/auth/login"));
            assertEquals("200 A", get(entry, "/flight/42"));

            HttpStats http = gateway.stats("ingress").http();
            assertEquals(List.of("auth", "flight"), List.copyOf(http.upstreams().keySet()));
            assertEquals(b, http.upstream("auth").address(), "the address in force");
            assertEquals(2, http.upstream("auth").requestsSent(), "one to A before, one to B after: one name, one count");
            assertEquals(1, http.upstream("flight").requestsSent());
            assertEquals(3, http.requests());
        }
    }
}
