package dev.meshbench.dataplane.config;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** How a listener picks the upstream of a new connection. */
public sealed interface Routing {
    /** Every connection goes to one upstream (a sidecar listener, Istio's {@code tcp} route). */
    record Fixed(Upstream upstream) implements Routing {
        public Fixed {
            Objects.requireNonNull(upstream, "upstream");
        }

        @Override
        public String describe() {
            return upstream.describe();
        }
    }

    /**
     * Each new connection goes to the next upstream of the list, in turn (the replicas of one service, what
     * Envoy's TCP proxy does with a {@code ROUND_ROBIN} cluster). The relay does not parse HTTP, so the unit of
     * balancing is the TCP connection, not the request: a client that keeps one connection open sends all its
     * requests to one replica. A connection whose upstream refuses it is closed, not retried on another replica.
     *
     * @param upstreams two or more, distinct addresses, in the order they are taken
     */
    record RoundRobin(List<Upstream> upstreams) implements Routing {
        public RoundRobin {
            Objects.requireNonNull(upstreams, "upstreams");
            upstreams = List.copyOf(upstreams);
            if (upstreams.size() < 2) {
                throw new IllegalArgumentException("round robin needs at least two upstreams (got " + upstreams.size() + ")");
            }
            Set<String> seen = new HashSet<>();
            for (Upstream u : upstreams) {
                if (!seen.add(u.address().toString().toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("upstream " + u.address() + " is given twice");
                }
            }
        }

        @Override
        public String describe() {
            return "round-robin[" + upstreams.stream().map(Upstream::describe).collect(Collectors.joining(", ")) + "]";
        }
    }

    /**
     * Peek the server name in the client's TLS ClientHello without terminating TLS, pick the upstream from the
     * table, then relay every byte including the ClientHello (SNI passthrough gateway, SNI proxy).
     */
    record ByClientHello(RouteTable routes) implements Routing {
        public ByClientHello {
            Objects.requireNonNull(routes, "routes");
        }

        @Override
        public String describe() {
            return "client-hello-sni[" + routes + "]";
        }
    }

    /**
     * Use the server name the client asked for in the mutual-TLS handshake this listener terminated (the egress
     * gateway in mTLS mode, where the sidecar sets SNI to the Mongo host).
     */
    record ByTunnelServerName(RouteTable routes) implements Routing {
        public ByTunnelServerName {
            Objects.requireNonNull(routes, "routes");
        }

        @Override
        public String describe() {
            return "tunnel-sni[" + routes + "]";
        }
    }

    /**
     * Terminate HTTP/1.1 and route each request by method and path or by path prefix ({@link PathRoutes}), over
     * pooled keep-alive connections per upstream (the ingress gateway with a VirtualService). Unlike the TCP relays,
     * the unit routed and counted is the request.
     *
     * @param routes                    the routes and their upstreams
     * @param maxRequestBytes           largest request body accepted; a larger one is answered 413
     * @param maxConnectionsPerUpstream size of each upstream's connection pool; more requests at once wait for one
     */
    record ByPathPrefix(PathRoutes routes, int maxRequestBytes, int maxConnectionsPerUpstream) implements Routing {
        public static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
        public static final int DEFAULT_MAX_CONNECTIONS_PER_UPSTREAM = 64;

        public ByPathPrefix {
            Objects.requireNonNull(routes, "routes");
            if (maxRequestBytes < 0) {
                throw new IllegalArgumentException("max request bytes must be >= 0 (got " + maxRequestBytes + ")");
            }
            if (maxConnectionsPerUpstream < 1) {
                throw new IllegalArgumentException("max connections per upstream must be >= 1 (got " + maxConnectionsPerUpstream + ")");
            }
        }

        @Override
        public String describe() {
            return "path[" + routes + "]";
        }
    }

    /** Short text for logs and stats. */
    String describe();

    /** {@link Fixed} for one upstream, {@link RoundRobin} over several (a service and its replicas). */
    static Routing of(List<Upstream> upstreams) {
        Objects.requireNonNull(upstreams, "upstreams");
        return upstreams.size() == 1 ? new Fixed(upstreams.get(0)) : new RoundRobin(upstreams);
    }
}
