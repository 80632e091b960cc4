package dev.meshbench.dataplane;

import dev.meshbench.dataplane.admin.AdminInitializer;
import dev.meshbench.dataplane.admin.ConfigEndpoint;
import dev.meshbench.dataplane.admin.ConfigJsonRenderer;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.ConfigRefusedException;
import dev.meshbench.dataplane.config.ConfigVersion;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.dataplane.http.IngressInitializer;
import dev.meshbench.dataplane.http.UpstreamPools;
import dev.meshbench.dataplane.relay.ListenerContext;
import dev.meshbench.dataplane.relay.ListenerInitializer;
import dev.meshbench.dataplane.relay.MeshTlsContexts;
import dev.meshbench.dataplane.stats.HopCounters;
import dev.meshbench.dataplane.stats.HopStats;
import dev.meshbench.dataplane.stats.HttpCounters;
import dev.meshbench.dataplane.stats.ListenerReport;
import dev.meshbench.dataplane.stats.StatsJsonRenderer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts one data-plane component (sidecar, egress gateway, SNI proxy or ingress gateway) in this JVM: every listener of its
 * {@link ComponentConfig} plus the admin endpoint. The command line uses it, and so do tests and benchmarks,
 * which bind port 0 and read the real ports from {@link #start()}.
 *
 * <pre>{@code
 * try (DataplaneBootstrap sidecar = new DataplaneBootstrap(config)) {
 *     BoundAddresses bound = sidecar.start();
 *     InetSocketAddress mongo = bound.listener("mongo");
 *     ...
 *     HopStats s = sidecar.stats("mongo");
 *     sidecar.apply(new ConfigRevision(new ConfigVersion("v2"), config.withListeners(other), Map.of()));
 * }
 * }</pre>
 *
 * <p>While it runs, its listeners can be switched to a new configuration ({@link #apply}, or {@code PUT /config} on the
 * admin endpoint through a {@link ConfigParser}), the way Envoy takes a new listener configuration from xDS: listeners
 * are matched by name; an unchanged one is left alone; a changed one keeps its bound port, its new connections get the
 * new configuration at once and those accepted before are closed after the drain time; a removed one stops listening
 * at once and its connections are closed after the drain time; an added one is bound. Counters stay per listener name.
 */
public final class DataplaneBootstrap implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataplaneBootstrap.class);
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    /** The configuration in force and where it listens (null before {@link #start()}), read together. */
    private record Live(ConfigRevision revision, BoundAddresses bound) {
    }

    private final String name;
    /** Counters of every listener the component has had, by name: a listener keeps them across configurations. */
    private final Map<String, HopCounters> counters = new ConcurrentHashMap<>();
    /** The listeners in force, in configuration order; guarded by this. */
    private Map<String, ListenerSlot> slots = new LinkedHashMap<>();
    /** Generations replaced or removed, whose connections are closed when their drain time is over. */
    private final Set<ListenerGeneration> draining = ConcurrentHashMap.newKeySet();
    private Channel adminChannel;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private ExecutorService configThread;
    private SslContext serverTls;
    private SslContext clientTls;
    private volatile Live live;
    private volatile ConfigParser configParser;
    private volatile TlsProvider tlsProvider;
    private volatile boolean closed;

    public DataplaneBootstrap(ComponentConfig config) {
        this(ConfigRevision.initial(config));
    }

    /** Starts as {@code initial}: its version is what {@code GET /config} and {@code /stats} report until the first change. */
    public DataplaneBootstrap(ConfigRevision initial) {
        Objects.requireNonNull(initial, "initial");
        this.name = initial.config().name();
        for (ListenerConfig l : initial.config().listeners()) {
            counters.put(l.name(), newCounters(l));
        }
        this.live = new Live(initial, null);
    }

    /** The configuration in force. */
    public ComponentConfig config() {
        return live.revision().config();
    }

    /** The configuration in force with its version and listener specs. */
    public ConfigRevision revision() {
        return live.revision();
    }

    /**
     * Lets {@code PUT /config} take new configurations, read by {@code parser} (the command line does this; without
     * it {@code PUT /config} answers 501 and {@link #apply} is the way).
     */
    public void acceptConfigBodies(ConfigParser parser) {
        this.configParser = Objects.requireNonNull(parser, "parser");
    }

    /**
     * Binds every listener and the admin endpoint. On failure everything bound so far is released.
     *
     * @return the real addresses
     * @throws ListenerBindException naming the component, listener and port that could not be bound
     * @throws IllegalStateException when the TLS provider is {@code boringssl} and BoringSSL is not usable, when the
     *                               TLS material cannot make a TLS context, or when already started
     */
    public synchronized BoundAddresses start() throws ListenerBindException {
        ComponentConfig config = config();
        if (live.bound() != null || closed) {
            throw new IllegalStateException(name + " was already started");
        }
        TlsProvider provider = config.tlsProvider().resolve();
        if (config.tlsProvider() == TlsProvider.AUTO && provider == TlsProvider.JDK) {
            LOG.info("{}: {} auto chose jdk: {}", name, TlsProvider.OPTION,
                    TlsProvider.boringSslProblem().orElse("BoringSSL is not usable"));
        }
        if (config.tls() != null) {
            // Built whenever the material is given, also when no listener uses it yet: a later configuration may.
            try {
                serverTls = MeshTlsContexts.server(config.tls(), provider);
                clientTls = MeshTlsContexts.client(config.tls(), provider);
            } catch (SSLException e) {
                throw new IllegalStateException(name + ": building TLS contexts (" + provider.word() + ") failed: "
                        + e.getMessage(), e);
            }
        }
        tlsProvider = provider;
        boss = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(name + "-accept"), NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(config.ioThreads(), new DefaultThreadFactory(name + "-io"),
                NioIoHandler.newFactory());
        configThread = Executors.newSingleThreadExecutor(new DefaultThreadFactory(name + "-config", true));
        try {
            for (ListenerConfig l : config.listeners()) {
                slots.put(l.name(), bindListener(l, counters.get(l.name())));
            }
            ServerBootstrap admin = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new AdminInitializer(name, this::statsJson, () -> live.bound() != null && !closed, new AdminConfig()));
            adminChannel = bind(admin, "admin endpoint", config.adminPort());
            live = new Live(live.revision(), addresses((InetSocketAddress) adminChannel.localAddress(), slots));
        } catch (ListenerBindException | RuntimeException e) {
            close();
            throw e;
        }
        LOG.info("{}: listening: admin {}, {}; TLS provider {}", name, BoundAddresses.text(live.bound().admin()),
                describe(slots.keySet()), provider.describe());
        return live.bound();
    }

    /**
     * Switches the running component to {@code next}, which may differ from the configuration in force in its
     * listeners only (their upstreams, routes, TLS mode per listener, ports; listeners added and removed). Listeners
     * are matched by name: an unchanged one is left alone with its connections; a changed one keeps its bound port
     * (unless {@code next} gives it another port other than 0), its new connections get the new configuration at once
     * and those accepted before are closed after the drain time; a removed one stops listening at once and its
     * connections are closed after the drain time; an added one is bound. Returns once the new configuration serves
     * new connections. All or nothing: when it is refused, nothing changed.
     *
     * @return the addresses of the listeners now in force
     * @throws ConfigRefusedException {@code CONFLICT} when {@code next} changes anything but listeners, or when a
     *                                listener it adds (or moves to another port) cannot bind, naming listener and port
     * @throws IllegalStateException  before {@link #start()} or after {@link #close()}
     */
    public synchronized BoundAddresses apply(ConfigRevision next) throws ConfigRefusedException {
        Live now = live;
        if (now.bound() == null || closed) {
            throw new IllegalStateException(name + " is not running");
        }
        ComponentConfig to = next.config();
        checkOnlyListenersDiffer(now.revision().config(), to);
        // Plan: what each listener of the new configuration is.
        Map<String, ListenerConfig> added = new LinkedHashMap<>();
        Map<String, ListenerConfig> changed = new LinkedHashMap<>();
        Map<String, ListenerConfig> moved = new LinkedHashMap<>(); // changed, to another port
        List<String> kept = new ArrayList<>();
        for (ListenerConfig l : to.listeners()) {
            ListenerSlot slot = slots.get(l.name());
            if (slot == null) {
                added.put(l.name(), l);
                continue;
            }
            ListenerConfig was = slot.config();
            if (was.isHttp() != l.isHttp()) {
                throw ConfigRefusedException.conflict("listener " + l.name() + " cannot change between an HTTP router and a TCP relay "
                        + "while running; give it another name");
            }
            boolean otherPort = l.port() != 0 && l.port() != slot.address().getPort();
            if (otherPort) {
                moved.put(l.name(), l);
            } else if (was.withPort(0).equals(l.withPort(0))) {
                kept.add(l.name());
            } else {
                changed.put(l.name(), l);
            }
        }
        List<String> removed = slots.keySet().stream().filter(n -> to.listeners().stream().noneMatch(l -> l.name().equals(n))).toList();

        // Bind what needs a port; on the first failure release what this call bound and refuse.
        Map<String, HopCounters> newCounters = new LinkedHashMap<>();
        Map<String, ListenerSlot> newSlots = new LinkedHashMap<>();
        Map<String, ListenerConfig> toBind = new LinkedHashMap<>(added);
        toBind.putAll(moved);
        for (ListenerConfig l : toBind.values()) {
            HopCounters c = counters.get(l.name());
            if (c == null || (c.http() == null) == l.isHttp()) {
                c = newCounters(l);
                newCounters.put(l.name(), c);
            }
            try {
                newSlots.put(l.name(), bindListener(l, c));
            } catch (ListenerBindException | RuntimeException e) {
                newSlots.values().forEach(DataplaneBootstrap::unbind);
                throw new ConfigRefusedException(ConfigRefusedException.Reason.CONFLICT, (e instanceof ListenerBindException b
                        ? b.getMessage() : name + ": starting listener " + l.name() + " failed: " + e) + "; nothing changed", e);
            }
        }
        Map<String, ListenerGeneration> newGenerations = new LinkedHashMap<>();
        for (ListenerConfig l : changed.values()) {
            newGenerations.put(l.name(), generation(l, counters.get(l.name())));
        }

        // Commit: nothing below fails.
        counters.putAll(newCounters);
        Map<String, ListenerSlot> inForce = new LinkedHashMap<>();
        for (ListenerConfig l : to.listeners()) {
            ListenerSlot slot = slots.get(l.name());
            if (changed.containsKey(l.name())) {
                drainLater(slot.swap(newGenerations.get(l.name())), to.drainTime());
            } else if (newSlots.containsKey(l.name())) {
                if (slot != null) { // moved to another port
                    unbind(slot.serverChannel());
                    drainLater(slot.current(), to.drainTime());
                }
                slot = newSlots.get(l.name());
            }
            inForce.put(l.name(), slot);
            reportUpstreams(counters.get(l.name()), l);
        }
        for (String r : removed) {
            ListenerSlot slot = slots.get(r);
            unbind(slot.serverChannel());
            drainLater(slot.current(), to.drainTime());
        }
        slots = inForce;
        live = new Live(next, addresses(now.bound().admin(), inForce));
        LOG.info("{}: applied config version {} (was {}): added {}, changed {}, removed {}, kept {}; listening: {}", name,
                next.version(), now.revision().version(), added.keySet(), List.copyOf(mergedKeys(changed, moved)), removed, kept,
                describe(inForce.keySet()));
        return live.bound();
    }

    private static List<String> mergedKeys(Map<String, ?> a, Map<String, ?> b) {
        List<String> out = new ArrayList<>(a.keySet());
        out.addAll(b.keySet());
        return out;
    }

    /** What a running process cannot change: everything but the listeners. */
    private void checkOnlyListenersDiffer(ComponentConfig now, ComponentConfig to) throws ConfigRefusedException {
        List<String> fixed = new ArrayList<>();
        differs(fixed, "component name", now.name(), to.name());
        differs(fixed, "bind host", now.bindHost(), to.bindHost());
        differs(fixed, "admin port", now.adminPort(), to.adminPort());
        differs(fixed, "io threads", now.ioThreads(), to.ioThreads());
        differs(fixed, "TLS provider", now.tlsProvider().word(), to.tlsProvider().word());
        differs(fixed, "drain time", now.drainTime(), to.drainTime());
        if (to.tls() != null && (now.tls() == null || !sameIdentity(now.tls(), to.tls()))) {
            fixed.add("TLS material (" + (now.tls() == null ? "started without; " : "started with " + now.tls() + "; ") + "asked "
                    + to.tls() + ")");
        }
        if (!fixed.isEmpty()) {
            throw ConfigRefusedException.conflict(name + " cannot change its " + String.join(", ", fixed)
                    + " while running, only its listeners");
        }
    }

    private static void differs(List<String> out, String what, Object now, Object to) {
        if (!Objects.equals(now, to)) {
            out.add(what + " (running " + now + ", asked " + to + ")");
        }
    }

    private static boolean sameIdentity(TlsMaterial a, TlsMaterial b) {
        return a.trustedCas().equals(b.trustedCas()) && a.chain().equals(b.chain());
    }

    private static HopCounters newCounters(ListenerConfig l) {
        if (l.routing() instanceof Routing.RoundRobin rr) {
            return new HopCounters(rr.upstreams().stream().map(u -> u.address().toString()).toList());
        }
        if (l.routing() instanceof Routing.ByPathPrefix byPath) {
            return new HopCounters(new HttpCounters(httpUpstreams(byPath)));
        }
        return new HopCounters();
    }

    /** The counters report the upstreams of the listener's configuration in force, each with its count so far. */
    private static void reportUpstreams(HopCounters c, ListenerConfig l) {
        if (l.routing() instanceof Routing.ByPathPrefix byPath) {
            c.http().reportUpstreams(httpUpstreams(byPath));
        } else {
            c.reportUpstreams(l.routing() instanceof Routing.RoundRobin rr
                    ? rr.upstreams().stream().map(u -> u.address().toString()).toList() : List.of());
        }
    }

    private static Map<String, String> httpUpstreams(Routing.ByPathPrefix byPath) {
        Map<String, String> upstreams = new LinkedHashMap<>();
        for (Upstream u : byPath.routes().upstreams()) {
            upstreams.put(u.displayName(), u.address().toString());
        }
        return upstreams;
    }

    /** How new connections of {@code l} are built: the HTTP path router for the ingress gateway, the TCP relay otherwise. */
    private ListenerGeneration generation(ListenerConfig l, HopCounters c) {
        if (l.usesMtls() && (serverTls == null || clientTls == null)) {
            throw new IllegalStateException("listener " + l.name() + " uses mutual TLS but " + name + " has no TLS material");
        }
        ListenerContext ctx = new ListenerContext(name, l, c, l.terminateMtls() ? serverTls : null,
                l.upstreamTls() instanceof UpstreamTls.MutualTls ? clientTls : null, DEFAULT_CONNECT_TIMEOUT);
        if (l.routing() instanceof Routing.ByPathPrefix byPath) {
            UpstreamPools pools = new UpstreamPools(ctx.hop(), byPath, c.http(), workers, ctx.connectTimeout());
            return new ListenerGeneration(l, new IngressInitializer(ctx, pools), pools);
        }
        return new ListenerGeneration(l, new ListenerInitializer(ctx), null);
    }

    /** Binds a listener's port with its first generation; on failure nothing stays open. */
    private ListenerSlot bindListener(ListenerConfig l, HopCounters c) throws ListenerBindException {
        ListenerGeneration first = generation(l, c);
        ListenerSlot slot = new ListenerSlot(first);
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(slot);
        try {
            slot.bound(bind(b, "listener " + l.name(), l.port()));
        } catch (ListenerBindException | RuntimeException e) {
            first.retire();
            throw e;
        }
        return slot;
    }

    private static void unbind(ListenerSlot slot) {
        unbind(slot.serverChannel());
        slot.current().retire();
    }

    /**
     * Closes a listening channel and returns once its port refuses. The close future alone is not enough: the JDK defers
     * closing a registered channel's socket until its selector deregisters the cancelled key, on the event loop's next
     * select, so a connect just after the future completes could still be accepted by the old listener. A task scheduled
     * after the close runs only after that select (Netty takes due scheduled tasks at the start of a loop pass, after its
     * select), so waiting for one closes the gap.
     */
    private static void unbind(Channel server) {
        if (server != null) {
            server.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            if (!server.eventLoop().isShuttingDown() && !server.eventLoop().inEventLoop()) {
                server.eventLoop().schedule(() -> { }, 1, TimeUnit.MILLISECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
            }
        }
    }

    /** Closes the connections of {@code old} once {@code drain} is over (at once for zero). */
    private void drainLater(ListenerGeneration old, Duration drain) {
        if (drain.isZero()) {
            old.retire();
            return;
        }
        draining.add(old);
        boss.next().schedule(() -> {
            old.retire();
            draining.remove(old);
        }, drain.toNanos(), TimeUnit.NANOSECONDS);
    }

    private Channel bind(ServerBootstrap b, String what, int port) throws ListenerBindException {
        String host = config().bindHost();
        try {
            return b.bind(host, port).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ListenerBindException(name, what, host, port, e);
        } catch (Exception e) {
            // Netty rethrows the bind's checked exception (BindException) from sync().
            throw new ListenerBindException(name, what, host, port, e);
        }
    }

    private static BoundAddresses addresses(InetSocketAddress admin, Map<String, ListenerSlot> slots) {
        Map<String, InetSocketAddress> listeners = new LinkedHashMap<>();
        slots.forEach((n, s) -> listeners.put(n, s.address()));
        return new BoundAddresses(admin, listeners);
    }

    /** {@code mongo 127.0.0.1:40111 -> 127.0.0.1:40123 (egress-gateway) [mtls-originate], ...} for the log. */
    private String describe(Iterable<String> names) {
        StringBuilder b = new StringBuilder();
        for (String n : names) {
            if (b.length() > 0) {
                b.append(", ");
            }
            ListenerSlot slot = slots.get(n);
            ListenerConfig l = slot.config();
            b.append(n).append(' ').append(BoundAddresses.text(slot.address())).append(" -> ").append(l.routing().describe());
            if (!"none".equals(l.tlsMode())) {
                b.append(" [").append(l.tlsMode()).append(']');
            }
        }
        return b.toString();
    }

    /** The addresses from {@link #start()} or the last {@link #apply}; throws before {@link #start()}. */
    public BoundAddresses addresses() {
        BoundAddresses b = live.bound();
        if (b == null) {
            throw new IllegalStateException(name + " is not started");
        }
        return b;
    }

    /**
     * The TLS provider the component runs with, resolved at {@link #start()} ({@code auto} became {@code boringssl}
     * or {@code jdk}); reported even when no listener uses TLS. Throws before {@link #start()}.
     */
    public TlsProvider tlsProvider() {
        TlsProvider p = tlsProvider;
        if (p == null) {
            throw new IllegalStateException(name + " is not started");
        }
        return p;
    }

    /** Counters of one listener, cumulative across configurations; also of a listener a later configuration removed. */
    public HopStats stats(String listener) {
        HopCounters c = counters.get(listener);
        if (c == null) {
            throw new IllegalArgumentException(name + " has no listener named " + listener + " (have "
                    + live.revision().config().listeners().stream().map(ListenerConfig::name).toList() + ")");
        }
        return c.snapshot();
    }

    /** Counters of every listener in force, in configuration order. */
    public Map<String, HopStats> stats() {
        Map<String, HopStats> out = new LinkedHashMap<>();
        for (ListenerConfig l : live.revision().config().listeners()) {
            out.put(l.name(), counters.get(l.name()).snapshot());
        }
        return out;
    }

    /** What {@code GET /stats} returns: the listeners in force, their counters cumulative per name, and the config version. */
    public String statsJson() {
        Live now = live;
        List<ListenerReport> reports = new ArrayList<>();
        for (ListenerConfig l : now.revision().config().listeners()) {
            String address = now.bound() == null ? "unbound" : BoundAddresses.text(now.bound().listener(l.name()));
            reports.add(new ListenerReport(l.name(), address, l.tlsMode(), l.routing().describe(), counters.get(l.name()).snapshot()));
        }
        TlsProvider p = tlsProvider;
        return StatsJsonRenderer.render(name, reports, (p == null ? now.revision().config().tlsProvider().resolve() : p).word(),
                now.revision().version().value());
    }

    /** What {@code GET /config} returns: the version in force and each listener's address and spec. */
    public String configJson() {
        Live now = live;
        List<ConfigJsonRenderer.Listener> listeners = new ArrayList<>();
        now.revision().specs().forEach((n, spec) -> listeners.add(new ConfigJsonRenderer.Listener(n,
                now.bound() == null ? "unbound" : BoundAddresses.text(now.bound().listener(n)), spec)));
        return ConfigJsonRenderer.render(now.revision().version().value(), listeners);
    }

    /** {@code PUT /config}: parse with the {@link ConfigParser}, apply, answer {@link #configJson()}; logged either way. */
    private String applyBody(String version, String body) throws ConfigRefusedException {
        ConfigVersion v = null;
        try {
            if (version == null) {
                throw ConfigRefusedException.badInput("PUT /config needs one ?version=<v>, 1-64 letters, digits, '.', '_', ':' or '-'");
            }
            try {
                v = new ConfigVersion(version);
            } catch (IllegalArgumentException e) {
                throw ConfigRefusedException.badInput("?version=: " + e.getMessage());
            }
            ConfigParser parser = configParser;
            if (parser == null) {
                throw new ConfigRefusedException(ConfigRefusedException.Reason.NOT_SUPPORTED, name
                        + " was started from the Java API, which takes a new configuration from DataplaneBootstrap.apply");
            }
            apply(parser.parse(v, body));
        } catch (ConfigRefusedException e) {
            LOG.warn("{}: refused config{}: {}", name, v == null ? "" : " version " + v, e.getMessage());
            throw e;
        }
        return configJson();
    }

    /** The admin endpoint's view of {@code /config}. */
    private final class AdminConfig implements ConfigEndpoint {
        @Override
        public String configJson() {
            return DataplaneBootstrap.this.configJson();
        }

        @Override
        public CompletableFuture<String> putConfig(String version, String body) {
            CompletableFuture<String> answer = new CompletableFuture<>();
            try {
                configThread.execute(() -> {
                    try {
                        answer.complete(applyBody(version, body));
                    } catch (ConfigRefusedException | RuntimeException e) {
                        if (e instanceof RuntimeException) {
                            LOG.warn("{}: applying config version {} failed: {}", name, version, e.toString());
                        }
                        answer.completeExceptionally(e);
                    }
                });
            } catch (RejectedExecutionException e) {
                answer.completeExceptionally(new IllegalStateException(name + " is closing"));
            }
            return answer;
        }
    }

    /** Stops listening, closes every connection and releases the threads; safe to call twice. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        slots.values().forEach(DataplaneBootstrap::unbind);
        unbind(adminChannel);
        draining.forEach(ListenerGeneration::retire);
        draining.clear();
        if (configThread != null) {
            configThread.shutdownNow();
        }
        shutdown(workers);
        shutdown(boss);
    }

    private static void shutdown(EventLoopGroup group) {
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
