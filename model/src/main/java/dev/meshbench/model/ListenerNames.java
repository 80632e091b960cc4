package dev.meshbench.model;

/**
 * The names of the components' listeners, as topology plans, proxy command lines, rendered Envoy and nginx
 * configurations and the proxies' counters spell them.
 */
public final class ListenerNames {
    /** A service's own HTTP listener. */
    public static final String HTTP = "http";
    /** A sidecar's inbound HTTP, in front of its service. */
    public static final String INBOUND = "inbound";
    /** A sidecar's inbound HTTP over the mesh's mutual TLS. */
    public static final String INBOUND_MESH = "inbound-mesh";
    /** Where a service's MongoDB connection enters: MongoDB itself, or the service's sidecar. */
    public static final String MONGO = "mongo";
    /** The egress gateway's listener. */
    public static final String EGRESS = "egress";
    /** The SNI proxy's listener. */
    public static final String SNI = "sni";
    /** The ingress gateway's one listener. */
    public static final String INGRESS = "ingress";

    private ListenerNames() {
    }

    /** The listener of a caller's sidecar that carries its calls to {@code peer}: {@code to-<peer>}. */
    public static String toPeer(String peer) {
        return "to-" + peer;
    }

    /** The listener on which a hop of the MongoDB path receives that path's traffic. */
    public static String onMongoPath(HopKind hop) {
        return switch (hop) {
            case SIDECAR, MONGO -> MONGO;
            case EGRESS_GATEWAY -> EGRESS;
            case SNI_PROXY -> SNI;
            case APP -> throw new IllegalArgumentException("the MongoDB path starts at the app: nothing leads into it");
        };
    }
}
