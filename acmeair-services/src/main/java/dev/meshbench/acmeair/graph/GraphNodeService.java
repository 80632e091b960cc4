package dev.meshbench.acmeair.graph;

import dev.meshbench.acmeair.ServiceStartException;
import dev.meshbench.acmeair.http.ServiceHttpServer;
import dev.meshbench.acmeair.http.ServiceMetrics;
import dev.meshbench.component.ComponentMain;
import io.javalin.Javalin;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running node of a service graph: a Javalin server whose every GET or POST (on any path but the admin ones) runs
 * the service's script ({@link GraphNodeHandler}), plus {@code GET /metrics} (Prometheus) and {@code GET /health/ready}
 * (200 once it serves). Start it with {@link #start(GraphNodeConfig)}; it listens once that returns.
 */
public final class GraphNodeService implements AutoCloseable {
    public static final String METRICS_PATH = "/metrics";
    public static final String READY_PATH = "/health/ready";

    private static final Logger LOG = LoggerFactory.getLogger(GraphNodeService.class);

    private final GraphNodeConfig config;
    private final Javalin app;
    private final PrometheusMeterRegistry registry;
    private final List<AutoCloseable> closeables;
    private final AtomicBoolean closed = new AtomicBoolean();

    private GraphNodeService(GraphNodeConfig config, Javalin app, PrometheusMeterRegistry registry, List<AutoCloseable> closeables) {
        this.config = config;
        this.app = app;
        this.registry = registry;
        this.closeables = closeables;
    }

    /** @throws ServiceStartException naming the service, the address and the cause (port in use, ...) */
    public static GraphNodeService start(GraphNodeConfig config) {
        String name = config.service().name();
        List<AutoCloseable> closeables = new ArrayList<>();
        try {
            PrometheusMeterRegistry registry = ServiceMetrics.create(name, closeables);
            closeables.add(registry::close);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(3)).build();
            GraphNodeHandler handler = new GraphNodeHandler(config, new ScriptRunner(config, http, registry), registry);
            Map<String, Object> ready = new LinkedHashMap<>(); // written by Javalin's Jackson mapper
            ready.put("status", "UP");
            ready.put("service", name);
            Javalin app = Javalin.create(cfg -> {
                cfg.showJavalinBanner = false;
                cfg.startupWatcherEnabled = false;
                cfg.http.disableCompression(); // the body is exactly responseSize bytes, and costs no CPU to send
            });
            // Admin routes first: the first matching route wins.
            app.get(METRICS_PATH, ctx -> ctx.contentType(ServiceHttpServer.PROMETHEUS_CONTENT_TYPE).result(registry.scrape()));
            app.get(READY_PATH, ctx -> ctx.json(ready));
            app.get("/", handler);
            app.post("/", handler);
            app.get("/<path>", handler);
            app.post("/<path>", handler);
            app.start(config.host(), config.port());
            closeables.add(0, app::stop);
            GraphNodeService s = new GraphNodeService(config, app, registry, closeables);
            LOG.info("graph node {} of {} listening on {}", name, config.graph().source(), s.address());
            return s;
        } catch (RuntimeException e) {
            ServiceHttpServer.closeAll(closeables);
            throw new ServiceStartException("starting graph node " + name + " on " + config.host() + ":" + config.port()
                    + " failed: " + ComponentMain.describe(e), e);
        }
    }

    public String name() {
        return config.service().name();
    }

    public int port() {
        return app.port();
    }

    /** {@code host:port} for the ready line: the bound host, or 127.0.0.1 when bound to every interface. */
    public String address() {
        return ServiceHttpServer.readyAddress(config.host(), port());
    }

    /** {@code http://<address>}. */
    public String baseUrl() {
        return "http://" + address();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Stops the server and the metrics. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            ServiceHttpServer.closeAll(closeables);
            LOG.info("graph node {} stopped", name());
        }
    }

}
