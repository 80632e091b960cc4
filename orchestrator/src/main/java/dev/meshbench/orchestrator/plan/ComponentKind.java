package dev.meshbench.orchestrator.plan;

import dev.meshbench.results.ComponentRole;

/** What a component of a topology is; its CPU counts towards {@link #role()}. */
public enum ComponentKind {
    /** The external MongoDB (TLS). */
    DATABASE(ComponentRole.DATABASE),
    /** One Acmeair service. */
    SERVICE(ComponentRole.APP),
    /** A service's sidecar proxy. */
    SIDECAR(ComponentRole.MESH),
    /** The mesh's egress gateway. */
    EGRESS_GATEWAY(ComponentRole.MESH),
    /** The mesh's ingress gateway (the latency study's Istio ingress). */
    INGRESS_GATEWAY(ComponentRole.MESH),
    /** The SNI proxy next to the egress gateway (nginx {@code ssl_preread} in the study). */
    SNI_PROXY(ComponentRole.MESH);

    private final ComponentRole role;

    ComponentKind(ComponentRole role) {
        this.role = role;
    }

    public ComponentRole role() {
        return role;
    }

    /** True for the proxies a data plane provides. */
    public boolean isProxy() {
        return role == ComponentRole.MESH;
    }
}
