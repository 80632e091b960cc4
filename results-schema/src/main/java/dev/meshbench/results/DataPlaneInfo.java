package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.meshbench.model.ComponentNames;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The data plane that carried a run's mesh traffic: which proxies, which versions, how they were configured.
 * Runs of different data planes are never mixed in one figure.
 *
 * @param name        lower-case id of the data plane: {@code netty} (the kit's stand-in relays) or {@code envoy}
 *                    (Envoy sidecars and gateway, nginx as SNI proxy)
 * @param versions    component kind ({@code ingress-gateway}, {@code sidecar}, {@code egress-gateway},
 *                    {@code sni-proxy}) to the software and version that ran it, e.g. {@code "envoy 1.40.0"}; empty
 *                    when not recorded. Kept in traffic order (ingress gateway, sidecar, egress gateway, SNI proxy,
 *                    then other kinds alphabetically), so the JSON is byte-stable
 * @param workers     worker threads of every proxy (Envoy's {@code --concurrency}, Netty event loops);
 *                    {@code null} when not recorded (runs before schema version 2)
 * @param sidecarMtls whether sidecars speak mutual TLS to each other
 * @param ingress     whether the load came through one entry, the ingress gateway
 *                    ({@link ComponentNames#INGRESS_GATEWAY}), to the services' sidecars; {@code false}: straight to
 *                    each sidecar, as every run before schema version 5
 * @param tlsProvider TLS implementation of the proxies that terminate or originate TLS, e.g. {@code BoringSSL}
 *                    or {@code JDK}; {@code null} when not recorded
 */
@JsonPropertyOrder({"name", "versions", "workers", "sidecarMtls", "ingress", "tlsProvider"})
public record DataPlaneInfo(
        @JsonProperty(required = true) String name,
        @JsonProperty(required = true) Map<String, String> versions,
        Integer workers,
        @JsonProperty(required = true) boolean sidecarMtls,
        @JsonProperty(required = true) boolean ingress,
        String tlsProvider) {

    /** The data plane every run used before it was recorded. */
    public static final String NETTY = "netty";
    /** Envoy sidecars and egress gateway, nginx as SNI proxy. */
    public static final String ENVOY = "envoy";

    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]*");
    /** Component kinds in the order traffic meets them. */
    private static final List<String> KIND_ORDER = List.of(ComponentNames.INGRESS_GATEWAY, ComponentNames.SIDECAR,
            ComponentNames.EGRESS_GATEWAY, ComponentNames.SNI_PROXY);

    public DataPlaneInfo {
        Checks.matches("dataPlane.name", name, ID, "must be a lower-case id such as netty or envoy");
        Checks.present("dataPlane.versions", versions);
        for (Map.Entry<String, String> e : versions.entrySet()) {
            Checks.matches("dataPlane.versions key", e.getKey(), ID, "must be a lower-case component kind such as "
                    + "sidecar, egress-gateway or sni-proxy");
            Checks.text("dataPlane.versions." + e.getKey(), e.getValue());
        }
        versions = Collections.unmodifiableMap(versions.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparingInt(DataPlaneInfo::kindOrder)
                        .thenComparing(Comparator.naturalOrder())))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new)));
        if (workers != null) {
            Checks.positive("dataPlane.workers", workers);
        }
        if (tlsProvider != null) {
            Checks.text("dataPlane.tlsProvider", tlsProvider);
        }
    }

    /**
     * What runs written before schema version 2 used: the kit's Netty relays (their TLS always was the JDK's),
     * plain HTTP between sidecars, the load straight to the sidecars (no ingress), versions and worker threads not
     * recorded.
     */
    public static DataPlaneInfo unknownNetty() {
        return new DataPlaneInfo(NETTY, Map.of(), null, false, false, "JDK");
    }

    /**
     * The name a report uses for series, legends and grouping: {@code "envoy"}, {@code "netty (JDK TLS)"},
     * {@code "netty (BoringSSL TLS)"}, with {@code "no sidecar mTLS"} added in the brackets when sidecars talk plain
     * HTTP to each other and {@code "no ingress"} when the load went straight to the sidecars
     * ({@code "netty (JDK TLS, no sidecar mTLS, no ingress)"}), so runs with and without the ingress gateway are
     * never mixed. The Netty relays' TLS provider is part of the name because it changes what they cost; Envoy
     * always uses BoringSSL.
     */
    @JsonIgnore
    public String label() {
        List<String> qualifiers = new ArrayList<>();
        if (NETTY.equals(name) && tlsProvider != null) {
            qualifiers.add(tlsProvider + " TLS");
        }
        if (!sidecarMtls) {
            qualifiers.add("no sidecar mTLS");
        }
        if (!ingress) {
            qualifiers.add("no ingress");
        }
        return qualifiers.isEmpty() ? name : name + " (" + String.join(", ", qualifiers) + ")";
    }

    /** This data plane with {@code ingress} (a latency cell's own). */
    public DataPlaneInfo withIngress(boolean ingress) {
        return new DataPlaneInfo(name, versions, workers, sidecarMtls, ingress, tlsProvider);
    }

    /** How the load entered the mesh: {@code "through the ingress gateway"} or {@code "straight to the sidecars"}. */
    @JsonIgnore
    public String entry() {
        return ingress ? "through the ingress gateway" : "straight to the sidecars";
    }

    /** {@code "sidecar=envoy 1.40.0, egress-gateway=envoy 1.40.0"}, or {@code "versions not recorded"}. */
    @JsonIgnore
    public String versionsText() {
        if (versions.isEmpty()) {
            return "versions not recorded";
        }
        return versions.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    private static int kindOrder(String kind) {
        int i = KIND_ORDER.indexOf(kind);
        return i >= 0 ? i : KIND_ORDER.size();
    }
}
