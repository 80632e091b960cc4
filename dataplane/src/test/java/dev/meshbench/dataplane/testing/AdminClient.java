package dev.meshbench.dataplane.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** HTTP calls to a component's admin endpoint. */
public final class AdminClient {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;

    public AdminClient(InetSocketAddress admin) {
        this.base = "http://127.0.0.1:" + admin.getPort();
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@code PUT path} with {@code body} as text. */
    public HttpResponse<String> put(String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code PUT /config?version=<version>} with {@code args}, one per line, as the orchestrator sends them. */
    public HttpResponse<String> putConfig(String version, List<String> args) throws IOException, InterruptedException {
        return put("/config?version=" + version, String.join("\n", args) + "\n");
    }
}
