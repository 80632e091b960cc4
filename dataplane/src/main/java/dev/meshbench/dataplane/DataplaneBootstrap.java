package dev.meshbench.dataplane;

import dev.meshbench.dataplane.admin.AdminInitializer;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.TlsProvider;
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
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * }
 * }</pre>
 */
public final class DataplaneBootstrap implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataplaneBootstrap.class);
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final ComponentConfig config;
    private final Map<String, HopCounters> counters = new LinkedHashMap<>();
    private final Map<String, ListenerConfig> listenerConfigs = new LinkedHashMap<>();
    private final List<Channel> serverChannels = new ArrayList<>();
    private final List<UpstreamPools> upstreamPools = new ArrayList<>();
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private volatile BoundAddresses bound;
    private volatile TlsProvider tlsProvider;
    private volatile boolean closed;

    public DataplaneBootstrap(ComponentConfig config) {
        this.config = config;
        for (ListenerConfig l : config.listeners()) {
            HopCounters c;
            if (l.routing() instanceof Routing.RoundRobin rr) {
                c = new HopCounters(rr.upstreams().stream().map(u -> u.address().toString()).toList());
            } else if (l.routing() instanceof Routing.ByPathPrefix byPath) {
                Map<String, String> upstreams = new LinkedHashMap<>();
                byPath.routes().upstreams().forEach(u -> upstreams.put(u.displayName(), u.address().toString()));
                c = new HopCounters(new HttpCounters(upstreams));
            } else {
                c = new HopCounters();
            }
            counters.put(l.name(), c);
            listenerConfigs.put(l.name(), l);
        }
    }

    public ComponentConfig config() {
        return config;
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
        if (bound != null || closed) {
            throw new IllegalStateException(config.name() + " was already started");
        }
        TlsProvider provider = config.tlsProvider().resolve();
        if (config.tlsProvider() == TlsProvider.AUTO && provider == TlsProvider.JDK) {
            LOG.info("{}: {} auto chose jdk: {}", config.name(), TlsProvider.OPTION,
                    TlsProvider.boringSslProblem().orElse("BoringSSL is not usable"));
        }
        SslContext serverTls = null;
        SslContext clientTls = null;
        if (config.tls() != null) {
            try {
                serverTls = MeshTlsContexts.server(config.tls(), provider);
                clientTls = MeshTlsContexts.client(config.tls(), provider);
            } catch (SSLException e) {
                throw new IllegalStateException(config.name() + ": building TLS contexts (" + provider.word() + ") failed: "
                        + e.getMessage(), e);
            }
        }
        tlsProvider = provider;
        boss = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(config.name() + "-accept"), NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(config.ioThreads(), new DefaultThreadFactory(config.name() + "-io"),
                NioIoHandler.newFactory());
        Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();
        try {
            for (ListenerConfig l : config.listeners()) {
                ListenerContext ctx = new ListenerContext(config.name(), l, counters.get(l.name()),
                        l.terminateMtls() ? serverTls : null,
                        l.upstreamTls() instanceof dev.meshbench.dataplane.config.UpstreamTls.MutualTls ? clientTls : null,
                        DEFAULT_CONNECT_TIMEOUT);
                ServerBootstrap b = new ServerBootstrap()
                        .group(boss, workers)
                        .channel(NioServerSocketChannel.class)
                        .option(ChannelOption.SO_BACKLOG, 1024)
                        .childOption(ChannelOption.AUTO_READ, false)
                        .childOption(ChannelOption.TCP_NODELAY, true)
                        .childHandler(childHandler(ctx));
                addresses.put(l.name(), bind(b, "listener " + l.name(), l.port()));
            }
            ServerBootstrap admin = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new AdminInitializer(config.name(), this::statsJson, () -> bound != null && !closed));
            InetSocketAddress adminAddress = bind(admin, "admin endpoint", config.adminPort());
            bound = new BoundAddresses(adminAddress, addresses);
        } catch (ListenerBindException | RuntimeException e) {
            close();
            throw e;
        }
        LOG.info("{}: listening: admin {}, {}; TLS provider {}", config.name(), BoundAddresses.text(bound.admin()), describeListeners(),
                provider.describe());
        return bound;
    }

    /** The HTTP path router for the ingress gateway, the TCP relay for every other listener. */
    private ChannelInitializer<SocketChannel> childHandler(ListenerContext ctx) {
        if (ctx.config().routing() instanceof Routing.ByPathPrefix byPath) {
            UpstreamPools pools = new UpstreamPools(ctx.hop(), byPath, ctx.counters().http(), workers, ctx.connectTimeout());
            upstreamPools.add(pools);
            return new IngressInitializer(ctx, pools);
        }
        return new ListenerInitializer(ctx);
    }

    private InetSocketAddress bind(ServerBootstrap b, String what, int port) throws ListenerBindException {
        try {
            Channel ch = b.bind(config.bindHost(), port).sync().channel();
            serverChannels.add(ch);
            return (InetSocketAddress) ch.localAddress();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ListenerBindException(config.name(), what, config.bindHost(), port, e);
        } catch (Exception e) {
            // Netty rethrows the bind's checked exception (BindException) from sync().
            throw new ListenerBindException(config.name(), what, config.bindHost(), port, e);
        }
    }

    private String describeListeners() {
        StringBuilder b = new StringBuilder();
        bound.listeners().forEach((name, a) -> {
            if (b.length() > 0) {
                b.append(", ");
            }
            ListenerConfig l = listenerConfigs.get(name);
            b.append(name).append(' ').append(BoundAddresses.text(a)).append(" -> ").append(l.routing().describe());
            if (!"none".equals(l.tlsMode())) {
                b.append(" [").append(l.tlsMode()).append(']');
            }
        });
        return b.toString();
    }

    /** The addresses from {@link #start()}; throws before it. */
    public BoundAddresses addresses() {
        BoundAddresses b = bound;
        if (b == null) {
            throw new IllegalStateException(config.name() + " is not started");
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
            throw new IllegalStateException(config.name() + " is not started");
        }
        return p;
    }

    /** Counters of one listener. */
    public HopStats stats(String listener) {
        HopCounters c = counters.get(listener);
        if (c == null) {
            throw new IllegalArgumentException(config.name() + " has no listener named " + listener + " (have " + counters.keySet() + ")");
        }
        return c.snapshot();
    }

    /** Counters of every listener, in configuration order. */
    public Map<String, HopStats> stats() {
        Map<String, HopStats> out = new LinkedHashMap<>();
        counters.forEach((k, v) -> out.put(k, v.snapshot()));
        return out;
    }

    /** What {@code GET /stats} returns. */
    public String statsJson() {
        List<ListenerReport> reports = new ArrayList<>();
        BoundAddresses b = bound;
        for (ListenerConfig l : config.listeners()) {
            String address = b == null ? "unbound" : BoundAddresses.text(b.listener(l.name()));
            reports.add(new ListenerReport(l.name(), address, l.tlsMode(), l.routing().describe(), counters.get(l.name()).snapshot()));
        }
        TlsProvider p = tlsProvider;
        return StatsJsonRenderer.render(config.name(), reports, (p == null ? config.tlsProvider().resolve() : p).word());
    }

    /** Stops listening, closes every connection and releases the threads; safe to call twice. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Channel ch : serverChannels) {
            ch.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        serverChannels.clear();
        upstreamPools.forEach(UpstreamPools::close);
        upstreamPools.clear();
        shutdown(workers);
        shutdown(boss);
    }

    private static void shutdown(EventLoopGroup group) {
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
