package dev.meshbench.dataplane.stats;

/** Why a listener gave up on a connection before (or while) relaying it; each is counted separately. */
public enum Refusal {
    /** The client's mutual-TLS handshake failed: no certificate, another CA, expired, or not TLS at all. */
    TLS("tls"),
    /** The ClientHello (or mTLS tunnel) named no server, or one no route matches. */
    SNI("sni"),
    /** The bytes before routing were not a usable ClientHello: not TLS, malformed, oversized or too slow. */
    CLIENT_HELLO("clientHello"),
    /** The upstream did not accept the TCP connection (refused, unreachable, timed out). */
    UPSTREAM_CONNECT("upstreamConnect"),
    /** The mutual-TLS handshake this hop originated towards its upstream failed, or the peer identity was wrong. */
    UPSTREAM_TLS("upstreamTls");

    private final String key;

    Refusal(String key) {
        this.key = key;
    }

    /** The name used in the stats JSON. */
    public String key() {
        return key;
    }
}
