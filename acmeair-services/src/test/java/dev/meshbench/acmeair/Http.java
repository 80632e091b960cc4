package dev.meshbench.acmeair;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A real HTTP client for tests: GET and form POST, with an optional jwt_token cookie. */
final class Http {
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {
    }

    static HttpResponse<String> get(String url) {
        return get(url, null);
    }

    static HttpResponse<String> get(String url, String jwt) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET();
        if (jwt != null) {
            b.header("Cookie", "jwt_token=" + jwt);
        }
        return send(b.build());
    }

    /** POSTs {@code keyValues} (alternating key, value) form-encoded. */
    static HttpResponse<String> post(String url, String jwt, String... keyValues) {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            pairs.add(enc(keyValues[i]) + "=" + enc(keyValues[i + 1]));
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(String.join("&", pairs)));
        if (jwt != null) {
            b.header("Cookie", "jwt_token=" + jwt);
        }
        return send(b.build());
    }

    static HttpResponse<String> send(HttpRequest r) {
        try {
            return CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(r.method() + " " + r.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** The jwt_token value from a login response's Set-Cookie header, or null. */
    static String jwtCookie(HttpResponse<String> login) {
        for (String c : login.headers().allValues("Set-Cookie")) {
            if (c.startsWith("jwt_token=")) {
                int end = c.indexOf(';');
                return c.substring("jwt_token=".length(), end < 0 ? c.length() : end);
            }
        }
        return null;
    }
}
