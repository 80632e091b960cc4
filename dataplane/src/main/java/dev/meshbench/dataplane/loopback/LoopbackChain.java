package dev.meshbench.dataplane.loopback;

import dev.meshbench.dataplane.BoundAddresses;
import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.ListenerBindException;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.dataplane.stats.HopStats;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Mongo path of each egress case, built in this JVM from {@link DataplaneBootstrap}s in front of a target
 * address (normally an {@link EchoServer}): for tests that assert per-hop counters and for the JMH benchmarks.
 * The orchestrator runs the same hops as separate processes through the command line.
 */
public final class LoopbackChain implements AutoCloseable {
    /** Hop (component) names; each has one listener, named in {@link #LISTENER}. */
    public static final String HOP_SIDECAR = "sidecar";
    public static final String HOP_GATEWAY = "egress-gateway";
    public static final String HOP_SNI_PROXY = "sni-proxy";
    /** Listener name per hop. */
    public static final Map<String, String> LISTENER = Map.of(HOP_SIDECAR, "mongo", HOP_GATEWAY, "egress", HOP_SNI_PROXY, "sni");

    /** Which hops the app's Mongo connection passes. */
    public enum Shape {
        /** app -> target. */
        BYPASS,
        /** app -> sidecar -> target. */
        SIDECAR,
        /** app -> sidecar -> gateway (SNI passthrough) -> target. */
        GATEWAY,
        /** app -> sidecar =mTLS=> gateway -> target. */
        MTLS,
        /** app -> sidecar =mTLS=> gateway -> SNI proxy (wildcard route) -> target. */
        SNI;

        /** The hops in path order from the app. */
        public List<String> hops() {
            return switch (this) {
                case BYPASS -> List.of();
                case SIDECAR -> List.of(HOP_SIDECAR);
                case GATEWAY, MTLS -> List.of(HOP_SIDECAR, HOP_GATEWAY);
                case SNI -> List.of(HOP_SIDECAR, HOP_GATEWAY, HOP_SNI_PROXY);
            };
        }
    }

    private final Shape shape;
    private final InetSocketAddress entry;
    private final Map<String, DataplaneBootstrap> hops;

    private LoopbackChain(Shape shape, InetSocketAddress entry, Map<String, DataplaneBootstrap> hops) {
        this.shape = shape;
        this.entry = entry;
        this.hops = Collections.unmodifiableMap(hops);
    }

    /** {@link #start(Shape, InetSocketAddress, MeshIdentities, int, TlsProvider)} with the default TLS provider ({@code auto}). */
    public static LoopbackChain start(Shape shape, InetSocketAddress target, MeshIdentities ids, int ioThreads)
            throws ListenerBindException {
        return start(shape, target, ids, ioThreads, TlsProvider.DEFAULT);
    }

    /**
     * Starts the hops of {@code shape}, last hop first, in front of {@code target}.
     *
     * @param ioThreads   event-loop threads per hop (0 = Netty's default)
     * @param tlsProvider TLS of every hop's mesh mTLS (the sidecar's and the gateway's alike); the app's TLS and the
     *                    server's are not the hops' and stay JDK
     */
    public static LoopbackChain start(Shape shape, InetSocketAddress target, MeshIdentities ids, int ioThreads, TlsProvider tlsProvider)
            throws ListenerBindException {
        Upstream mongo = Upstream.of(HostAndPort.of(target), "mongo");
        String domain = ids.serverName().substring(ids.serverName().indexOf('.') + 1);
        Map<String, DataplaneBootstrap> started = new LinkedHashMap<>();
        List<DataplaneBootstrap> order = new ArrayList<>();
        try {
            InetSocketAddress entry = switch (shape) {
                case BYPASS -> target;
                case SIDECAR -> start(order, started, HOP_SIDECAR, ListenerConfig.relay("mongo", 0, mongo), null, ioThreads, tlsProvider);
                case GATEWAY -> {
                    InetSocketAddress gw = start(order, started, HOP_GATEWAY,
                            ListenerConfig.sniPassthrough("egress", 0, RouteTable.of(ids.serverName(), mongo)), null, ioThreads, tlsProvider);
                    yield start(order, started, HOP_SIDECAR, ListenerConfig.relay("mongo", 0, Upstream.of(HostAndPort.of(gw), HOP_GATEWAY)),
                            null, ioThreads, tlsProvider);
                }
                case MTLS -> {
                    InetSocketAddress gw = start(order, started, HOP_GATEWAY, ListenerConfig.mtlsTerminating("egress", 0,
                            RouteTable.of(ids.serverName(), mongo)), ids.gatewayTls(), ioThreads, tlsProvider);
                    yield start(order, started, HOP_SIDECAR, ListenerConfig.mtlsOriginating("mongo", 0, Upstream.of(HostAndPort.of(gw), HOP_GATEWAY),
                            new UpstreamTls.MutualTls(ids.serverName(), ids.gatewayId())), ids.sidecarTls(), ioThreads, tlsProvider);
                }
                case SNI -> {
                    InetSocketAddress proxy = start(order, started, HOP_SNI_PROXY,
                            ListenerConfig.sniPassthrough("sni", 0, RouteTable.of("*." + domain, mongo)), null, ioThreads, tlsProvider);
                    InetSocketAddress gw = start(order, started, HOP_GATEWAY, ListenerConfig.mtlsTerminating("egress", 0,
                            RouteTable.of("*." + domain, Upstream.of(HostAndPort.of(proxy), HOP_SNI_PROXY))), ids.gatewayTls(), ioThreads,
                            tlsProvider);
                    yield start(order, started, HOP_SIDECAR, ListenerConfig.mtlsOriginating("mongo", 0, Upstream.of(HostAndPort.of(gw), HOP_GATEWAY),
                            new UpstreamTls.MutualTls(ids.serverName(), ids.gatewayId())), ids.sidecarTls(), ioThreads, tlsProvider);
                }
            };
            Map<String, DataplaneBootstrap> inPathOrder = new LinkedHashMap<>();
            for (String hop : shape.hops()) {
                inPathOrder.put(hop, started.get(hop));
            }
            return new LoopbackChain(shape, entry, inPathOrder);
        } catch (ListenerBindException | RuntimeException e) {
            order.forEach(DataplaneBootstrap::close);
            throw e;
        }
    }

    private static InetSocketAddress start(List<DataplaneBootstrap> order, Map<String, DataplaneBootstrap> started, String name,
            ListenerConfig listener, TlsMaterial tls, int ioThreads, TlsProvider tlsProvider) throws ListenerBindException {
        DataplaneBootstrap b = new DataplaneBootstrap(new ComponentConfig(name, ComponentConfig.DEFAULT_BIND_HOST, 0, ioThreads,
                List.of(listener), tls, tlsProvider));
        order.add(b);
        BoundAddresses bound = b.start();
        started.put(name, b);
        return bound.listener(listener.name());
    }

    public Shape shape() {
        return shape;
    }

    /** Where the app connects. */
    public InetSocketAddress entry() {
        return entry;
    }

    /** The running hops, in path order from the app. */
    public Map<String, DataplaneBootstrap> hops() {
        return hops;
    }

    /** Counters of a hop's only listener. */
    public HopStats stats(String hop) {
        DataplaneBootstrap b = hops.get(hop);
        if (b == null) {
            throw new IllegalArgumentException("chain " + shape + " has no hop " + hop + " (has " + hops.keySet() + ")");
        }
        return b.stats(LISTENER.get(hop));
    }

    @Override
    public void close() {
        hops.values().forEach(DataplaneBootstrap::close);
    }
}
