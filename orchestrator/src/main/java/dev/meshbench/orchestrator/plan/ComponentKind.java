package dev.meshbench.orchestrator.plan;

import dev.meshbench.orchestrator.target.Role;

/** What a component of a topology is; its CPU counts towards {@link #role()}. */
public enum ComponentKind {
    /** The external MongoDB (TLS). */
    DATABASE(Role.DATABASE),
    /** One Acmeair service. */
    SERVICE(Role.APP),
    /** A service's sidecar proxy. */
    SIDECAR(Role.MESH),
    /** The mesh's egress gateway. */
    EGRESS_GATEWAY(Role.MESH),
    /** The mesh's ingress gateway (the latency study's Istio ingress). */
    INGRESS_GATEWAY(Role.MESH),
    /** The SNI proxy next to the egress gateway (nginx {@code ssl_preread} in the study). */
    SNI_PROXY(Role.MESH);

    private final Role role;

    ComponentKind(Role role) {
        this.role = role;
    }

    public Role role() {
        return role;
    }

    /** True for the proxies a data plane provides. */
    public boolean isProxy() {
        return role == Role.MESH;
    }
}
