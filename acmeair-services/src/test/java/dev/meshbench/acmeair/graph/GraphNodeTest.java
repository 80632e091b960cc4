package dev.meshbench.acmeair.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.meshbench.acmeair.cli.GraphNodeCommand;
import dev.meshbench.component.testing.ClosedPort;
import dev.meshbench.graph.ServiceGraphReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("graph node")
class GraphNodeTest {
    static final Path DOUBLE = Path.of("..", "istio-config", "latency", "graphs", "double.yaml");
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    final List<AutoCloseable> started = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : started) {
            c.close();
        }
    }

    /** Starts a node in this JVM from command-line arguments, as {@code graph-node} does. */
    GraphNodeService start(String... args) throws Exception {
        GraphNodeOptions o = GraphNodeCommand.options(List.of(args), Map.of());
        GraphNodeService s = GraphNodeService.start(GraphNodeConfig.of(o, ServiceGraphReader.read(o.graph())));
        started.add(s);
        return s;
    }

    GraphNodeService backend() throws Exception {
        return start("--graph", DOUBLE.toString(), "--service", "go-sample-dependency", "--port", "0");
    }

    GraphNodeService frontend(String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--graph", DOUBLE.toString(), "--service", "go-sample", "--port", "0"));
        args.addAll(Arrays.asList(more));
        return start(args.toArray(new String[0]));
    }

    static HttpResponse<byte[]> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build());
    }

    static HttpResponse<byte[]> post(String url, int bytes) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[bytes])).build());
    }

    static HttpResponse<byte[]> send(HttpRequest r) {
        try {
            return CLIENT.send(r, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(r.method() + " " + r.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    /** The sum of a Prometheus sample's values over the series whose line holds every label. */
    static double sample(GraphNodeService s, String name, String... labels) {
        HttpResponse<byte[]> r = get(s.baseUrl() + "/metrics");
        assertEquals(200, r.statusCode());
        return text(r).lines().filter(l -> l.startsWith(name + "{") && Arrays.stream(labels).allMatch(l::contains))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /**
     * {@link #sample}, once it equals {@code expected} (at most 10 s): a node records its server timer after it has
     * written the answer, so the caller may already have the answer, and may ask for the metrics, before it is counted.
     */
    static void assertSample(double expected, GraphNodeService s, String name, String... labels) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        double seen = sample(s, name, labels);
        while (seen != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
            seen = sample(s, name, labels);
        }
        assertEquals(expected, seen, name + " " + Arrays.toString(labels));
    }

    /** A port nothing listens on, held until the test ends. */
    int closedPort() {
        ClosedPort port = new ClosedPort();
        started.add(port);
        return port.port();
    }

    @Test
    @DisplayName("the frontend calls the backend once per GET or POST, on any path, and answers exactly responseSize bytes")
    void frontendCallsBackend() throws Exception {
        GraphNodeService back = backend();
        GraphNodeService front = frontend("--call", "go-sample-dependency=" + back.baseUrl());
        for (int i = 0; i < 3; i++) {
            HttpResponse<byte[]> r = get(front.baseUrl() + "/");
            assertEquals(200, r.statusCode(), text(r));
            assertEquals(1, r.body().length);
            assertEquals("1", r.headers().firstValue("Content-Length").orElseThrow());
        }
        HttpResponse<byte[]> p = post(front.baseUrl() + "/any/path", 2000);
        assertEquals(200, p.statusCode(), text(p));
        assertEquals(1, p.body().length);

        assertEquals(200, get(front.baseUrl() + "/health/ready").statusCode());
        assertSample(4.0, back, "http_server_requests_seconds_count", "status=\"200\"", "service=\"go-sample-dependency\"");
        assertSample(4.0, front, "http_server_requests_seconds_count", "status=\"200\"", "service=\"go-sample\"");
        assertEquals(4.0, sample(front, "http_client_requests_seconds_count", "callee=\"go-sample-dependency\"", "outcome=\"SUCCESS\""));
    }

    @Test
    @DisplayName("readiness and metrics answer without running the script")
    void adminEndpoints() throws Exception {
        GraphNodeService back = backend();
        GraphNodeService front = frontend("--call", "go-sample-dependency=" + back.baseUrl());
        HttpResponse<byte[]> ready = get(front.baseUrl() + "/health/ready");
        assertEquals(200, ready.statusCode());
        assertEquals("{\"status\":\"UP\",\"service\":\"go-sample\"}", text(ready));
        assertTrue(text(get(front.baseUrl() + "/metrics")).contains("jvm_memory_used_bytes"));
        assertEquals(0.0, sample(back, "http_server_requests_seconds_count"));
    }

    @Test
    @DisplayName("with several URLs for a callee, calls go round-robin over them")
    void roundRobin() throws Exception {
        GraphNodeService b1 = backend();
        GraphNodeService b2 = backend();
        GraphNodeService front = frontend("--call", "go-sample-dependency=" + b1.baseUrl() + "," + b2.baseUrl() + "/");
        for (int i = 0; i < 6; i++) {
            assertEquals(200, get(front.baseUrl()).statusCode());
        }
        assertSample(3.0, b1, "http_server_requests_seconds_count", "status=\"200\"");
        assertSample(3.0, b2, "http_server_requests_seconds_count", "status=\"200\"");
    }

    @Test
    @DisplayName("a call sends its size, the answer has responseSize bytes, and a concurrent group's steps overlap")
    void sizesAndConcurrency() throws Exception {
        List<Integer> received = new CopyOnWriteArrayList<>();
        // The group's two calls are answered only once both have arrived: sent one after the other, the first would
        // wait in vain and fail the request. That, not a time limit, shows the calls overlap.
        CountDownLatch groupCalls = new CountDownLatch(2);
        HttpServer fake = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ExecutorService handlers = Executors.newFixedThreadPool(4);
        fake.setExecutor(handlers);
        fake.createContext("/", ex -> {
            int size = ex.getRequestBody().readAllBytes().length;
            received.add(size);
            boolean together = true;
            if (size > 5) { // the group's calls; the script's first call has the default 5 B
                groupCalls.countDown();
                try {
                    together = groupCalls.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    together = false;
                }
            }
            ex.sendResponseHeaders(together ? 200 : 500, -1);
            ex.close();
        });
        fake.start();
        started.add(() -> {
            fake.stop(0);
            handlers.shutdownNow();
        });
        Path graph = Files.writeString(dir.resolve("g.yaml"), """
                apiVersion: v1alpha1
                kind: MockServiceGraph
                defaults:
                  requestSize: 5 B
                services:
                  - name: front
                    isEntrypoint: true
                    responseSize: 10 KB
                    script:
                      - call: back
                      - - call: {service: back, size: 3 KB}
                        - call: {service: back, size: 4 KB}
                        - sleep: 1s
                        - sleep: 1s
                        - sleep: 1s
                        - sleep: 1s
                  - name: back
                """);
        GraphNodeService front = start("--graph", graph.toString(), "--service", "front", "--port", "0",
                "--call", "back=http://127.0.0.1:" + fake.getAddress().getPort());
        long t0 = System.nanoTime();
        HttpResponse<byte[]> r = get(front.baseUrl());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(200, r.statusCode(), text(r));
        assertEquals(10 * 1024, r.body().length);
        assertEquals(3, received.size(), received.toString());
        assertEquals(5, received.get(0), received.toString());
        assertEquals(Set.of(3 * 1024, 4 * 1024), Set.copyOf(received.subList(1, 3)), "the group's calls, in either order");
        assertTrue(ms >= 1000, "the group's sleeps took " + ms + " ms");
        // One after the other the four sleeps take 4 s; together 1 s, the rest of the 4 s left to a busy machine.
        assertTrue(ms < 4000, "four 1 s sleeps in one group should overlap, took " + ms + " ms");
    }

    @Test
    @DisplayName("--pause-every 3 --pause-ms 5000 makes exactly every third request wait")
    void pauseEveryN() throws Exception {
        long pauseMs = 5000;
        GraphNodeService back = backend();
        GraphNodeService front = frontend("--call", "go-sample-dependency=" + back.baseUrl(), "--pause-every", "3",
                "--pause-ms", Long.toString(pauseMs));
        // A request that waits takes at least the pause; one that does not is answered well within it (5 s for an
        // answer of milliseconds: only a stalled machine comes near). The waiting ones wait side by side. The node counts
        // requests in arrival order, so the next is sent only once this one has made its call to the backend (counted).
        Map<Integer, CompletableFuture<HttpResponse<byte[]>>> waiting = new LinkedHashMap<>();
        Map<Integer, Long> sentAt = new LinkedHashMap<>();
        for (int i = 1; i <= 9; i++) {
            long t0 = System.nanoTime();
            CompletableFuture<HttpResponse<byte[]>> r = CLIENT.sendAsync(HttpRequest.newBuilder(URI.create(front.baseUrl()))
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            assertSample(i, front, "http_client_requests_seconds_count", "callee=\"go-sample-dependency\"");
            if (i % 3 == 0) {
                waiting.put(i, r);
                sentAt.put(i, t0);
                continue;
            }
            HttpResponse<byte[]> answer = r.get(30, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(200, answer.statusCode(), text(answer));
            assertTrue(ms < pauseMs, "request " + i + " should not wait: answered after " + ms + " ms");
        }
        for (Map.Entry<Integer, CompletableFuture<HttpResponse<byte[]>>> w : waiting.entrySet()) {
            HttpResponse<byte[]> answer = w.getValue().get(30, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - sentAt.get(w.getKey())) / 1_000_000;
            assertEquals(200, answer.statusCode(), text(answer));
            assertTrue(ms >= pauseMs, "request " + w.getKey() + " should wait " + pauseMs + " ms: answered after " + ms + " ms");
        }
    }

    @Test
    @DisplayName("502 naming the callee when it is down, with an IO_ERROR call timer")
    void backendDown() throws Exception {
        int closed = closedPort();
        GraphNodeService front = frontend("--call", "go-sample-dependency=http://127.0.0.1:" + closed);
        HttpResponse<byte[]> r = get(front.baseUrl());
        assertEquals(502, r.statusCode());
        assertTrue(text(r).startsWith("calling go-sample-dependency at http://127.0.0.1:" + closed + "/ failed: "), text(r));
        assertEquals(1.0, sample(front, "http_client_requests_seconds_count", "callee=\"go-sample-dependency\"", "outcome=\"IO_ERROR\""));
        assertSample(1.0, front, "http_server_requests_seconds_count", "status=\"502\"");
    }

    @Test
    @DisplayName("502 when the callee answers 500 (errorRate 100%), which answers 500 without running its script")
    void backendFails() throws Exception {
        Path graph = Files.writeString(dir.resolve("g.yaml"), """
                apiVersion: v1alpha1
                kind: MockServiceGraph
                services:
                  - name: front
                    isEntrypoint: true
                    script: [call: back]
                  - name: back
                    errorRate: 100%
                    script: [call: never]
                  - name: never
                """);
        int closed = closedPort();
        GraphNodeService back = start("--graph", graph.toString(), "--service", "back", "--port", "0",
                "--call", "never=http://127.0.0.1:" + closed);
        GraphNodeService front = start("--graph", graph.toString(), "--service", "front", "--port", "0", "--call", "back=" + back.baseUrl());
        HttpResponse<byte[]> r = get(front.baseUrl());
        assertEquals(502, r.statusCode());
        assertEquals("calling back at " + back.baseUrl() + "/ failed: HTTP 500\n", text(r));
        assertEquals(1.0, sample(front, "http_client_requests_seconds_count", "callee=\"back\"", "outcome=\"SERVER_ERROR\""));
        assertSample(1.0, back, "http_server_requests_seconds_count", "status=\"500\"");
        assertEquals(0.0, sample(back, "http_client_requests_seconds_count"));
    }

    @Test
    @DisplayName("refuses a --service that is not in the graph, naming the graph's services")
    void unknownService() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> start("--graph", DOUBLE.toString(), "--service", "go-simple", "--port", "0"));
        assertEquals("--service 'go-simple' is not a service of " + DOUBLE + " (services: go-sample, go-sample-dependency)", e.getMessage());
    }

    @Test
    @DisplayName("refuses --call for a service this one does not call")
    void callNotACallee() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> start("--graph", DOUBLE.toString(),
                "--service", "go-sample-dependency", "--port", "0", "--call", "go-sample=http://127.0.0.1:1"));
        assertEquals("--call go-sample: go-sample-dependency does not call go-sample in " + DOUBLE + " (it calls: nothing)", e.getMessage());
    }

    @Test
    @DisplayName("a callee without --call is reached at http://<callee>:8080/")
    void defaultCalleeUrl() throws Exception {
        GraphNodeOptions o = GraphNodeCommand.options(List.of("--graph", DOUBLE.toString(), "--service", "go-sample", "--port", "0"), Map.of());
        GraphNodeConfig c = GraphNodeConfig.of(o, ServiceGraphReader.read(DOUBLE));
        assertEquals(Map.of("go-sample-dependency", List.of(URI.create("http://go-sample-dependency:8080/"))), c.callees());
    }
}
