package dev.meshbench.component;

/**
 * Host names the kit's components agree on: the name under which the services reach MongoDB (and that its
 * certificate carries), and the domain the SNI proxy's wildcard serves. The embedded MongoDB, the data plane's
 * loopback identities and the orchestrator's topology plans all read them from here.
 */
public final class MeshNames {
    /** The kit's own test domain (never resolved by DNS: processes map it to loopback themselves). */
    public static final String DOMAIN = "meshbench.test";
    /** The name services use for MongoDB: a name (not an IP literal), so the driver sends SNI. */
    public static final String MONGO_HOST = "mongo." + DOMAIN;
    /** The wildcard the mesh serves in cases with an SNI proxy, as the study's {@code *.com}. */
    public static final String MONGO_WILDCARD = "*." + DOMAIN;

    private MeshNames() {
    }
}
