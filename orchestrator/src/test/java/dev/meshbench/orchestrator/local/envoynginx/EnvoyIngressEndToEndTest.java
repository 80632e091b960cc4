package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.meshbench.component.AcmeairApi;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.ListenerNames;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.model.ComponentNames;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Envoy running the plan's ingress gateway (the client API's routes, as Istio's Gateway + VirtualService for
 * Acmeair) in front of small HTTP servers standing in for the sidecars (in the first test the fourth is down). Read
 * through {@link EnvoyStatsReader}. Skipped, with the reason, when there is no Envoy.
 */
class EnvoyIngressEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    @DisplayName("routes the API, answers 404 for any other path and 503 for a service that is down, reuses upstream connections, and counts it all")
    void routesAndCounts(@TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SIDECAR, false);
        ComponentPlan ingress = plan.component(ComponentNames.INGRESS_GATEWAY);
        Map<String, Upstream> up = new LinkedHashMap<>();
        try {
            LocalAddresses addrs = EnvoyFixtures.freeAddresses(plan);
            for (String svc : List.of("auth", "customer", "flight")) {
                Upstream u = new Upstream(svc);
                up.put(svc, u);
                addrs = EnvoyFixtures.withPort(addrs, new Endpoint(ComponentNames.sidecarOf(svc), ListenerNames.INBOUND), u.port());
            }
            // booking's sidecar is down: nothing listens on its port.
            Process p = EnvoyFixtures.startEnvoy(envoy, plan, ingress, addrs, EnvoyFixtures.realMeshFiles(plan, dir), dir);
            URI admin = URI.create("http://127.0.0.1:" + addrs.adminPort(ingress.name()));
            LocalAddresses a = addrs;
            try {
                URI entry = URI.create("http://" + addrs.address(new Endpoint(ingress.name(), ListenerNames.INGRESS)));
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

                HttpResponse<String> login = client.send(HttpRequest.newBuilder(entry.resolve("/auth/login?x=1"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("login=uid0@email.com&password=password")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, login.statusCode());
                assertEquals("auth POST /auth/login?x=1 login=uid0@email.com&password=password", login.body());
                assertEquals("auth", login.headers().firstValue("x-served-by").orElse(null));
                for (int i = 0; i < 20; i++) {
                    assertEquals("customer GET /customer/byid/uid" + i + " ", get(client, entry.resolve("/customer/byid/uid" + i)).body());
                }
                assertEquals("flight POST /flight/queryflights ", client.send(HttpRequest.newBuilder(entry.resolve("/flight/queryflights"))
                        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).body());
                HttpResponse<String> unknown = get(client, entry.resolve("/authx/login"));
                assertEquals(404, unknown.statusCode(), "only the API's paths are routed");
                assertEquals(404, get(client, entry.resolve("/rewards/uid0")).statusCode());
                HttpResponse<String> down = get(client, entry.resolve("/booking/byuser/uid0"));
                assertEquals(503, down.statusCode(), down.body());

                JsonNode h = hop(ingress, a, admin);
                assertEquals("none", h.path("tls").asText());
                assertTrue(h.path("routing").asText().startsWith("path[POST /auth/login -> "), h.path("routing").asText());
                JsonNode http = h;
                assertEquals(25, http.path("requests").asLong(), http.toString());
                assertEquals(2, http.path("noRoute").asLong(), http.toString());
                assertTrue(http.path("upstreamUnavailable").asLong() >= 1, http.toString());
                assertEquals(22, http.at("/responses/2xx").asLong(), http.toString());
                assertEquals(2, http.at("/responses/4xx").asLong(), http.toString());
                assertEquals(1, http.at("/responses/5xx").asLong(), http.toString());
                assertEquals(20, http.at("/upstreamPools/sidecar-customer/requestsSent").asLong(), http.toString());
                assertEquals(1, http.at("/upstreamPools/sidecar-customer/connectionsOpened").asLong(),
                        "20 sequential requests share one kept-alive upstream connection: " + http);
                assertEquals(1, up.get("customer").connections(), "the customer stand-in served one connection");
            } finally {
                assertTrue(EnvoyFixtures.stop(p), "envoy stopped");
            }
        } finally {
            up.values().forEach(Upstream::close);
        }
    }

    @Test
    @DisplayName("serves each operation of the client API and nothing else: internal, loader and config paths, other methods and "
            + "traversal or escaping tricks answer 404 or 400 and never reach a service")
    void servesOnlyThePublicApi(@TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SIDECAR, false);
        ComponentPlan ingress = plan.component(ComponentNames.INGRESS_GATEWAY);
        Map<String, Upstream> up = new LinkedHashMap<>();
        try {
            LocalAddresses addrs = EnvoyFixtures.freeAddresses(plan);
            for (String svc : ComponentNames.SERVICES) {
                Upstream u = new Upstream(svc);
                up.put(svc, u);
                addrs = EnvoyFixtures.withPort(addrs, new Endpoint(ComponentNames.sidecarOf(svc), ListenerNames.INBOUND), u.port());
            }
            Process p = EnvoyFixtures.startEnvoy(envoy, plan, ingress, addrs, EnvoyFixtures.realMeshFiles(plan, dir), dir);
            try {
                int port = addrs.port(ingress.name(), ListenerNames.INGRESS);
                for (AcmeairApi.Operation op : AcmeairApi.PUBLIC) {
                    String path = op.path().replaceAll("\\{[a-z]+\\}", "uid0@email.com");
                    int before = up.get(op.service()).requests();
                    Raw r = raw(port, op.method() + " " + path + "?x=1");
                    assertEquals(200, r.status(), op + ": " + r.text());
                    assertTrue(r.text().endsWith(op.service() + " " + op.method() + " " + path + "?x=1 "), op + ": " + r.text());
                    assertEquals(before + 1, up.get(op.service()).requests(), op.toString());
                }
                int served = hits(up);
                assertEquals(AcmeairApi.PUBLIC.size(), served);
                for (String request : List.of("POST /customer/internal/validateid", "POST /customer/internal/updateCustomerTotalMiles/uid0@email.com",
                        "GET /customer/loader/load?numCustomers=10", "GET /flight/loader/load?numDays=1", "GET /booking/loader/load?reset=true",
                        "POST /flight/getrewardmiles", "GET /customer/config/countCustomers", "GET /flight/config/countFlights",
                        "GET /booking/config/countBookings", "GET /metrics", "GET /customer", "GET /auth/login",
                        "DELETE /customer/byid/uid0@email.com", "GET /customer/byid/uid0@email.com/rewards/x", "GET /customer/byid/",
                        "POST //customer/internal/validateid", "POST /customer//internal/validateid",
                        "POST /customer/%69nternal/validateid", "POST /customer/byid/../internal/validateid",
                        "POST /customer/byid/x/../../internal/validateid", "POST /customer/byid/%2e%2e/internal/validateid",
                        "POST /customer/byid/./../internal/validateid")) {
                    Raw r = raw(port, request);
                    assertEquals(404, r.status(), request + ": " + r.text());
                }
                for (String request : List.of("POST /customer/internal%2fvalidateid", "POST /customer/byid/a%2F..%2Finternal%2Fvalidateid",
                        "POST /customer/byid/a%5Cx")) {
                    Raw r = raw(port, request);
                    assertEquals(400, r.status(), request + ": " + r.text());
                }
                assertEquals(served, hits(up), "no private path or trick reached a service");
            } finally {
                assertTrue(EnvoyFixtures.stop(p), "envoy stopped");
            }
        } finally {
            up.values().forEach(Upstream::close);
        }
    }

    private static int hits(Map<String, Upstream> up) {
        return up.values().stream().mapToInt(Upstream::requests).sum();
    }

    private record Raw(int status, String text) {
    }

    /** Sends {@code METHOD TARGET} as written (no client normalizes it) with Connection: close; the status and the whole answer. */
    private static Raw raw(int port, String methodAndTarget) throws IOException {
        try (java.net.Socket s = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write((methodAndTarget + " HTTP/1.1\r\nHost: acmeair\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            String text = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Raw(Integer.parseInt(text.split(" ", 3)[1]), text);
        }
    }

    private static HttpResponse<String> get(HttpClient client, URI uri) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode hop(ComponentPlan c, LocalAddresses addrs, URI admin) throws IOException {
        String stats = EnvoyFixtures.httpGet(admin.resolve("/stats")).orElseThrow(() -> new AssertionError("no /stats from " + admin));
        return JSON.readTree(EnvoyStatsReader.hopJson(c, addrs, stats)).at("/listeners/" + ListenerNames.INGRESS);
    }

    /** An HTTP server on loopback that answers {@code <name> <method> <uri> <body>} and counts the connections it served. */
    private static final class Upstream implements AutoCloseable {
        private final java.util.Set<Integer> clientPorts = java.util.concurrent.ConcurrentHashMap.newKeySet();
        private final java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();
        private final HttpServer server;

        Upstream(String name) throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", ex -> {
                clientPorts.add(ex.getRemoteAddress().getPort());
                requests.incrementAndGet();
                String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                byte[] out = (name + " " + ex.getRequestMethod() + " " + ex.getRequestURI() + " " + body).getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("x-served-by", name);
                ex.sendResponseHeaders(200, out.length);
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(out);
                }
            });
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        /** Requests served so far. */
        int requests() {
            return requests.get();
        }

        /** Distinct client connections served so far (by the client's port). */
        int connections() {
            return clientPorts.size();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
