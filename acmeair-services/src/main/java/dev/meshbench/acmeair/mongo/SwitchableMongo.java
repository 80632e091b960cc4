package dev.meshbench.acmeair.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import dev.meshbench.acmeair.config.MongoConfig;
import dev.meshbench.component.ComponentMain;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's MongoDB client, which the kit may replace while the service runs: {@code PUT /admin/mongo} with
 * {@code --allow-mongo-switch} ({@code dev.meshbench.acmeair.admin.MongoSwitchHandler}). The kit deploys and warms
 * the services once and then switches the egress cases underneath them; between bypass (MongoDB itself) and the mesh
 * cases (the sidecar's {@code mongo} listener) only the MongoDB address changes, and restarting the JVM would throw
 * away the JIT's warm state.
 *
 * <p>The repositories and the readiness check read {@link #active()} for every operation (one volatile read), so once
 * {@link #switchTo} returns every new operation uses the new client. {@link #switchTo} builds the new client with
 * {@link MongoConnector} (same TLS material, host aliases and timeouts; the same Micrometer listeners on the same
 * registry, so the command timers of the new client's series add to the old ones', which stay), pings it within
 * {@link #SWITCH_PING_TIMEOUT} and only then makes it the active one. The previous client is closed
 * {@link #OLD_CLIENT_GRACE} later on a daemon thread (operations that read it before the switch finish on it), or at
 * {@link #close()}, whichever comes first. Switches are serialised.
 */
public final class SwitchableMongo implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SwitchableMongo.class);
    /** How long a replaced client stays open for the operations that started on it. */
    public static final Duration OLD_CLIENT_GRACE = Duration.ofSeconds(2);
    /** How long a switch waits for the new address to answer {@code ping} before it refuses (503). */
    public static final Duration SWITCH_PING_TIMEOUT = Duration.ofSeconds(5);
    /** Longest connection string a switch reads; a longer one is refused without being parsed. */
    public static final int MAX_URI_CHARS = 4096;

    /**
     * The client in use.
     *
     * @param config   its settings
     * @param client   the driver's client
     * @param database the service's database on it, or null for a service that keeps no data (auth)
     */
    public record Active(MongoConfig config, MongoClient client, MongoDatabase database) {
    }

    /**
     * The client in use and how many switches replaced the first one.
     *
     * @param active   the client in use
     * @param switches how many switches happened (a switch to the address in use changes nothing and is not counted)
     */
    public record State(Active active, int switches) {
    }

    /** The new address did not answer {@code ping}, or no client could be built for it; nothing was changed. */
    public static final class UnreachableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnreachableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final String applicationName;
    private final MeterRegistry registry;
    private final String databaseName;
    private final ScheduledThreadPoolExecutor closer;
    private final List<MongoClient> retiring = new ArrayList<>(); // guarded by this
    private volatile State state;
    private boolean closed; // guarded by this

    private SwitchableMongo(MongoConfig config, String applicationName, MeterRegistry registry, String databaseName) {
        this.applicationName = applicationName;
        this.registry = registry;
        this.databaseName = databaseName;
        this.state = new State(active(config, MongoConnector.connect(config, applicationName, registry)), 0);
        this.closer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, applicationName + "-mongo-closer");
            t.setDaemon(true);
            return t;
        });
        // no thread until the first switch, and none kept once its client is closed
        closer.setKeepAliveTime(10, TimeUnit.SECONDS);
        closer.allowCoreThreadTimeOut(true);
    }

    /**
     * The service's first client ({@link MongoConnector#connect}, which does not wait for MongoDB).
     *
     * @param databaseName the service's database, or null when it keeps none
     */
    public static SwitchableMongo connect(MongoConfig config, String applicationName, MeterRegistry registry, String databaseName) {
        return new SwitchableMongo(Objects.requireNonNull(config, "config"), applicationName, registry, databaseName);
    }

    private Active active(MongoConfig config, MongoClient client) {
        return new Active(config, client, databaseName == null ? null : client.getDatabase(databaseName));
    }

    /** The client new operations use. */
    public Active active() {
        return state.active();
    }

    /** The service's database on the client in use: what a repository reads for each operation. */
    public MongoDatabase database() {
        return state.active().database();
    }

    public State state() {
        return state;
    }

    /**
     * Makes {@code uri} the address new operations use, if it is valid and answers {@code ping}; the state after it.
     * The connection string in use reconnects: a new client with new connections, the old one retired as for any switch.
     * The kit relies on it when a proxy on the MongoDB path got a new configuration: connections the proxy accepted under
     * the old one would otherwise go on along the old path until it drains them.
     *
     * @param uri the new connection string: checked as {@code --mongo-uri} is ({@link MongoConfig}), with the running
     *            CA file, client certificate, host aliases and selection timeout; everything but its hosts must be
     *            as in the running one (scheme, credentials, database, options)
     * @throws IllegalArgumentException naming what is wrong with {@code uri} (never its password); nothing changed
     * @throws UnreachableException     when the new address did not answer in time, with the driver's reason; nothing changed
     */
    public synchronized State switchTo(String uri) {
        if (closed) {
            throw new IllegalStateException("switching MongoDB: the service is closing");
        }
        State before = state;
        MongoConfig running = before.active().config();
        MongoConfig next;
        try {
            next = nextConfig(running, uri);
        } catch (IllegalArgumentException e) {
            LOG.warn("MongoDB switch refused (400), still using {}: {}", running.describeAddress(), e.getMessage());
            throw e;
        }
        MongoClient candidate;
        try {
            candidate = MongoConnector.connect(next, applicationName, registry);
        } catch (RuntimeException e) {
            String reason = "building a MongoDB client for " + next.describeAddress() + " failed: " + ComponentMain.describe(e);
            LOG.warn("MongoDB switch refused (503), still using {}: {}", running.describeAddress(), reason);
            throw new UnreachableException(reason + "; nothing was changed", e);
        }
        MongoReadiness.Report ping;
        try {
            ping = MongoReadiness.ping(candidate, next, SWITCH_PING_TIMEOUT);
        } catch (RuntimeException e) {
            candidate.close();
            throw e;
        }
        if (!ping.up()) {
            candidate.close();
            LOG.warn("MongoDB switch refused (503), still using {}: {}", running.describeAddress(), ping.detail());
            throw new UnreachableException(ping.detail() + " (within " + SWITCH_PING_TIMEOUT.toMillis() + " ms); nothing was changed", null);
        }
        State after = new State(active(next, candidate), before.switches() + 1);
        state = after;
        retire(before.active().client());
        LOG.info("MongoDB switch {}: {} -> {}; the previous client closes in {} ms", after.switches(), running.describeAddress(),
                next.describeAddress(), OLD_CLIENT_GRACE.toMillis());
        return after;
    }

    /** {@code uri} checked as {@code --mongo-uri} is, with everything else from {@code running}. */
    static MongoConfig nextConfig(MongoConfig running, String uri) {
        String candidate = uri == null ? "" : uri.strip();
        if (candidate.isEmpty()) {
            throw new IllegalArgumentException("the body must be the new MongoDB connection string (for example "
                    + "mongodb://mongo.meshbench.test:27017/?tls=true) and it is empty");
        }
        if (candidate.length() > MAX_URI_CHARS) {
            throw new IllegalArgumentException("the body is " + candidate.length() + " characters, more than a MongoDB connection "
                    + "string may have here (" + MAX_URI_CHARS + ")");
        }
        MongoConfig next;
        try {
            next = new MongoConfig(candidate, running.caFile(), running.clientCertificate(), running.clientKey(),
                    running.hostAliases(), running.serverSelectionTimeout());
        } catch (IllegalArgumentException e) {
            // MongoConfig quotes the connection string whole, as it must for the command line; here it may carry a password
            throw new IllegalArgumentException(e.getMessage().replace(candidate, ConnectionStringParts.masked(candidate)));
        }
        List<String> changed = ConnectionStringParts.of(candidate).differencesBesidesHosts(ConnectionStringParts.of(running.uri()));
        if (!changed.isEmpty()) {
            throw new IllegalArgumentException("only the hosts of the MongoDB connection string may change, but "
                    + ConnectionStringParts.masked(candidate) + " differs from the running one in " + String.join("; ", changed));
        }
        return next;
    }

    /** The connection string in use, its password (if any) masked. */
    public static String maskedUri(MongoConfig config) {
        return ConnectionStringParts.masked(config.uri());
    }

    private void retire(MongoClient old) {
        retiring.add(old);
        closer.schedule(() -> closeRetired(old), OLD_CLIENT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void closeRetired(MongoClient old) {
        synchronized (this) {
            if (!retiring.remove(old)) {
                return; // close() got there first
            }
        }
        closeQuietly(old);
    }

    /** Closes the client in use and any replaced one still in its grace period. Idempotent. */
    @Override
    public void close() {
        List<MongoClient> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(retiring);
            retiring.clear();
            toClose.add(state.active().client());
        }
        closer.shutdownNow();
        toClose.forEach(SwitchableMongo::closeQuietly);
    }

    private static void closeQuietly(MongoClient client) {
        try {
            client.close();
        } catch (RuntimeException e) {
            LOG.warn("closing a MongoDB client failed: {}", ComponentMain.describe(e));
        }
    }
}
