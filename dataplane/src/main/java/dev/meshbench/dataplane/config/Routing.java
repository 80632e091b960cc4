package dev.meshbench.dataplane.config;

import java.util.Objects;

/** How a listener picks the upstream of a new connection. */
public sealed interface Routing {
    /** Every connection goes to one upstream (a sidecar listener, Istio's {@code tcp} route). */
    record Fixed(Upstream upstream) implements Routing {
        public Fixed {
            Objects.requireNonNull(upstream, "upstream");
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
    }

    /**
     * Use the server name the client asked for in the mutual-TLS handshake this listener terminated (the egress
     * gateway in mTLS mode, where the sidecar sets SNI to the Mongo host).
     */
    record ByTunnelServerName(RouteTable routes) implements Routing {
        public ByTunnelServerName {
            Objects.requireNonNull(routes, "routes");
        }
    }

    /** Short text for logs and stats. */
    default String describe() {
        if (this instanceof Fixed f) {
            return f.upstream().describe();
        }
        if (this instanceof ByClientHello c) {
            return "client-hello-sni[" + c.routes() + "]";
        }
        return "tunnel-sni[" + ((ByTunnelServerName) this).routes() + "]";
    }
}
