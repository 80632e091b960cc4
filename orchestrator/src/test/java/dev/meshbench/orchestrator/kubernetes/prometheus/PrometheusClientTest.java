package dev.meshbench.orchestrator.kubernetes.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.testing.ClosedPort;
import dev.meshbench.orchestrator.kubernetes.prometheus.FakePrometheus.Answer;
import dev.meshbench.orchestrator.kubernetes.prometheus.FakePrometheus.Request;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Prometheus client: queries against a loopback server answering recorded responses")
class PrometheusClientTest {
    static final String CPU = "container_cpu_usage_seconds_total{namespace=~\"acmeair|istio-system\",container!=\"\"}";
    static final Instant T = Instant.ofEpochSecond(1_700_000_000L);
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    @DisplayName("reads a range query's matrix: every series with sorted labels, points oldest first, epoch ms")
    void readsMatrix() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(200, "query_range-cpu.json"))) {
            List<Series> series = client(prometheus).queryRange(CPU, T, T.plusSeconds(60), Duration.ofSeconds(10));
            assertEquals(6, series.size());
            Series sidecar = series.get(3);
            assertEquals("istio-proxy", sidecar.label("container"));
            assertEquals("booking-6c9f7d8b9-4xk2p", sidecar.label("pod"));
            assertEquals(List.of("__name__", "container", "cpu", "id", "image", "instance", "job", "name", "namespace",
                    "pod"), new ArrayList<>(sidecar.labels().keySet()));
            assertEquals(List.of(new Series.Point(1_700_000_000_000L, 40), new Series.Point(1_700_000_010_000L, 40.25),
                    new Series.Point(1_700_000_020_000L, 40.6), new Series.Point(1_700_000_030_000L, 41),
                    new Series.Point(1_700_000_040_000L, 41.5), new Series.Point(1_700_000_050_000L, 41.75),
                    new Series.Point(1_700_000_060_000L, 42)), sidecar.points());
            assertEquals("", series.get(0).label("container"), "the pod's cgroup: Prometheus leaves the empty label out");
            assertThrows(UnsupportedOperationException.class, () -> sidecar.labels().put("pod", "other"));
        }
    }

    @Test
    @DisplayName("sends query, start, end and step as decimal seconds to /api/v1/query_range")
    void sendsRangeParameters() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(200, "query_range-empty.json"))) {
            client(prometheus).queryRange(CPU, T.plusMillis(250), T.plusSeconds(60), Duration.ofMillis(2500));
            Request r = prometheus.requests().get(0);
            assertEquals("/api/v1/query_range", r.path());
            assertEquals(Map.of("query", CPU, "start", "1700000000.25", "end", "1700000060", "step", "2.5"), r.params());
        }
    }

    @Test
    @DisplayName("reads an instant query's vector at a fractional time to the millisecond, despite warnings")
    void readsVector() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(200, "query-vector.json"))) {
            List<Series> series = client(prometheus).query(CPU, Instant.ofEpochMilli(1_700_000_075_123L));
            assertEquals(Map.of("query", CPU, "time", "1700000075.123"), prometheus.requests().get(0).params());
            assertEquals("/api/v1/query", prometheus.requests().get(0).path());
            assertEquals(2, series.size());
            assertEquals(List.of(new Series.Point(1_700_000_075_123L, 42.375)), series.get(0).points());
            assertEquals(List.of(new Series.Point(1_700_000_075_123L, 16.8125)), series.get(1).points());
            assertEquals("istio-system", series.get(1).label("namespace"));
        }
    }

    @Test
    @DisplayName("reads NaN, +Inf and -Inf values")
    void readsSpecialValues() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(200, "query_range-special-values.json"))) {
            List<Series.Point> points = client(prometheus).queryRange(CPU, T, T.plusSeconds(60), Duration.ofSeconds(10))
                    .get(0).points();
            assertEquals(7, points.size());
            assertTrue(Double.isNaN(points.get(1).value()));
            assertEquals(Double.POSITIVE_INFINITY, points.get(3).value());
            assertEquals(Double.NEGATIVE_INFINITY, points.get(4).value());
            assertEquals(41.25, points.get(6).value());
        }
    }

    @Test
    @DisplayName("answers an empty result as no series")
    void emptyResult() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(200, "query_range-empty.json"))) {
            assertEquals(List.of(), client(prometheus).queryRange(CPU, T, T.plusSeconds(60), Duration.ofSeconds(10)));
        }
    }

    @Test
    @DisplayName("keeps a path prefix of the base URL (a Prometheus served under /prometheus)")
    void pathPrefix() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(200, "query-vector.json"))) {
            PrometheusClient client = new PrometheusClient(URI.create(prometheus.uri() + "/prometheus/"), TIMEOUT);
            assertEquals(URI.create(prometheus.uri() + "/prometheus"), client.baseUri());
            client.query("up", T);
            assertEquals("/prometheus/api/v1/query", prometheus.requests().get(0).path());
        }
    }

    @Test
    @DisplayName("names operation, endpoint, HTTP status, Prometheus's error and the query on a 400")
    void badData() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(400, "error-bad_data.json"))) {
            PrometheusException e = assertThrows(PrometheusException.class,
                    () -> client(prometheus).queryRange("rate(x{a=}[1m])", T, T.plusSeconds(60), Duration.ofSeconds(10)));
            assertEquals("Prometheus query_range at " + prometheus.uri() + "/api/v1/query_range answered HTTP 400: "
                    + "bad_data: invalid parameter \"query\": 1:56: parse error: unexpected \"}\" in label matching, "
                    + "expected string (query: rate(x{a=}[1m]))", e.getMessage());
        }
    }

    @ParameterizedTest(name = "HTTP {0}: {2}")
    @CsvSource({
            "503, error-timeout.json, 'timeout: query timed out in expression evaluation'",
            "422, error-execution.json, 'execution: query processing would load too many samples into memory in query execution'"})
    @DisplayName("names Prometheus's errorType and error on other error statuses")
    void errorStatuses(int status, String fixture, String error) throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(status, fixture))) {
            PrometheusException e = assertThrows(PrometheusException.class, () -> client(prometheus).query(CPU, T));
            assertEquals("Prometheus query at " + prometheus.uri() + "/api/v1/query answered HTTP " + status + ": "
                    + error + " (query: " + CPU + ")", e.getMessage());
        }
    }

    @Test
    @DisplayName("quotes the start of an error page that is not Prometheus's JSON (a proxy in between)")
    void errorPage() throws IOException {
        String html = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway"
                + "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n" + "x".repeat(500);
        try (FakePrometheus prometheus = FakePrometheus.always(new Answer(502, "text/html", html))) {
            PrometheusException e = assertThrows(PrometheusException.class, () -> client(prometheus).query(CPU, T));
            assertTrue(e.getMessage().startsWith("Prometheus query at " + prometheus.uri() + "/api/v1/query answered "
                    + "HTTP 502 with malformed JSON: \"<html> <head><title>502 Bad Gateway</title></head> <body> "
                    + "<center><h1>502 Bad Gateway</h1></center>"), e.getMessage());
            assertTrue(e.getMessage().endsWith("xxx...\""), "long bodies are cut: " + e.getMessage());
            assertTrue(e.getMessage().length() < 330, e.getMessage());
        }
    }

    @Test
    @DisplayName("reports status error even on HTTP 200")
    void errorStatusOn200() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(200, "error-bad_data.json"))) {
            PrometheusException e = assertThrows(PrometheusException.class, () -> client(prometheus).query("x{a=}", T));
            assertTrue(e.getMessage().startsWith("Prometheus query at " + prometheus.uri() + "/api/v1/query answered "
                    + "bad_data: invalid parameter"), e.getMessage());
        }
    }

    @Test
    @DisplayName("reports a cut-off answer as malformed JSON, with the parser's reason")
    void cutOff() throws IOException {
        String full = FakePrometheus.fixture("query_range-cpu.json");
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.json(200, full.substring(0, 900)))) {
            PrometheusException e = assertThrows(PrometheusException.class,
                    () -> client(prometheus).queryRange(CPU, T, T.plusSeconds(60), Duration.ofSeconds(10)));
            assertTrue(e.getMessage().startsWith("Prometheus query_range at " + prometheus.uri() + "/api/v1/query_range "
                    + "answered malformed JSON (Unexpected end-of-input"), e.getMessage());
        }
    }

    @Test
    @DisplayName("rejects a result type it did not ask for: a scalar, or a vector for a range query")
    void unexpectedResultType() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(200, "query-scalar.json"))) {
            PrometheusException e = assertThrows(PrometheusException.class, () -> client(prometheus).query("1+1", T));
            assertEquals("Prometheus query at " + prometheus.uri() + "/api/v1/query answered resultType \"scalar\", "
                    + "expected vector or matrix (query: 1+1)", e.getMessage());
            prometheus.answer(r -> Answer.fixture(200, "query-vector.json"));
            e = assertThrows(PrometheusException.class,
                    () -> client(prometheus).queryRange(CPU, T, T.plusSeconds(60), Duration.ofSeconds(10)));
            assertTrue(e.getMessage().endsWith("answered resultType \"vector\", expected matrix (query: " + CPU + ")"),
                    e.getMessage());
        }
    }

    @Test
    @DisplayName("rejects a value that is not a number and a point that is not [seconds, \"value\"]")
    void malformedPoints() {
        String where = "Prometheus query_range at http://127.0.0.1:9/api/v1/query_range";
        PrometheusException e = assertThrows(PrometheusException.class, () -> PrometheusClient.parse(where, 200,
                bytes("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},"
                        + "\"values\":[[1700000000,\"1\"],[1700000010,\"Infinity\"]]}]}}"), CPU, List.of("matrix")));
        assertEquals(where + ": result[0].values[1] has value \"Infinity\", which is not a number", e.getMessage());
        e = assertThrows(PrometheusException.class, () -> PrometheusClient.parse(where, 200,
                bytes("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},"
                        + "\"values\":[[\"1700000000\",1]]}]}}"), CPU, List.of("matrix")));
        assertEquals(where + ": result[0].values[0] is [\"1700000000\",1], expected [<seconds>, \"<value>\"]",
                e.getMessage());
    }

    @Test
    @DisplayName("names an endpoint nobody listens on: connection refused")
    void unreachable() throws IOException {
        try (ClosedPort nobody = new ClosedPort()) {
            int port = nobody.port();
            PrometheusClient client = new PrometheusClient(URI.create("http://127.0.0.1:" + port), TIMEOUT);
            PrometheusException e = assertThrows(PrometheusException.class,
                    () -> client.queryRange(CPU, T, T.plusSeconds(60), Duration.ofSeconds(10)));
            assertEquals("Prometheus query_range at http://127.0.0.1:" + port + "/api/v1/query_range: connection refused",
                    e.getMessage());
        }
    }

    @Test
    @DisplayName("gives up on a Prometheus that does not answer within the request timeout")
    void noAnswer() throws IOException {
        CountDownLatch release = new CountDownLatch(1);
        try (FakePrometheus prometheus = FakePrometheus.start(r -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Answer.fixture(200, "query_range-empty.json");
        })) {
            PrometheusClient client = new PrometheusClient(prometheus.uri(), Duration.ofMillis(300));
            PrometheusException e = assertThrows(PrometheusException.class, () -> client.query(CPU, T));
            assertEquals("Prometheus query at " + prometheus.uri() + "/api/v1/query: no answer within PT0.3S",
                    e.getMessage());
        } finally {
            release.countDown();
        }
    }

    @Test
    @DisplayName("keeps the thread's interrupt flag when interrupted")
    void interrupted() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.always(Answer.fixture(200, "query_range-empty.json"))) {
            PrometheusClient client = client(prometheus);
            Thread.currentThread().interrupt();
            PrometheusException e;
            try {
                e = assertThrows(PrometheusException.class, () -> client.query(CPU, T));
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt flag was lost");
            }
            assertEquals("Prometheus query at " + prometheus.uri() + "/api/v1/query: interrupted", e.getMessage());
        }
    }

    @Test
    @DisplayName("rejects a base URL with credentials without repeating them, and other bad settings")
    void rejectsBadSettings() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PrometheusClient(URI.create("http://admin:s3cret@prometheus:9090"), TIMEOUT));
        assertFalse(e.getMessage().contains("s3cret") || e.getMessage().contains("admin"), e.getMessage());
        assertEquals("Prometheus URL (http://***@prometheus) must not carry credentials", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new PrometheusClient(URI.create("ftp://prometheus:9090"), TIMEOUT));
        assertEquals("Prometheus URL (ftp://prometheus:9090) must be http:// or https:// with a host, e.g. "
                + "http://127.0.0.1:9090", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new PrometheusClient(URI.create("http://prometheus:9090"), Duration.ZERO));
        assertEquals("Prometheus request timeout (PT0S) must be positive", e.getMessage());
        PrometheusClient client = new PrometheusClient(URI.create("http://prometheus:9090"), TIMEOUT);
        e = assertThrows(IllegalArgumentException.class,
                () -> client.queryRange(CPU, T, T.minusSeconds(1), Duration.ofSeconds(10)));
        assertEquals("query_range end (2023-11-14T22:13:19Z) must not be before its start (2023-11-14T22:13:20Z)",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> client.query(" ", T));
        assertEquals("PromQL query must not be blank", e.getMessage());
    }

    @Test
    @DisplayName("writes times as Prometheus's decimal seconds")
    void seconds() {
        assertEquals("1700000000.123", PrometheusClient.seconds(1_700_000_000_123L));
        assertEquals("1700000000.1", PrometheusClient.seconds(1_700_000_000_100L));
        assertEquals("15", PrometheusClient.seconds(15_000));
        assertEquals("0.001", PrometheusClient.seconds(1));
    }

    static PrometheusClient client(FakePrometheus prometheus) {
        return new PrometheusClient(prometheus.uri(), TIMEOUT);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
