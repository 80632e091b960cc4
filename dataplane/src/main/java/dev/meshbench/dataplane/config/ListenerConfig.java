package dev.meshbench.dataplane.config;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One listener of a component: it accepts TCP connections on {@code port} and relays each to an upstream.
 *
 * @param name        short id, lower case letters, digits and hyphens (appears in logs, stats and the ready line)
 * @param port        0-65535; 0 binds an ephemeral port
 * @param terminateMtls when true, clients must complete mutual TLS with a certificate from the component's CA, and
 *                    the decrypted stream is relayed (egress gateway in mTLS mode)
 * @param routing     how the upstream is chosen: one fixed upstream, round robin over replicas, or by server name
 * @param upstreamTls how the upstream connection is protected
 */
public record ListenerConfig(String name, int port, boolean terminateMtls, Routing routing, UpstreamTls upstreamTls) {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

    public ListenerConfig {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("listener name must be 1-40 lower case letters, digits or hyphens (got '" + name + "')");
        }
        Ports.check(port, "port of listener " + name, 0);
        Objects.requireNonNull(routing, "routing of listener " + name);
        upstreamTls = upstreamTls == null ? UpstreamTls.NONE : upstreamTls;
        if (routing instanceof Routing.ByTunnelServerName && !terminateMtls) {
            throw new IllegalArgumentException("listener " + name + " routes by the tunnel's server name, so it must terminate mTLS");
        }
        if (routing instanceof Routing.ByPathPrefix && (terminateMtls || upstreamTls != UpstreamTls.NONE)) {
            throw new IllegalArgumentException("listener " + name + ": the HTTP path router speaks plain HTTP on both sides");
        }
        if (routing instanceof Routing.ByClientHello && terminateMtls) {
            throw new IllegalArgumentException("listener " + name + ": routing by the inner ClientHello behind an mTLS terminator is not supported");
        }
    }

    /** A plain relay to one upstream (a sidecar's HTTP listener, or its Mongo listener in case sidecar). */
    public static ListenerConfig relay(String name, int port, Upstream upstream) {
        return new ListenerConfig(name, port, false, new Routing.Fixed(upstream), UpstreamTls.NONE);
    }

    /** A relay that wraps the stream in mutual TLS towards its upstream (sidecar to gateway, cases mtls/sni). */
    public static ListenerConfig mtlsOriginating(String name, int port, Upstream upstream, UpstreamTls.MutualTls tls) {
        return new ListenerConfig(name, port, false, new Routing.Fixed(upstream), tls);
    }

    /** Peeks the ClientHello and routes by its server name (gateway in passthrough mode, SNI proxy). */
    public static ListenerConfig sniPassthrough(String name, int port, RouteTable routes) {
        return new ListenerConfig(name, port, false, new Routing.ByClientHello(routes), UpstreamTls.NONE);
    }

    /** Terminates mutual TLS and routes by the tunnel's server name (gateway in mTLS mode). */
    public static ListenerConfig mtlsTerminating(String name, int port, RouteTable routes) {
        return new ListenerConfig(name, port, true, new Routing.ByTunnelServerName(routes), UpstreamTls.NONE);
    }

    /** Terminates HTTP/1.1 and routes each request by its path (the ingress gateway). */
    public static ListenerConfig httpPathRouter(String name, int port, Routing.ByPathPrefix routing) {
        return new ListenerConfig(name, port, false, routing, UpstreamTls.NONE);
    }

    /** Whether this listener speaks HTTP rather than relaying bytes. */
    public boolean isHttp() {
        return routing instanceof Routing.ByPathPrefix;
    }

    public boolean usesMtls() {
        return terminateMtls || upstreamTls instanceof UpstreamTls.MutualTls;
    }

    /** The same listener on another port. */
    public ListenerConfig withPort(int otherPort) {
        return new ListenerConfig(name, otherPort, terminateMtls, routing, upstreamTls);
    }

    /**
     * This listener as one line of text, for {@code GET /config} when no command-line text defined it: a relay to
     * fixed upstreams in the sidecar's {@code --listener} syntax
     * ({@code name=mongo,port=0,upstream=127.0.0.1:40123,upstream-name=egress-gateway,tls=mtls-originate,sni=...}),
     * any other as {@code name=N,port=P,tls=T,routing=<routing described>}.
     */
    public String describe() {
        StringBuilder b = new StringBuilder("name=").append(name).append(",port=").append(port);
        List<Upstream> upstreams = routing instanceof Routing.Fixed f ? List.of(f.upstream())
                : routing instanceof Routing.RoundRobin rr ? rr.upstreams() : null;
        if (upstreams == null) {
            return b.append(",tls=").append(tlsMode()).append(",routing=").append(routing.describe()).toString();
        }
        b.append(",upstream=").append(upstreams.stream().map(u -> u.address().toString()).collect(Collectors.joining("|")));
        Upstream first = upstreams.get(0);
        if (!first.displayName().equals(first.address().toString())) {
            b.append(",upstream-name=").append(first.displayName());
        }
        if (terminateMtls) {
            b.append(",tls=mtls-terminate");
        } else if (upstreamTls instanceof UpstreamTls.MutualTls mtls) {
            b.append(",tls=mtls-originate,sni=").append(mtls.serverName());
            if (mtls.peerIdentity() != null) {
                b.append(",peer-id=").append(mtls.peerIdentity());
            }
        }
        return b.toString();
    }

    /** The TLS role for stats and logs: none, mtls-originate, mtls-terminate. */
    public String tlsMode() {
        if (terminateMtls) {
            return "mtls-terminate";
        }
        return upstreamTls instanceof UpstreamTls.MutualTls ? "mtls-originate" : "none";
    }
}
