package dev.meshbench.orchestrator.plan;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Which proxies carry the mesh's traffic on the local target. */
public enum DataPlane {
    /** The kit's own Netty relays: zero install, but not what Istio's Envoy costs. */
    NETTY("netty"),
    /** Real Envoy sidecars and gateway, as Istio runs them, and nginx {@code stream}/{@code ssl_preread} as SNI proxy. */
    ENVOY("envoy");

    private final String id;

    DataPlane(String id) {
        this.id = id;
    }

    /** The id users type ({@code -Dmeshbench.dataplane=envoy}) and results record. */
    public String id() {
        return id;
    }

    /** Looks a data plane up by id, with an error that lists the allowed ids. */
    public static DataPlane byId(String id) {
        String wanted = id == null ? "" : id.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(d -> d.id.equals(wanted)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("'" + id + "' is not a data plane; allowed: " + allowedIds()));
    }

    public static String allowedIds() {
        return Arrays.stream(values()).map(DataPlane::id).collect(Collectors.joining(", "));
    }
}
