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
import dev.meshbench.model.ComponentNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.model.Link;
import dev.meshbench.model.LinkSecurity;
import dev.meshbench.model.ListenerNames;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Mongo path of each egress case, built in this JVM from {@link DataplaneBootstrap}s in front of a target
 * address (normally an {@link EchoServer}): for tests that assert per-hop counters and for the JMH benchmarks.
 * The hops and what each does come from the case's description ({@link EgressCase#mongoPath()}); the orchestrator
 * runs the same hops as separate processes through the command line.
 */
public final class LoopbackChain implements AutoCloseable {
    private final EgressCase egressCase;
    private final InetSocketAddress entry;
    private final Map<String, DataplaneBootstrap> hops;

    private LoopbackChain(EgressCase egressCase, InetSocketAddress entry, Map<String, DataplaneBootstrap> hops) {
        this.egressCase = egressCase;
        this.entry = entry;
        this.hops = Collections.unmodifiableMap(hops);
    }

    /**
     * The names of the case's hops, in path order from the app: the chain's one sidecar is
     * {@link ComponentNames#SIDECAR}, the others are named as the kit names them ({@link ComponentNames#ofHop}).
     */
    public static List<String> hopsOf(EgressCase egressCase) {
        return egressCase.mongoHops().stream().filter(h -> h != HopKind.APP && h != HopKind.MONGO).map(LoopbackChain::name).toList();
    }

    /** {@link #start(EgressCase, InetSocketAddress, MeshIdentities, int, TlsProvider)} with the default TLS provider ({@code auto}). */
    public static LoopbackChain start(EgressCase egressCase, InetSocketAddress target, MeshIdentities ids, int ioThreads)
            throws ListenerBindException {
        return start(egressCase, target, ids, ioThreads, TlsProvider.DEFAULT);
    }

    /**
     * Starts the hops of {@code egressCase}, last hop first, in front of {@code target}. A sidecar relays to its one
     * upstream, or originates the mesh's mTLS when its outgoing link is a tunnel; the egress gateway and the SNI proxy
     * route by the ClientHello's server name, or terminate the tunnel and route by its server name. The hosts routed
     * are the MongoDB name, or the domain's wildcard when the case routes wildcard hosts.
     *
     * @param ioThreads   event-loop threads per hop (0 = Netty's default)
     * @param tlsProvider TLS of every hop's mesh mTLS (the sidecar's and the gateway's alike); the app's TLS and the
     *                    server's are not the hops' and stay JDK
     */
    public static LoopbackChain start(EgressCase egressCase, InetSocketAddress target, MeshIdentities ids, int ioThreads,
            TlsProvider tlsProvider) throws ListenerBindException {
        List<Link> path = egressCase.mongoPath();
        String domain = ids.serverName().substring(ids.serverName().indexOf('.') + 1);
        String hosts = path.stream().anyMatch(l -> l.routing() == Link.Routing.SNI_WILDCARD) ? "*." + domain : ids.serverName();
        Map<String, DataplaneBootstrap> started = new LinkedHashMap<>();
        List<DataplaneBootstrap> order = new ArrayList<>();
        try {
            // Backwards from MongoDB: each hop must exist before the one that sends to it.
            InetSocketAddress entry = target;
            Upstream next = Upstream.of(HostAndPort.of(target), ComponentNames.MONGO);
            for (int i = path.size() - 1; i >= 1; i--) {
                Link in = path.get(i - 1);
                Link out = path.get(i);
                HopKind hop = in.to();
                String listenerName = ListenerNames.onMongoPath(hop);
                boolean tunnelIn = in.security() == LinkSecurity.MESH_MTLS_TUNNEL;
                boolean tunnelOut = out.security() == LinkSecurity.MESH_MTLS_TUNNEL;
                ListenerConfig listener = switch (hop) {
                    case SIDECAR -> tunnelOut
                            ? ListenerConfig.mtlsOriginating(listenerName, 0, next, new UpstreamTls.MutualTls(ids.serverName(), ids.gatewayId()))
                            : ListenerConfig.relay(listenerName, 0, next);
                    case EGRESS_GATEWAY, SNI_PROXY -> tunnelIn
                            ? ListenerConfig.mtlsTerminating(listenerName, 0, RouteTable.of(hosts, next))
                            : ListenerConfig.sniPassthrough(listenerName, 0, RouteTable.of(hosts, next));
                    case APP, MONGO -> throw new IllegalStateException("case " + egressCase.id() + ": " + hop + " inside the MongoDB path");
                };
                TlsMaterial tls = tunnelIn ? ids.gatewayTls() : tunnelOut ? ids.sidecarTls() : null;
                entry = start(order, started, name(hop), listener, tls, ioThreads, tlsProvider);
                next = Upstream.of(HostAndPort.of(entry), name(hop));
            }
            Map<String, DataplaneBootstrap> inPathOrder = new LinkedHashMap<>();
            for (String hop : hopsOf(egressCase)) {
                inPathOrder.put(hop, started.get(hop));
            }
            return new LoopbackChain(egressCase, entry, inPathOrder);
        } catch (ListenerBindException | RuntimeException e) {
            order.forEach(DataplaneBootstrap::close);
            throw e;
        }
    }

    private static String name(HopKind hop) {
        return hop == HopKind.SIDECAR ? ComponentNames.SIDECAR : ComponentNames.ofHop(hop);
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

    public EgressCase egressCase() {
        return egressCase;
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
            throw new IllegalArgumentException("chain " + egressCase.id() + " has no hop " + hop + " (has " + hops.keySet() + ")");
        }
        return b.stats(b.config().listeners().get(0).name());
    }

    @Override
    public void close() {
        hops.values().forEach(DataplaneBootstrap::close);
    }
}
