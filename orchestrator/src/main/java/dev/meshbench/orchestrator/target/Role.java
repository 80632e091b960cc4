package dev.meshbench.orchestrator.target;

import java.util.Locale;

/** What a component is, for attributing CPU: the mesh's cost is the sum over {@link #MESH}. */
public enum Role {
    /** Sidecars, egress gateway, SNI proxy. */
    MESH,
    /** The Acmeair services. */
    APP,
    /** MongoDB. */
    DATABASE,
    /** The load generator. */
    LOAD;

    /** The lower-case name written in {@code cpu-samples.csv}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
