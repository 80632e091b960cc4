package dev.meshbench.acmeair;

import dev.meshbench.component.AcmeairApi;
import dev.meshbench.component.ComponentMain;
import dev.meshbench.acmeair.admin.MongoSwitchHandler;
import dev.meshbench.acmeair.auth.AuthHandler;
import dev.meshbench.acmeair.booking.BookingHandler;
import dev.meshbench.acmeair.booking.BookingRepository;
import dev.meshbench.acmeair.booking.RewardsUpdater;
import dev.meshbench.acmeair.config.ServiceConfig;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.customer.CustomerHandler;
import dev.meshbench.acmeair.customer.CustomerRepository;
import dev.meshbench.acmeair.flight.FlightHandler;
import dev.meshbench.acmeair.flight.FlightLookups;
import dev.meshbench.acmeair.flight.FlightRepository;
import dev.meshbench.acmeair.http.ServiceHttpServer;
import dev.meshbench.acmeair.http.ServiceHttpServer.Readiness;
import dev.meshbench.acmeair.http.ServiceMetrics;
import dev.meshbench.acmeair.mongo.IndexInitializer;
import dev.meshbench.acmeair.mongo.MongoReadiness;
import dev.meshbench.acmeair.mongo.SwitchableMongo;
import dev.meshbench.acmeair.peer.CustomerClient;
import dev.meshbench.acmeair.peer.FlightClient;
import dev.meshbench.acmeair.peer.PeerClient;
import dev.meshbench.acmeair.security.JwtIssuer;
import dev.meshbench.acmeair.security.JwtKeys;
import dev.meshbench.acmeair.security.JwtVerifier;
import io.javalin.Javalin;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Acmeair service: its HTTP server, MongoDB client, metrics registry and peer clients. Start it with
 * {@link #start(ServiceConfig)}; it listens once that returns. It does not wait for MongoDB: readiness says whether
 * MongoDB answers, and indexes are created in the background as soon as it does.
 */
public final class AcmeairService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AcmeairService.class);
    static final Duration READY_PING_TIMEOUT = Duration.ofSeconds(2);

    private final ServiceConfig config;
    private final Javalin app;
    private final PrometheusMeterRegistry registry;
    private final List<AutoCloseable> closeables;
    private final AtomicBoolean closed = new AtomicBoolean();

    private AcmeairService(ServiceConfig config, Javalin app, PrometheusMeterRegistry registry, List<AutoCloseable> closeables) {
        this.config = config;
        this.app = app;
        this.registry = registry;
        this.closeables = closeables;
    }

    public static AcmeairService start(ServiceConfig config) {
        return start(config, Clock.systemUTC());
    }

    /**
     * @throws ServiceStartException naming the service, address and cause (bad key file, port in use, ...)
     */
    public static AcmeairService start(ServiceConfig config, Clock clock) {
        ServiceName name = config.service();
        List<AutoCloseable> closeables = new ArrayList<>();
        try {
            PrometheusMeterRegistry registry = ServiceMetrics.create(name.id(), closeables);
            closeables.add(registry::close);
            SwitchableMongo mongo = null;
            Supplier<Readiness> readiness;
            if (config.mongo() != null) {
                mongo = SwitchableMongo.connect(config.mongo(), "acmeair-" + name.id(), registry, name.database());
                closeables.add(0, mongo);
                MongoReadiness check = new MongoReadiness(mongo, READY_PING_TIMEOUT);
                readiness = () -> readiness(name, check.check());
            } else {
                readiness = () -> readiness(name, new MongoReadiness.Report(true, "not used", "auth keeps no data"));
            }
            Javalin app = ServiceHttpServer.create(name, registry, readiness);
            if (config.allowMongoSwitch()) {
                LOG.info("{}: {} re-points the MongoDB client on request (--allow-mongo-switch)", name.id(),
                        AcmeairApi.MONGO_SWITCH_PATH);
                new MongoSwitchHandler(mongo).routes(app);
            }
            int addedMs = config.behaviour().addedLatencyMs();
            if (addedMs > 0) {
                // A deliberate slowdown of the API (not of readiness, metrics, the loader or the MongoDB switch), standing for a regression.
                LOG.warn("{}: every API request waits {} ms first (--added-latency-ms)", name.id(), addedMs);
                app.before(ctx -> {
                    String path = ctx.path();
                    if (!path.equals("/metrics") && !path.equals(name.readyPath()) && !path.contains("/loader/")
                            && !path.equals(AcmeairApi.MONGO_SWITCH_PATH)) {
                        Thread.sleep(addedMs);
                    }
                });
            }
            HttpClient http = PeerClient.newHttpClient();
            switch (name) {
                case AUTH -> new AuthHandler(customerClient(config, http, registry),
                        new JwtIssuer(JwtKeys.readPrivateKey(config.jwtPrivateKey()), clock)).routes(app);
                case CUSTOMER -> {
                    CustomerRepository repo = new CustomerRepository(mongo::database);
                    new CustomerHandler(repo, verifier(config, clock)).routes(app);
                    closeables.add(0, new IndexInitializer(name.id(), repo::createIndexes));
                }
                case FLIGHT -> {
                    FlightRepository repo = new FlightRepository(mongo::database);
                    new FlightHandler(repo, new FlightLookups(repo, config.behaviour().flightCache()), clock).routes(app);
                    closeables.add(0, new IndexInitializer(name.id(), repo::createIndexes));
                }
                case BOOKING -> {
                    BookingRepository repo = new BookingRepository(mongo::database);
                    FlightClient flights = new FlightClient(new PeerClient("flight", config.flightUrl(), http, registry));
                    RewardsUpdater rewards = new RewardsUpdater(flights, customerClient(config, http, registry),
                            config.behaviour().rewardsAsync(), registry);
                    closeables.add(0, rewards); // after the server stops: queued updates still reach the peers
                    new BookingHandler(repo, verifier(config, clock), rewards, clock).routes(app);
                    closeables.add(0, new IndexInitializer(name.id(), repo::createIndexes));
                }
            }
            app.start(config.host(), config.port());
            closeables.add(0, app::stop);
            AcmeairService s = new AcmeairService(config, app, registry, closeables);
            LOG.info("{} service listening on {}", name.id(), s.address());
            return s;
        } catch (RuntimeException e) {
            ServiceHttpServer.closeAll(closeables);
            throw new ServiceStartException("starting the " + name.id() + " service on " + config.host() + ":" + config.port()
                    + " failed: " + ComponentMain.describe(e), e);
        }
    }

    private static Readiness readiness(ServiceName name, MongoReadiness.Report r) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", r.up() ? "UP" : "DOWN");
        body.put("service", name.id());
        body.put("mongo", r.mongo());
        body.put("detail", r.detail());
        return new Readiness(r.up(), body);
    }

    private static JwtVerifier verifier(ServiceConfig config, Clock clock) {
        return new JwtVerifier(JwtKeys.readPublicKey(config.jwtPublicKey()), clock);
    }

    private static CustomerClient customerClient(ServiceConfig config, HttpClient http, PrometheusMeterRegistry registry) {
        return new CustomerClient(new PeerClient("customer", config.customerUrl(), http, registry));
    }

    public ServiceName name() {
        return config.service();
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

    /** Stops the HTTP server, the index initializer and the MongoDB client. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            ServiceHttpServer.closeAll(closeables);
            LOG.info("{} service stopped", config.service().id());
        }
    }

}
