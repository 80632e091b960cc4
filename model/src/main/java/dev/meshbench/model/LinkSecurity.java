package dev.meshbench.model;

/** What protects the bytes on one link of the MongoDB path. */
public enum LinkSecurity {
    /** Only the app's own TLS session to MongoDB, passed through untouched. */
    APP_TLS,
    /** The app's TLS travels inside a mutual-TLS tunnel between mesh proxies (Istio's ISTIO_MUTUAL). */
    MESH_MTLS_TUNNEL
}
