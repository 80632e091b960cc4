package dev.meshbench.orchestrator.plan;

import dev.meshbench.component.AcmeairApi;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One listening port of a component and what it does with each connection.
 *
 * @param name        short id, unique within the component; also the stat prefix in Envoy and the key in
 *                    {@code hops.json}
 * @param protocol    what the listener parses: HTTP (an HTTP connection manager in Envoy) or TCP (bytes only)
 * @param inbound     what clients must speak to it
 * @param routing     where connections go; empty for a final destination (a service, MongoDB)
 * @param upstreamTls mutual TLS this listener originates towards its upstream, if any
 */
public record ListenerPlan(String name, Protocol protocol, InboundTls inbound, Optional<Routing> routing,
        Optional<OriginateMtls> upstreamTls) {

    public ListenerPlan {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(inbound, "inbound");
        Objects.requireNonNull(routing, "routing");
        Objects.requireNonNull(upstreamTls, "upstreamTls");
        if (upstreamTls.isPresent() && routing.isEmpty()) {
            throw new IllegalArgumentException("listener " + name + " originates mTLS but has no upstream");
        }
        if (routing.orElse(null) instanceof Routing.ByServerName r && r.source() == SniSource.TUNNEL
                && inbound != InboundTls.MESH_MTLS) {
            throw new IllegalArgumentException("listener " + name + " routes by the tunnel's server name, so it must terminate mesh mTLS");
        }
        if (routing.orElse(null) instanceof Routing.ByPath && protocol != Protocol.HTTP) {
            throw new IllegalArgumentException("listener " + name + " routes by path, so it must parse HTTP");
        }
    }

    /** A listener that is the destination itself (a service's HTTP port, MongoDB's port). */
    public static ListenerPlan destination(String name, Protocol protocol, InboundTls inbound) {
        return new ListenerPlan(name, protocol, inbound, Optional.empty(), Optional.empty());
    }

    /** Every endpoint this listener may send to. */
    public List<Endpoint> upstreams() {
        return routing.map(Routing::upstreams).orElse(List.of());
    }

    /** The TLS role, as {@code hops.json} names it: none, mtls-originate, mtls-terminate. */
    public String tlsMode() {
        if (inbound == InboundTls.MESH_MTLS) {
            return "mtls-terminate";
        }
        return upstreamTls.isPresent() ? "mtls-originate" : "none";
    }

    /** What a listener parses. */
    public enum Protocol {
        HTTP,
        TCP
    }

    /** What clients of a listener must speak. */
    public enum InboundTls {
        /** Plain TCP (the app's own TLS, if any, passes through untouched). */
        PLAIN,
        /** The server's own TLS (MongoDB): the app's TLS session ends here. */
        SERVER_TLS,
        /** Only mutual TLS with a certificate of the mesh CA (Istio's ISTIO_MUTUAL / STRICT). */
        MESH_MTLS
    }

    /** Which server name a listener routes by. */
    public enum SniSource {
        /** The server name in the app's own ClientHello, read without terminating TLS ({@code tls_inspector}, {@code ssl_preread}). */
        CLIENT_HELLO,
        /** The server name of the mesh mTLS handshake this listener terminates (Istio's DestinationRule {@code sni}). */
        TUNNEL
    }

    /** Where a listener sends its connections. */
    public sealed interface Routing {
        List<Endpoint> upstreams();

        /** Always the same upstream. */
        record Fixed(Endpoint upstream) implements Routing {
            public Fixed {
                Objects.requireNonNull(upstream, "upstream");
            }

            @Override
            public List<Endpoint> upstreams() {
                return List.of(upstream);
            }
        }

        /**
         * Each new connection (Netty relays) or request (Envoy's HTTP listeners) to the next of several replicas of
         * one service, in turn: a Kubernetes service's endpoints as a sidecar or gateway balances over them.
         *
         * @param host      the service's host name (Envoy's cluster {@code outbound|80||<host>})
         * @param upstreams the replicas' listeners, at least one, no duplicates
         */
        record RoundRobin(String host, List<Endpoint> upstreams) implements Routing {
            public RoundRobin {
                Objects.requireNonNull(host, "host");
                upstreams = List.copyOf(upstreams);
                if (upstreams.isEmpty()) {
                    throw new IllegalArgumentException("round robin over " + host + " needs at least one upstream");
                }
                if (upstreams.stream().distinct().count() != upstreams.size()) {
                    throw new IllegalArgumentException("round robin over " + host + " names an upstream twice: " + upstreams);
                }
            }
        }

        /**
         * By server name: the first route whose pattern matches (a host name or {@code *.domain}); no match, the
         * connection is refused.
         */
        record ByServerName(SniSource source, List<ServerNameRoute> routes) implements Routing {
            public ByServerName {
                Objects.requireNonNull(source, "source");
                routes = List.copyOf(routes);
                if (routes.isEmpty()) {
                    throw new IllegalArgumentException("routing by server name needs at least one route");
                }
            }

            @Override
            public List<Endpoint> upstreams() {
                return routes.stream().map(ServerNameRoute::upstream).distinct().toList();
            }
        }

        /**
         * Each HTTP request by its method and path (an ingress gateway's {@code VirtualService} of {@code method} and
         * {@code uri} matches): only the routes listed are served; anything else, the entry answers 404 itself.
         */
        record ByPath(List<PathRoute> routes) implements Routing {
            public ByPath {
                routes = List.copyOf(routes);
                if (routes.isEmpty()) {
                    throw new IllegalArgumentException("routing by path needs at least one route");
                }
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (PathRoute r : routes) {
                    if (!seen.add(r.operation().toString())) {
                        throw new IllegalArgumentException("routing by path names " + r.operation() + " twice: " + routes);
                    }
                }
            }

            @Override
            public List<Endpoint> upstreams() {
                return routes.stream().map(PathRoute::upstream).distinct().toList();
            }
        }
    }

    /**
     * One route of an HTTP entry: one operation of the API (Istio's {@code VirtualService} {@code http.match} of
     * {@code method} and {@code uri}) to its upstream.
     *
     * @param operation the method and path template ({@code GET /customer/byid/{custid}}: a {@code {name}} segment
     *                  matches any one segment, anything else exactly)
     * @param upstream  where matching requests go
     */
    public record PathRoute(AcmeairApi.Operation operation, Endpoint upstream) {
        public PathRoute {
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(upstream, "upstream");
        }
    }

    /**
     * One server-name route.
     *
     * @param pattern  host name or {@code *.domain}
     * @param upstream where matching connections go
     */
    public record ServerNameRoute(String pattern, Endpoint upstream) {
        public ServerNameRoute {
            Objects.requireNonNull(pattern, "pattern");
            Objects.requireNonNull(upstream, "upstream");
        }
    }

    /**
     * Mutual TLS originated towards the upstream with this component's workload certificate.
     *
     * @param serverName SNI sent (the external host for the egress gateway, the peer's service name between sidecars)
     * @param peer       identity the upstream's certificate must carry
     */
    public record OriginateMtls(String serverName, Identity peer) {
        public OriginateMtls {
            Objects.requireNonNull(serverName, "serverName");
            Objects.requireNonNull(peer, "peer");
        }
    }
}
