package dev.meshbench.model;

import static dev.meshbench.model.LinkSecurity.APP_TLS;
import static dev.meshbench.model.LinkSecurity.MESH_MTLS_TUNNEL;

import dev.meshbench.model.Link.Routing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The five egress configurations of the study, as data. Every target (local processes, Kubernetes) reads the
 * same description; switch on it exhaustively (no {@code default}) so a sixth case cannot be half-handled.
 *
 * <p>The ids are {@link CaseIds}' constants; this enum is the list of cases ({@link CaseIds#ALL} reads it). The
 * orchestrator's {@code CaseListConsistencyTest} holds the files that cannot read Java (the root pom's profiles,
 * {@code runs/}, {@code .ci/run} and the {@code Jenkinsfile}) to it.
 *
 * <p>In every case each service has a sidecar that carries its inbound HTTP and its calls to other services; only
 * the path of the service's MongoDB connection differs.
 */
public enum EgressCase {
    BYPASS(CaseIds.BYPASS, "1. bypassing the sidecar",
            "app -> MongoDB; the sidecar exists but ignores the MongoDB address",
            List.of(new Link(HopKind.APP, HopKind.MONGO, APP_TLS, Routing.FIXED))),
    SIDECAR(CaseIds.SIDECAR, "2. through the sidecar, ServiceEntry",
            "app -> sidecar -> MongoDB; the app's TLS passes through the sidecar untouched",
            List.of(new Link(HopKind.APP, HopKind.SIDECAR, APP_TLS, Routing.FIXED),
                    new Link(HopKind.SIDECAR, HopKind.MONGO, APP_TLS, Routing.FIXED))),
    GATEWAY(CaseIds.GATEWAY, "3. egress gateway",
            "app -> sidecar -> egress gateway -> MongoDB; the gateway routes by SNI, TLS passthrough",
            List.of(new Link(HopKind.APP, HopKind.SIDECAR, APP_TLS, Routing.FIXED),
                    new Link(HopKind.SIDECAR, HopKind.EGRESS_GATEWAY, APP_TLS, Routing.SNI_EXACT),
                    new Link(HopKind.EGRESS_GATEWAY, HopKind.MONGO, APP_TLS, Routing.FIXED))),
    MTLS(CaseIds.MTLS, "4. mTLS sidecar <-> egress gateway",
            "app -> sidecar =mTLS=> egress gateway -> MongoDB; the app's TLS travels inside the mTLS tunnel",
            List.of(new Link(HopKind.APP, HopKind.SIDECAR, APP_TLS, Routing.FIXED),
                    new Link(HopKind.SIDECAR, HopKind.EGRESS_GATEWAY, MESH_MTLS_TUNNEL, Routing.FIXED),
                    new Link(HopKind.EGRESS_GATEWAY, HopKind.MONGO, APP_TLS, Routing.FIXED))),
    SNI(CaseIds.SNI, "5. egress gateway + SNI proxy",
            "app -> sidecar =mTLS=> egress gateway -> SNI proxy -> MongoDB; the SNI proxy routes wildcard hosts",
            List.of(new Link(HopKind.APP, HopKind.SIDECAR, APP_TLS, Routing.FIXED),
                    new Link(HopKind.SIDECAR, HopKind.EGRESS_GATEWAY, MESH_MTLS_TUNNEL, Routing.FIXED),
                    new Link(HopKind.EGRESS_GATEWAY, HopKind.SNI_PROXY, APP_TLS, Routing.FIXED),
                    new Link(HopKind.SNI_PROXY, HopKind.MONGO, APP_TLS, Routing.SNI_WILDCARD)));

    private final String id;
    private final String studyName;
    private final String description;
    private final List<Link> mongoPath;

    EgressCase(String id, String studyName, String description, List<Link> mongoPath) {
        this.id = id;
        this.studyName = studyName;
        this.description = description;
        this.mongoPath = List.copyOf(mongoPath);
        checkPath(id, this.mongoPath);
    }

    /** The id users type ({@code -Pcase-<id>}). */
    public String id() {
        return id;
    }

    public String studyName() {
        return studyName;
    }

    public String description() {
        return description;
    }

    /** The links of a service's MongoDB connection, from the app to MongoDB, in order. */
    public List<Link> mongoPath() {
        return mongoPath;
    }

    /** The hops the MongoDB connection passes, app first, MongoDB last. */
    public List<HopKind> mongoHops() {
        List<HopKind> hops = new ArrayList<>();
        hops.add(mongoPath.get(0).from());
        mongoPath.forEach(l -> hops.add(l.to()));
        return hops;
    }

    public boolean passes(HopKind hop) {
        return mongoHops().contains(hop);
    }

    /** True when sidecars and the egress gateway speak mutual TLS to each other. */
    public boolean meshMtls() {
        return mongoPath.stream().anyMatch(l -> l.security() == MESH_MTLS_TUNNEL);
    }

    /**
     * The kustomize overlay of module {@code istio-config} for this case ({@code cases/<id>}, which includes
     * {@code base}): {@code kubectl apply -k istio-config/cases/<id>} applies what the Kubernetes target applies.
     */
    public String istioConfigDir() {
        return "cases/" + id;
    }

    /** Looks a case up by id, with an error that lists the allowed ids. */
    public static EgressCase byId(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("case id is empty; allowed: " + allowedIds());
        }
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(c -> c.id.equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown case '" + id + "'; allowed: " + allowedIds()));
    }

    public static String allowedIds() {
        return Arrays.stream(values()).map(EgressCase::id).collect(Collectors.joining(", "));
    }

    private static void checkPath(String id, List<Link> path) {
        if (path.isEmpty() || path.get(0).from() != HopKind.APP || path.get(path.size() - 1).to() != HopKind.MONGO) {
            throw new IllegalStateException("case " + id + ": the MongoDB path must run from APP to MONGO");
        }
        for (int i = 1; i < path.size(); i++) {
            if (path.get(i - 1).to() != path.get(i).from()) {
                throw new IllegalStateException("case " + id + ": link " + i + " does not start where link " + (i - 1) + " ends");
            }
        }
    }
}
