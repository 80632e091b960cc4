package dev.meshbench.dataplane.config;

import java.net.URI;

/** What a listener's connection to its upstream looks like on the wire. */
public sealed interface UpstreamTls {
    /** Plain TCP (whatever the client sent, the app's own TLS included, passes untouched). */
    record None() implements UpstreamTls {
    }

    /**
     * Mutual TLS originated by this hop with the component's workload certificate (an Istio sidecar towards the
     * egress gateway, {@code ISTIO_MUTUAL}). The server certificate must chain to the component's CA; when
     * {@code peerIdentity} is given, it must also carry that URI SAN (a SPIFFE id). Host name verification does
     * not apply: mesh peers are identified by SPIFFE ids, and the SNI names the external host, not the peer.
     *
     * @param serverName   SNI to send (the external host, e.g. {@code mongo.meshbench.test})
     * @param peerIdentity expected URI SAN of the upstream's certificate, or null to accept any from the CA
     */
    record MutualTls(String serverName, URI peerIdentity) implements UpstreamTls {
        public MutualTls {
            serverName = DnsNames.requireHostName(serverName, "sni");
            if (peerIdentity != null && !peerIdentity.isAbsolute()) {
                throw new IllegalArgumentException("peer identity must be an absolute URI like spiffe://cluster.local/ns/x/sa/y (got '"
                        + peerIdentity + "')");
            }
        }
    }

    UpstreamTls NONE = new None();
}
