package dev.meshbench.acmeair.http;

import com.mongodb.MongoException;
import dev.meshbench.acmeair.config.ServiceName;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.json.JavalinJackson;
import io.micrometer.core.instrument.Timer;
import org.eclipse.jetty.servlet.FilterHolder;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts every service's HTTP server shares: Jackson JSON, error bodies {@code {"status","error","message"}},
 * a timer per route ({@code http.server.requests{method, uri, status}}), {@code GET /metrics} (Prometheus),
 * {@code GET /<service>} (liveness, "OK" as in Acmeair) and {@code GET /<service>/ready} (readiness).
 */
public final class ServiceHttpServer {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceHttpServer.class);
    public static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private ServiceHttpServer() {
    }

    /** {@code host:port} for the ready line: the bound host, or 127.0.0.1 when bound to every interface. */
    public static String readyAddress(String boundHost, int port) {
        return ("0.0.0.0".equals(boundHost) || "::".equals(boundHost) ? "127.0.0.1" : boundHost) + ":" + port;
    }

    /** Closes each in order; a failure is logged and the rest still close. */
    public static void closeAll(List<AutoCloseable> closeables) {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing {} failed: {}", c, e.getMessage());
            }
        }
    }

    /** Readiness as the endpoint reports it. */
    public record Readiness(boolean ready, Map<String, Object> body) {
    }

    /** Largest request body a service reads (Javalin's default {@code maxRequestSize}); a larger one is answered 413 ({@link BodyLimit}). */
    public static final long MAX_REQUEST_BYTES = 1_000_000;

    public static Javalin create(ServiceName service, PrometheusMeterRegistry registry, Supplier<Readiness> readiness) {
        Javalin app = Javalin.create(cfg -> {
            cfg.showJavalinBanner = false;
            // BodyLimit enforces the limit for every framing, with the services' error body; Javalin's own check
            // (declared Content-Length only) would answer in its own format.
            cfg.http.maxRequestSize = Long.MAX_VALUE;
            cfg.jetty.modifyServletContextHandler(h -> h.addFilter(new FilterHolder(new BodyLimit(MAX_REQUEST_BYTES)), "/*",
                    EnumSet.of(DispatcherType.REQUEST)));
            cfg.startupWatcherEnabled = false;
            cfg.jsonMapper(new JavalinJackson(Json.MAPPER, false));
            cfg.requestLogger.http((ctx, millis) -> record(registry, ctx, millis));
        });
        app.exception(ApiException.class, (e, ctx) -> error(ctx, e.status(), e.getMessage()));
        app.exception(MongoException.class, (e, ctx) -> {
            LOG.warn("{} {}: MongoDB operation failed: {}", ctx.method(), ctx.path(), e.getMessage());
            error(ctx, 503, "MongoDB operation failed: " + firstLine(e.getMessage()));
        });
        app.exception(Exception.class, (e, ctx) -> {
            LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
            error(ctx, 500, "internal error: " + e.getClass().getSimpleName());
        });
        app.get("/metrics", ctx -> ctx.contentType(PROMETHEUS_CONTENT_TYPE).result(registry.scrape()));
        app.get(service.prefix(), ctx -> ctx.contentType("text/plain").result("OK"));
        app.get(service.readyPath(), ctx -> {
            Readiness r = readiness.get();
            ctx.status(r.ready() ? 200 : 503).json(r.body());
        });
        return app;
    }

    static void error(Context ctx, int status, String message) {
        io.javalin.http.HttpStatus s = io.javalin.http.HttpStatus.forStatus(status);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("error", s.getMessage());
        body.put("message", message == null ? "" : message);
        ctx.status(status).json(body);
    }

    private static void record(PrometheusMeterRegistry registry, Context ctx, float millis) {
        String route;
        try {
            route = ctx.endpointHandlerPath();
        } catch (RuntimeException e) {
            route = null;
        }
        if (route == null || route.isEmpty() || ctx.status().getCode() == 404 && route.equals("*")) {
            route = ctx.status().getCode() == 404 ? "NOT_FOUND" : "UNKNOWN";
        }
        HandlerType method = ctx.method();
        Timer.builder("http.server.requests").description("HTTP requests served, per route")
                .tag("method", method.name()).tag("uri", route).tag("status", Integer.toString(ctx.status().getCode()))
                .register(registry).record((long) (millis * 1_000_000L), TimeUnit.NANOSECONDS);
    }

    private static String firstLine(String m) {
        if (m == null) {
            return "";
        }
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
