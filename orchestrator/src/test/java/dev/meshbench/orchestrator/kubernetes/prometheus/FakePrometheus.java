package dev.meshbench.orchestrator.kubernetes.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A real HTTP server on 127.0.0.1 (port 0) answering like Prometheus's API from recorded responses under
 * {@code src/test/resources/prometheus/}. It logs every request it gets.
 */
final class FakePrometheus implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** One answer: HTTP status, content type and body. */
    record Answer(int status, String contentType, String body) {
        static Answer json(int status, String body) {
            return new Answer(status, "application/json", body);
        }

        static Answer fixture(int status, String name) {
            return json(status, FakePrometheus.fixture(name));
        }
    }

    /** One request: its path and decoded query parameters. */
    record Request(String path, Map<String, String> params) {
        BigDecimal decimal(String name) {
            return new BigDecimal(params.get(name));
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    private volatile Function<Request, Answer> answers;

    private FakePrometheus(Function<Request, Answer> answers) throws IOException {
        this.answers = answers;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** Serves {@code answers} for every request. */
    static FakePrometheus start(Function<Request, Answer> answers) throws IOException {
        return new FakePrometheus(answers);
    }

    /** Serves the same answer to every request. */
    static FakePrometheus always(Answer answer) throws IOException {
        return start(r -> answer);
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    void answer(Function<Request, Answer> next) {
        this.answers = next;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> params = new LinkedHashMap<>();
            String raw = exchange.getRequestURI().getRawQuery();
            if (raw != null) {
                for (String pair : raw.split("&")) {
                    int eq = pair.indexOf('=');
                    params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
            Request request = new Request(exchange.getRequestURI().getPath(), params);
            requests.add(request);
            Answer a = answers.apply(request);
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", a.contentType());
            exchange.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** The text of {@code src/test/resources/prometheus/<name>}. */
    static String fixture(String name) {
        try (InputStream in = FakePrometheus.class.getResourceAsStream("/prometheus/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture prometheus/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Answers a {@code query_range} as Prometheus would from a recorded matrix covering more time: each series'
     * points within the request's {@code [start, end]} and on its grid ({@code start + k * step}), series left out
     * where none is; only series whose labels pass {@code visible}.
     */
    static Answer slice(String fixture, Request request, Predicate<JsonNode> visible) {
        BigDecimal start = request.decimal("start");
        BigDecimal end = request.decimal("end");
        BigDecimal step = request.decimal("step");
        try {
            JsonNode recorded = JSON.readTree(fixture(fixture));
            ObjectNode answer = JSON.createObjectNode();
            answer.put("status", "success");
            ObjectNode data = answer.putObject("data");
            data.put("resultType", "matrix");
            ArrayNode result = data.putArray("result");
            for (JsonNode series : recorded.path("data").path("result")) {
                if (!visible.test(series.path("metric"))) {
                    continue;
                }
                ArrayNode values = JSON.createArrayNode();
                for (JsonNode point : series.path("values")) {
                    BigDecimal t = point.get(0).decimalValue();
                    // Prometheus evaluates at start, start + step, ...: a recorded point off that grid is not there.
                    boolean onGrid = t.subtract(start).remainder(step).signum() == 0;
                    if (t.compareTo(start) >= 0 && t.compareTo(end) <= 0 && onGrid) {
                        values.add(point);
                    }
                }
                if (!values.isEmpty()) {
                    ObjectNode s = result.addObject();
                    s.set("metric", series.path("metric"));
                    s.set("values", values);
                }
            }
            return Answer.json(200, JSON.writeValueAsString(answer));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
