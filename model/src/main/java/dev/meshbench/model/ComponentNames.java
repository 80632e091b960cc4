package dev.meshbench.model;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The names of the sampled components, as results files, CPU samples and the report spell them: the one place that
 * says what the four Acmeair services are called, what a sidecar, the egress gateway, the SNI proxy and MongoDB are
 * called, and in which order traffic meets them. The orchestrator names its processes and pods with these; the
 * report orders its tables with {@link #trafficOrder()}; test fixtures build their runs from them.
 */
public final class ComponentNames {
    /** The Acmeair services, callees before callers (the order they start in): {@link Service#ids()}. */
    public static final List<String> SERVICES = Service.ids();
    public static final String MONGO = "mongo";
    /** The one entry in front of the services (Istio's ingress gateway); the latency study numbers its replicas. */
    public static final String INGRESS_GATEWAY = "ingress-gateway";
    public static final String EGRESS_GATEWAY = "egress-gateway";
    public static final String SNI_PROXY = "sni-proxy";
    /** Sidecars as one kind (a data plane's versions name them so; the loopback chain's one sidecar). */
    public static final String SIDECAR = "sidecar";
    private static final String SIDECAR_PREFIX = SIDECAR + "-";

    private ComponentNames() {
    }

    /** A service's sidecar's component name: {@code sidecar-<service>}. */
    public static String sidecarOf(String service) {
        return SIDECAR_PREFIX + service;
    }

    /** Whether {@code component} is a service's sidecar. */
    public static boolean isSidecar(String component) {
        return component.startsWith(SIDECAR_PREFIX) && component.length() > SIDECAR_PREFIX.length();
    }

    /** The component a hop of the MongoDB path is, for the hops that are one component (not a service or its sidecar). */
    public static String ofHop(HopKind hop) {
        return switch (hop) {
            case EGRESS_GATEWAY -> EGRESS_GATEWAY;
            case SNI_PROXY -> SNI_PROXY;
            case MONGO -> MONGO;
            case APP, SIDECAR -> throw new IllegalArgumentException(hop + " is one component per service: name it by the service");
        };
    }

    private static final Map<String, Integer> MESH_HOPS = Map.of(INGRESS_GATEWAY, 0, EGRESS_GATEWAY, 2, SNI_PROXY, 3);

    /**
     * Components within one role in the order a request's traffic meets them: the ingress gateway, the services'
     * sidecars (by service name), then the egress gateway, then the SNI proxy, then anything else by name.
     */
    public static Comparator<String> trafficOrder() {
        return Comparator.comparingInt((String n) -> isSidecar(n) ? 1 : MESH_HOPS.getOrDefault(n, 4))
                .thenComparing(Comparator.naturalOrder());
    }
}
