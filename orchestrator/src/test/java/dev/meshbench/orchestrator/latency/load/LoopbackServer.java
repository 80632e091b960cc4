package dev.meshbench.orchestrator.latency.load;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A JDK HttpServer on 127.0.0.1, port 0, answering every request as its {@link Behaviour} says, and counting them.
 * It needs {@code sun.net.httpserver.nodelay=true} (set for the tests in the pom): without it each answer waits some
 * 40 ms for the client's delayed ACK (Nagle).
 */
public final class LoopbackServer implements AutoCloseable {
    /** What to answer to the {@code n}th request (from 1). */
    @FunctionalInterface
    public interface Behaviour {
        /** @return the status; the body is {@code ok} */
        int answer(long n) throws InterruptedException;
    }

    private static final byte[] BODY = "ok".getBytes(StandardCharsets.US_ASCII);

    private final HttpServer server;
    private final ExecutorService executor;
    private final AtomicLong served = new AtomicLong();

    private LoopbackServer(Behaviour behaviour, int threads) throws IOException {
        if (!Boolean.getBoolean("sun.net.httpserver.nodelay")) {
            throw new IllegalStateException("run with -Dsun.net.httpserver.nodelay=true (the pom sets it for the tests)");
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        executor = Executors.newFixedThreadPool(threads);
        server.setExecutor(executor);
        server.createContext("/", exchange -> answer(exchange, behaviour));
        server.start();
    }

    public static LoopbackServer start(Behaviour behaviour) throws IOException {
        return new LoopbackServer(behaviour, 8);
    }

    /** Answers 200 {@code ok} at once. */
    public static LoopbackServer fast() throws IOException {
        return start(n -> 200);
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hello?x=1");
    }

    /** Requests answered (or at least handled) so far. */
    public long served() {
        return served.get();
    }

    private void answer(HttpExchange exchange, Behaviour behaviour) throws IOException {
        try (exchange) {
            try (InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
            }
            int status;
            try {
                status = behaviour.answer(served.incrementAndGet());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status = 503;
            }
            exchange.sendResponseHeaders(status, BODY.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(BODY);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
