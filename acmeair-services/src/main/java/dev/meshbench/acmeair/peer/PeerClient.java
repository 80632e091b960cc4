package dev.meshbench.acmeair.peer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.http.ApiException;
import dev.meshbench.acmeair.http.Json;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Form-encoded POSTs to another Acmeair service, answered in JSON. A 404 from the peer stays a 404 (an unknown id is
 * the caller's problem); any other failure becomes a 502 naming the peer, URL and cause. Timed as
 * {@code http.client.requests{peer, uri, status}}.
 */
public final class PeerClient {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final String peer;
    private final URI base;
    private final HttpClient http;
    private final MeterRegistry registry;

    public PeerClient(String peer, URI base, HttpClient http, MeterRegistry registry) {
        this.peer = peer;
        this.base = base;
        this.http = http;
        this.registry = registry;
    }

    /** An HTTP/1.1 client with bounded connect time, as the services use between themselves. */
    public static HttpClient newHttpClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(3)).build();
    }

    /**
     * @param path  path with ids filled in (encoded)
     * @param route path template for the metric tag
     */
    public JsonNode postForm(String path, String route, Map<String, String> form) {
        URI uri = URI.create(base + path);
        String body = form.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
        HttpRequest req = HttpRequest.newBuilder(uri)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        long start = System.nanoTime();
        String status = "IO_ERROR";
        try {
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            status = Integer.toString(resp.statusCode());
            if (resp.statusCode() == 404) {
                throw ApiException.notFound(messageOf(resp.body()));
            }
            if (resp.statusCode() != 200) {
                throw ApiException.badGateway("calling " + peer + " at " + uri + " failed: HTTP " + resp.statusCode() + " "
                        + messageOf(resp.body()), null);
            }
            return Json.MAPPER.readTree(resp.body());
        } catch (IOException e) {
            throw ApiException.badGateway("calling " + peer + " at " + uri + " failed: " + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.badGateway("calling " + peer + " at " + uri + " was interrupted", e);
        } finally {
            Timer.builder("http.client.requests").description("calls to other Acmeair services")
                    .tag("peer", peer).tag("uri", route).tag("status", status)
                    .register(registry).record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    private static String messageOf(String body) {
        try {
            JsonNode n = Json.MAPPER.readTree(body);
            if (n != null && n.hasNonNull("message")) {
                return n.get("message").asText();
            }
        } catch (IOException e) {
            // not JSON: use the text
        }
        return body.length() > 300 ? body.substring(0, 300) : body;
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        if (m == null || m.isBlank()) {
            m = t.getClass().getSimpleName();
            if (t.getCause() != null && t.getCause().getMessage() != null) {
                m += ": " + t.getCause().getMessage();
            }
        }
        return m;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Encodes one path segment (user ids hold '@'). */
    public static String segment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
