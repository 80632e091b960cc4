package dev.meshbench.orchestrator.kubernetes.prometheus;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads time series from Prometheus's HTTP API ({@code GET /api/v1/query} and {@code /api/v1/query_range}), for
 * example the cAdvisor CPU counters of a cluster's pods. Plain {@link HttpClient} and Jackson; no authentication
 * (reach an in-cluster Prometheus through {@code kubectl port-forward} or its service address).
 *
 * <p>Every failure is a {@link PrometheusException} naming the operation, the endpoint and the cause: the endpoint
 * not reachable, an HTTP status other than 2xx (with Prometheus's {@code errorType: error} when the body has them),
 * {@code "status":"error"}, JSON this client cannot read or a result type other than the one asked for. Warnings
 * Prometheus attaches to a successful answer go to the log. Safe for use by several threads.
 */
public final class PrometheusClient {
    private static final Logger LOG = LoggerFactory.getLogger(PrometheusClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How much of a body that is not Prometheus's JSON an error message quotes. */
    private static final int BODY_QUOTE_CHARS = 200;
    /** A sample value as Prometheus writes it (Go's strconv), besides NaN and the infinities. */
    private static final Pattern NUMBER = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

    private final URI baseUri;
    private final Duration requestTimeout;
    private final HttpClient http;

    /**
     * @param baseUri        where Prometheus answers, e.g. {@code http://prometheus.istio-system:9090} or a
     *                       port-forward's {@code http://127.0.0.1:41234}; a path prefix (a Prometheus served under
     *                       {@code /prometheus}) is kept. http or https, no credentials, query or fragment
     * @param requestTimeout how long one request may take, connecting included
     */
    public PrometheusClient(URI baseUri, Duration requestTimeout) {
        this.baseUri = checkedBase(baseUri);
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("Prometheus request timeout (" + requestTimeout + ") must be positive");
        }
        this.requestTimeout = requestTimeout;
        this.http = HttpClient.newBuilder().connectTimeout(requestTimeout).followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** Where Prometheus answers, without a trailing slash. */
    public URI baseUri() {
        return baseUri;
    }

    /**
     * Evaluates {@code promql} at one instant ({@code /api/v1/query}). An instant vector gives one point per series
     * (at {@code at}); a range vector selector ({@code metric[1m]}) gives a matrix of the raw samples with their own
     * timestamps. Other result types (scalar, string) are a {@link PrometheusException}.
     */
    public List<Series> query(String promql, Instant at) {
        requireQuery(promql);
        Objects.requireNonNull(at, "at");
        Map<String, String> params = new LinkedHashMap<>();
        params.put("query", promql);
        params.put("time", seconds(at.toEpochMilli()));
        return get("query", params, promql, List.of("vector", "matrix"));
    }

    /**
     * Evaluates {@code promql} at {@code start}, {@code start + step}, ... up to {@code end}
     * ({@code /api/v1/query_range}): a matrix, each series with a point per step at which it had a value.
     *
     * @param step at least a millisecond; Prometheus refuses more than 11,000 points per series
     */
    public List<Series> queryRange(String promql, Instant start, Instant end, Duration step) {
        requireQuery(promql);
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        Objects.requireNonNull(step, "step");
        if (end.isBefore(start)) {
            throw new IllegalArgumentException("query_range end (" + end + ") must not be before its start (" + start
                    + ")");
        }
        if (step.toMillis() < 1) {
            throw new IllegalArgumentException("query_range step (" + step + ") must be at least 1 ms");
        }
        Map<String, String> params = new LinkedHashMap<>();
        params.put("query", promql);
        params.put("start", seconds(start.toEpochMilli()));
        params.put("end", seconds(end.toEpochMilli()));
        params.put("step", seconds(step.toMillis()));
        return get("query_range", params, promql, List.of("matrix"));
    }

    @Override
    public String toString() {
        return "Prometheus at " + baseUri;
    }

    private List<Series> get(String operation, Map<String, String> params, String promql, List<String> resultTypes) {
        URI endpoint = URI.create(baseUri + "/api/v1/" + operation);
        StringBuilder query = new StringBuilder();
        params.forEach((k, v) -> query.append(query.length() == 0 ? "?" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint + query.toString()))
                .timeout(requestTimeout).header("Accept", "application/json").GET().build();
        String where = "Prometheus " + operation + " at " + endpoint;
        LOG.debug("GET {} {}", endpoint, params);
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrometheusException(where + ": interrupted", e);
        } catch (IOException e) {
            throw new PrometheusException(where + ": " + describe(e), e);
        }
        return parse(where, response.statusCode(), response.body(), promql, resultTypes);
    }

    /** The series of one answer; {@code where} starts every message. Package-private for the tests of parsing. */
    static List<Series> parse(String where, int httpStatus, byte[] body, String promql, List<String> resultTypes) {
        boolean ok = httpStatus >= 200 && httpStatus < 300;
        String answered = where + " answered " + (ok ? "" : "HTTP " + httpStatus + " with ");
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            // From a 2xx the parser's reason helps (a cut-off answer); from an error page the body says more.
            throw new PrometheusException(answered + "malformed JSON" + (ok ? " (" + e.getOriginalMessage() + ")" : "")
                    + ": " + quote(body), e);
        } catch (IOException e) {
            throw new PrometheusException(where + ": reading the answer failed: " + e.getMessage(), e);
        }
        if (!root.isObject()) {
            throw new PrometheusException(answered + (body.length == 0 ? "an empty body"
                    : "JSON that is not an object: " + quote(body)));
        }
        String status = root.path("status").asText("");
        if (!ok || !"success".equals(status)) {
            String error = root.path("errorType").asText("") + ": " + root.path("error").asText("");
            if (error.equals(": ")) {
                error = "no error in the answer (status \"" + status + "\")";
            }
            throw new PrometheusException(where + " answered " + (ok ? "" : "HTTP " + httpStatus + ": ") + error
                    + " (query: " + promql + ")");
        }
        for (JsonNode w : root.path("warnings")) {
            LOG.warn("{} warns: {} (query: {})", where, w.asText(), promql);
        }
        JsonNode data = root.path("data");
        String resultType = data.path("resultType").asText("");
        if (!resultTypes.contains(resultType)) {
            throw new PrometheusException(where + " answered resultType \"" + resultType + "\", expected "
                    + String.join(" or ", resultTypes) + " (query: " + promql + ")");
        }
        JsonNode result = data.path("result");
        if (!result.isArray()) {
            throw new PrometheusException(where + " answered a " + resultType + " without a result array");
        }
        List<Series> series = new ArrayList<>(result.size());
        int index = 0;
        for (JsonNode s : result) {
            series.add(series(where, resultType, s, index++));
        }
        return series;
    }

    private static Series series(String where, String resultType, JsonNode s, int index) {
        String what = where + ": result[" + index + "]";
        JsonNode metric = s.path("metric");
        if (!metric.isObject()) {
            throw new PrometheusException(what + " has no metric object");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> label : metric.properties()) {
            if (!label.getValue().isTextual()) {
                throw new PrometheusException(what + ": label " + label.getKey() + " is not a string");
            }
            labels.put(label.getKey(), label.getValue().asText());
        }
        List<Series.Point> points = new ArrayList<>();
        if (resultType.equals("vector")) {
            points.add(point(what + ".value", s.path("value")));
        } else {
            // A native histogram series carries "histograms" instead of "values": not a counter, no points here.
            JsonNode values = s.path("values");
            if (!values.isArray() && !s.has("histograms")) {
                throw new PrometheusException(what + " has no values array");
            }
            for (int i = 0; i < values.size(); i++) {
                points.add(point(what + ".values[" + i + "]", values.get(i)));
            }
        }
        return new Series(labels, points);
    }

    /** {@code [1700000000.123, "12.5"]}: float seconds and the value as a string. */
    private static Series.Point point(String what, JsonNode pair) {
        if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isNumber() || !pair.get(1).isTextual()) {
            throw new PrometheusException(what + " is " + pair + ", expected [<seconds>, \"<value>\"]");
        }
        long epochMs = pair.get(0).decimalValue().movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValue();
        String text = pair.get(1).asText();
        double value = switch (text) {
            case "NaN" -> Double.NaN;
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                // Double.parseDouble would also take "Infinity", "0x1p3" or "1d"; Prometheus writes none of them.
                if (!NUMBER.matcher(text).matches()) {
                    throw new PrometheusException(what + " has value \"" + text + "\", which is not a number");
                }
                yield Double.parseDouble(text);
            }
        };
        return new Series.Point(epochMs, value);
    }

    /** What went wrong on the way, in a few words: "connection refused", "timed out after PT5S", ... */
    private String describe(IOException e) {
        if (e instanceof HttpConnectTimeoutException) {
            return "connect timed out after " + requestTimeout;
        }
        if (e instanceof HttpTimeoutException) {
            return "no answer within " + requestTimeout;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof java.net.UnknownHostException) {
                return "unknown host " + baseUri.getHost();
            }
        }
        boolean connect = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                // HttpClient's own ConnectException has no message; the socket's, under it, says which failure.
                connect = true;
                if (t.getMessage() != null && !t.getMessage().isBlank()) {
                    return t.getMessage().toLowerCase(Locale.ROOT);
                }
            }
        }
        if (connect) {
            return "connection refused";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return e.getClass().getSimpleName();
    }

    private static String quote(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).replaceAll("\\s+", " ").strip();
        return "\"" + (text.length() > BODY_QUOTE_CHARS ? text.substring(0, BODY_QUOTE_CHARS) + "..." : text) + "\"";
    }

    /** Epoch milliseconds as Prometheus's decimal seconds: {@code 1700000000.123}, {@code 15}. */
    static String seconds(long millis) {
        return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
    }

    private static void requireQuery(String promql) {
        Objects.requireNonNull(promql, "promql");
        if (promql.isBlank()) {
            throw new IllegalArgumentException("PromQL query must not be blank");
        }
    }

    private static URI checkedBase(URI uri) {
        Objects.requireNonNull(uri, "baseUri");
        if (uri.getRawUserInfo() != null) {
            // Never repeat the credentials, not even in this message.
            throw new IllegalArgumentException("Prometheus URL (" + uri.getScheme() + "://***@" + uri.getHost()
                    + ") must not carry credentials");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new IllegalArgumentException("Prometheus URL (" + uri + ") must be http:// or https:// with a host, "
                    + "e.g. http://127.0.0.1:9090");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("Prometheus URL (" + uri + ") must have no query or fragment");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority() + path);
    }
}
