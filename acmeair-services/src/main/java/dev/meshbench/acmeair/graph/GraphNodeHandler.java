package dev.meshbench.acmeair.graph;

import dev.meshbench.graph.GraphService;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Serves one request of a graph node: reads and drops the request body; answers 500 at the service's error rate
 * (without running the script); else runs the script and answers 200 with exactly {@code responseSize} bytes, or 502
 * naming the callee that failed. Every {@code pauseEvery}-th request (counted across all connections, in arrival
 * order) waits {@code pauseMs} before it answers. Timed as {@code http.server.requests{status}}.
 */
final class GraphNodeHandler implements Handler {
    static final String CONTENT_TYPE = "application/octet-stream";

    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[8192]);

    private final ScriptRunner script;
    private final byte[] response;
    private final double errorRate;
    private final byte[] injectedError;
    private final int pauseEvery;
    private final long pauseMs;
    private final AtomicLong requests = new AtomicLong();
    private final Timer ok;
    private final Timer failed;
    private final Timer badGateway;

    GraphNodeHandler(GraphNodeConfig config, ScriptRunner script, MeterRegistry registry) {
        GraphService s = config.service();
        this.script = script;
        this.response = Payload.of(Math.toIntExact(s.responseSize()));
        this.errorRate = s.errorRate();
        this.injectedError = ("injected error: " + s.name() + " fails " + (s.errorRate() * 100) + "% of requests (errorRate)\n")
                .getBytes(StandardCharsets.UTF_8);
        this.pauseEvery = config.pauseEvery();
        this.pauseMs = config.pauseMs();
        this.ok = timer(registry, 200);
        this.failed = timer(registry, 500);
        this.badGateway = timer(registry, 502);
    }

    private static Timer timer(MeterRegistry registry, int status) {
        return Timer.builder("http.server.requests").description("requests served by the graph node (admin endpoints excluded)")
                .tag("status", Integer.toString(status)).register(registry);
    }

    @Override
    public void handle(Context ctx) throws Exception {
        long start = System.nanoTime();
        long n = requests.incrementAndGet();
        drain(ctx.req());
        byte[] body;
        int status;
        Timer timer;
        if (errorRate > 0 && ThreadLocalRandom.current().nextDouble() < errorRate) {
            status = 500;
            body = injectedError;
            timer = failed;
        } else {
            String failure = script.run();
            if (failure == null) {
                status = 200;
                body = response;
                timer = ok;
            } else {
                status = 502;
                body = (failure + "\n").getBytes(StandardCharsets.UTF_8);
                timer = badGateway;
            }
        }
        if (pauseEvery > 0 && n % pauseEvery == 0) {
            Thread.sleep(pauseMs);
        }
        HttpServletResponse res = ctx.res();
        res.setStatus(status);
        res.setContentType(status == 200 ? CONTENT_TYPE : "text/plain; charset=utf-8");
        res.setContentLengthLong(body.length);
        res.getOutputStream().write(body);
        timer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }

    /** Reads the request body to its end, so the connection stays usable for the next request. */
    private static void drain(HttpServletRequest req) throws IOException {
        if (req.getContentLengthLong() == 0) {
            return;
        }
        InputStream in = req.getInputStream();
        byte[] buf = SCRATCH.get();
        while (in.read(buf) >= 0) {
            // dropped
        }
    }
}
