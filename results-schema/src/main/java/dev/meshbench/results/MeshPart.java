package dev.meshbench.results;

import dev.meshbench.model.ComponentNames;
import java.util.Arrays;
import java.util.List;

/**
 * The parts mesh CPU is split into to see where the cases differ: the <b>MongoDB path</b>, where the five cases differ
 * (the egress gateway and the SNI proxy, which carry nothing else, and the share of each sidecar's CPU spent on its
 * service's MongoDB traffic), and the parts every case <b>shares</b> (the ingress gateway, and the rest of each
 * sidecar's CPU: its service's HTTP in and out). The one place that says which component kinds are on the MongoDB
 * path; the converter ({@code ResultsConverter}) and the report read it.
 *
 * <p>A sidecar's share is apportioned by bytes ({@link WorkCounters#MONGO_PATH_BYTES} over
 * {@link WorkCounters#LISTENER_BYTES} in the window), recorded per component as
 * {@link ComponentCpu#mongoPathShare()}; the other kinds are wholly on one side. Apportioning by bytes assumes a byte
 * costs a sidecar the same on every listener, which it does not exactly (HTTP is parsed per request; the MongoDB
 * listener relays TLS records, or in the mTLS cases wraps them once more).
 */
public enum MeshPart {
    EGRESS_GATEWAY(ComponentNames.EGRESS_GATEWAY, true, "egress gateway"),
    SNI_PROXY(ComponentNames.SNI_PROXY, true, "SNI proxy"),
    /** The sidecars' CPU times their MongoDB share. */
    SIDECARS_MONGO(ComponentNames.SIDECAR, true, "sidecars' MongoDB share"),
    INGRESS_GATEWAY(ComponentNames.INGRESS_GATEWAY, false, "ingress gateway"),
    /** The sidecars' CPU times one minus their MongoDB share: the services' HTTP. */
    SIDECARS_HTTP(ComponentNames.SIDECAR, false, "sidecars' HTTP share");

    private final String kind;
    private final boolean mongoPath;
    private final String label;

    MeshPart(String kind, boolean mongoPath, String label) {
        this.kind = kind;
        this.mongoPath = mongoPath;
        this.label = label;
    }

    /** The component kind ({@link ComponentRole#kindOf}) whose CPU this part takes from. */
    public String kind() {
        return kind;
    }

    /** Whether the part is on the MongoDB path (else every case shares it). */
    public boolean onMongoPath() {
        return mongoPath;
    }

    /** The part in words, e.g. {@code sidecars' MongoDB share}. */
    public String label() {
        return label;
    }

    /** The parts on the MongoDB path ({@code true}) or shared ({@code false}), in this enum's order. */
    public static List<MeshPart> side(boolean mongoPath) {
        return Arrays.stream(values()).filter(p -> p.mongoPath == mongoPath).toList();
    }

    /**
     * The share of a component of {@code kind} that is on the MongoDB path when that does not depend on its traffic:
     * 1 for a kind whose parts are all on the MongoDB path, 0 for one whose parts are all shared; {@code null} for a
     * kind with parts on both sides (a sidecar: apportioned by bytes) or a kind no part takes from.
     */
    public static Double fixedShare(String kind) {
        List<MeshPart> parts = Arrays.stream(values()).filter(p -> p.kind.equals(kind)).toList();
        if (parts.isEmpty() || parts.stream().map(MeshPart::onMongoPath).distinct().count() > 1) {
            return null;
        }
        return parts.get(0).mongoPath ? 1.0 : 0.0;
    }

    /** Whether some part takes from components of {@code kind}. */
    public static boolean covers(String kind) {
        return Arrays.stream(values()).anyMatch(p -> p.kind.equals(kind));
    }

    /**
     * This part's CPU milliseconds in {@code cpu}: over the components of its kind, their CPU times their MongoDB
     * share (on the MongoDB path) or one minus it (shared). Components without a share count 0; read it only where
     * the step has {@link StepCpu#attribution()}.
     */
    public double cpuMillis(StepCpu cpu) {
        return cpu.components().stream().mapToDouble(this::cpuMillis).sum();
    }

    /** This part's CPU milliseconds of one component (0 when it is of another kind or has no share). */
    public double cpuMillis(ComponentCpu c) {
        if (c.role() != ComponentRole.MESH || c.mongoPathShare() == null || !ComponentRole.kindOf(c.component()).equals(kind)) {
            return 0;
        }
        return c.cpuMillis() * (mongoPath ? c.mongoPathShare() : 1 - c.mongoPathShare());
    }
}
