package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The content of {@code latency.json}: one cell of the latency study, run once — the run kind
 * {@value ResultsSchema#LATENCY_KIND} of the results schema. The maximum rate comes from a closed loop; the latencies
 * the study compares from an open loop at {@code loadFraction} of it.
 *
 * @param schemaVersion {@link ResultsSchema#VERSION}
 * @param kind          {@link ResultsSchema#LATENCY_KIND}
 * @param runId         unique id, also the run's folder name under {@code results/latency/}
 * @param cellId        {@code <graph>/<scale>/<ingress>/<sidecar>}, e.g. {@code double/5/gateway/sidecar}
 * @param graph         the service graph's name
 * @param scale         replicas of every service (and of the ingress gateway)
 * @param ingress       requests entered through an ingress gateway
 * @param sidecar       every service replica had a sidecar
 * @param target        where the components ran
 * @param dataPlane     the proxies that carried the mesh's traffic; its {@code ingress} is the cell's
 * @param machine       the machine
 * @param kit           meshbench version
 * @param jdk           {@code java.version} of the components and the generator
 * @param generator     the load generator and its version
 * @param startTime     when the cell started (ISO-8601, UTC)
 * @param status        passed, or failed with {@code failureReason}
 * @param failureReason why a failed cell failed; {@code null} otherwise
 * @param settings      every {@code meshbench.*} setting in effect (secrets left out)
 * @param maxRate       the closed-loop phase; {@code null} if the cell failed before it ended
 * @param loadFraction  the fraction of the maximum rate the open-loop phase asked for
 * @param atFraction    the open-loop phase; {@code null} if the cell failed before it ended
 * @param cpuCores      CPU of each component role during the open-loop phase, in cores (CPU seconds per second)
 * @param notes         what a reader should know (fallen-behind schedules, errors, restarts)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"schemaVersion", "kind", "runId", "cellId", "graph", "scale", "ingress", "sidecar", "target", "dataPlane", "machine",
        "kit", "jdk", "generator", "startTime", "status", "failureReason", "settings", "maxRate", "loadFraction", "atFraction",
        "cpuCores", "notes"})
public record LatencyCellResults(
        @JsonProperty(required = true) String schemaVersion,
        @JsonProperty(required = true) String kind,
        @JsonProperty(required = true) String runId,
        @JsonProperty(required = true) String cellId,
        @JsonProperty(required = true) String graph,
        @JsonProperty(required = true) int scale,
        @JsonProperty(required = true) boolean ingress,
        @JsonProperty(required = true) boolean sidecar,
        @JsonProperty(required = true) TargetKind target,
        @JsonProperty(required = true) DataPlaneInfo dataPlane,
        @JsonProperty(required = true) Machine machine,
        @JsonProperty(required = true) String kit,
        @JsonProperty(required = true) String jdk,
        @JsonProperty(required = true) String generator,
        @JsonProperty(required = true) String startTime,
        @JsonProperty(required = true) RunStatus status,
        String failureReason,
        @JsonProperty(required = true) Map<String, String> settings,
        LoadPhase maxRate,
        @JsonProperty(required = true) double loadFraction,
        LoadPhase atFraction,
        @JsonProperty(required = true) Map<String, Double> cpuCores,
        @JsonProperty(required = true) List<String> notes) {

    private static final Pattern CELL = Pattern.compile("[a-z0-9][a-z0-9-]*/[0-9]+/(none|gateway)/(none|sidecar)");

    public LatencyCellResults {
        if (!ResultsSchema.VERSION.equals(schemaVersion)) {
            throw new IllegalArgumentException("schemaVersion (" + schemaVersion + ") of a " + ResultsSchema.LATENCY_KIND
                    + " document must be " + ResultsSchema.VERSION);
        }
        if (!ResultsSchema.LATENCY_KIND.equals(kind)) {
            throw new IllegalArgumentException("kind (" + kind + ") must be " + ResultsSchema.LATENCY_KIND);
        }
        Checks.text("runId", runId);
        Checks.matches("cellId", cellId, CELL, "<graph>/<scale>/none|gateway/none|sidecar");
        String expected = graph + "/" + scale + "/" + (ingress ? "gateway" : "none") + "/" + (sidecar ? "sidecar" : "none");
        if (!expected.equals(cellId)) {
            throw new IllegalArgumentException("cellId (" + cellId + ") disagrees with graph, scale, ingress and sidecar (" + expected + ")");
        }
        Checks.positive("scale", scale);
        Checks.present("target", target);
        Checks.present("dataPlane", dataPlane);
        if (dataPlane.ingress() != ingress) {
            throw new IllegalArgumentException("dataPlane.ingress (" + dataPlane.ingress() + ") disagrees with the cell's "
                    + "ingress (" + ingress + ")");
        }
        Checks.present("machine", machine);
        Checks.text("kit", kit);
        Checks.text("jdk", jdk);
        Checks.text("generator", generator);
        Checks.text("startTime", startTime);
        Checks.present("status", status);
        if (status == RunStatus.FAILED && (failureReason == null || failureReason.isBlank())) {
            throw new IllegalArgumentException("failureReason must say why cell " + cellId + " failed");
        }
        if (status == RunStatus.PASSED && (maxRate == null || atFraction == null)) {
            throw new IllegalArgumentException("a passed cell (" + cellId + ") has both phases");
        }
        settings = new TreeMap<>(Checks.present("settings", settings));
        if (!(loadFraction > 0 && loadFraction <= 1)) {
            throw new IllegalArgumentException("loadFraction (" + loadFraction + ") must be in (0, 1]");
        }
        cpuCores = new TreeMap<>(Checks.present("cpuCores", cpuCores));
        notes = List.copyOf(Checks.present("notes", notes));
    }
}
