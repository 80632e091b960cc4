package dev.meshbench.acmeair.graph;

import dev.meshbench.component.ComponentMain;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * POSTs to one callee, round-robin over its URLs (one per replica: a client-side balancer), on a shared HTTP/1.1
 * client that keeps connections open. The response body is read and dropped. Timed as
 * {@code http.client.requests{callee, outcome}}, outcome one of {@link Outcome}.
 */
final class CalleeClient {
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** How a call ended. */
    enum Outcome {
        /** 2xx */
        SUCCESS,
        /** 3xx (not followed) */
        REDIRECTION,
        /** 4xx */
        CLIENT_ERROR,
        /** 5xx, or any other status */
        SERVER_ERROR,
        /** no answer: refused, reset, timed out */
        IO_ERROR;

        static Outcome of(int status) {
            if (status >= 200 && status < 300) {
                return SUCCESS;
            }
            if (status >= 300 && status < 400) {
                return REDIRECTION;
            }
            return status >= 400 && status < 500 ? CLIENT_ERROR : SERVER_ERROR;
        }
    }

    private final String callee;
    private final List<URI> urls;
    private final HttpClient http;
    private final MeterRegistry registry;
    private final AtomicInteger next = new AtomicInteger();
    private final Map<Outcome, Timer> timers = new ConcurrentHashMap<>();

    CalleeClient(String callee, List<URI> urls, HttpClient http, MeterRegistry registry) {
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("no URL for " + callee);
        }
        this.callee = callee;
        this.urls = List.copyOf(urls);
        this.http = http;
        this.registry = registry;
    }

    /** The requests of one call (one per URL), built once: {@link HttpRequest}s are immutable and can be sent again. */
    Prepared prepare(byte[] body) {
        HttpRequest[] requests = new HttpRequest[urls.size()];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = HttpRequest.newBuilder(urls.get(i)).timeout(REQUEST_TIMEOUT)
                    .header("Content-Type", "application/octet-stream")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        }
        return new Prepared(requests);
    }

    /** A call ready to send; {@code null} from a send means success, anything else says what failed. */
    final class Prepared {
        private final HttpRequest[] requests;

        private Prepared(HttpRequest[] requests) {
            this.requests = requests;
        }

        /** Sends and waits; returns {@code null} on a 2xx, else what failed. */
        String send() throws InterruptedException {
            HttpRequest req = pick();
            long start = System.nanoTime();
            try {
                return done(req, http.send(req, HttpResponse.BodyHandlers.discarding()).statusCode(), start);
            } catch (IOException e) {
                return failed(req, e, start);
            }
        }

        /** Sends without waiting; the future completes (never exceptionally) with what {@link #send()} returns. */
        CompletableFuture<String> sendAsync() {
            HttpRequest req = pick();
            long start = System.nanoTime();
            return http.sendAsync(req, HttpResponse.BodyHandlers.discarding()).handle((resp, error) -> resp != null
                    ? done(req, resp.statusCode(), start)
                    : failed(req, error instanceof CompletionException && error.getCause() != null ? error.getCause() : error, start));
        }

        private HttpRequest pick() {
            return requests.length == 1 ? requests[0] : requests[Math.floorMod(next.getAndIncrement(), requests.length)];
        }
    }

    private String done(HttpRequest req, int status, long start) {
        Outcome outcome = Outcome.of(status);
        record(outcome, start);
        return outcome == Outcome.SUCCESS ? null : "calling " + callee + " at " + req.uri() + " failed: HTTP " + status;
    }

    private String failed(HttpRequest req, Throwable error, long start) {
        record(Outcome.IO_ERROR, start);
        return "calling " + callee + " at " + req.uri() + " failed: " + ComponentMain.describe(error);
    }

    private void record(Outcome outcome, long start) {
        timers.computeIfAbsent(outcome, o -> Timer.builder("http.client.requests").description("calls to other services of the graph")
                .tag("callee", callee).tag("outcome", o.name()).register(registry))
                .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }
}
