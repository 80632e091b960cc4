package dev.meshbench.model;

/** A component a service's MongoDB traffic can pass through. */
public enum HopKind {
    /** The service itself: it opens the TLS connection to MongoDB. */
    APP,
    /** The service's sidecar proxy. */
    SIDECAR,
    /** The mesh's egress gateway. */
    EGRESS_GATEWAY,
    /** An SNI proxy (nginx {@code ssl_preread} in the study) next to the egress gateway. */
    SNI_PROXY,
    /** The external MongoDB. */
    MONGO
}
