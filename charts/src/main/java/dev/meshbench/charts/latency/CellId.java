package dev.meshbench.charts.latency;

import dev.meshbench.results.LatencyCellResults;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One cell of the latency study's matrix, written {@code <graph>/<scale>/<ingress>/<sidecar>} as in
 * {@link LatencyCellResults#cellId()}: e.g. {@code double/5/gateway/sidecar}.
 *
 * @param graph   the service graph: {@code single} (one service) or {@code double} (frontend calling backend), or a
 *                graph of the user's
 * @param scale   replicas of every service (and of the ingress gateway)
 * @param ingress requests enter through an ingress gateway
 * @param sidecar every service replica has a sidecar
 */
public record CellId(String graph, int scale, boolean ingress, boolean sidecar) {
    /** Graphs in the gist's order; other graphs follow, alphabetically. */
    public static final List<String> KNOWN_GRAPHS = List.of("single", "double");

    /**
     * The gist's row order: scale; then no mesh, gateway, gateway and sidecar, sidecar; then graph ({@code single},
     * {@code double}, others alphabetically).
     */
    public static final Comparator<CellId> GIST_ORDER = Comparator.comparingInt(CellId::scale)
            .thenComparingInt(CellId::gistMeshOrder)
            .thenComparingInt(c -> graphOrder(c.graph()))
            .thenComparing(CellId::graph);

    /**
     * The order of the added-latency chart: scale, graph, then what the mesh adds: gateway, sidecar, both (the
     * no-mesh cell, the baseline, first).
     */
    public static final Comparator<CellId> ADDED_ORDER = Comparator.comparingInt(CellId::scale)
            .thenComparingInt(c -> graphOrder(c.graph()))
            .thenComparing(CellId::graph)
            .thenComparingInt(c -> (c.ingress() ? 1 : 0) + (c.sidecar() ? 2 : 0));

    public CellId {
        Objects.requireNonNull(graph, "graph");
        if (scale <= 0) {
            throw new IllegalArgumentException("scale (" + scale + ") of cell " + graph + " must be positive");
        }
    }

    /** The cell a latency.json measured. */
    public static CellId of(LatencyCellResults r) {
        return new CellId(r.graph(), r.scale(), r.ingress(), r.sidecar());
    }

    /** Parses {@code <graph>/<scale>/none|gateway/none|sidecar}, naming the part that is wrong. */
    public static CellId parse(String id) {
        String[] p = id.split("/", -1);
        if (p.length != 4 || p[0].isEmpty()) {
            throw new IllegalArgumentException("cell \"" + id + "\" is not <graph>/<scale>/none|gateway/none|sidecar");
        }
        int scale;
        try {
            scale = Integer.parseInt(p[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("cell \"" + id + "\": scale \"" + p[1] + "\" is not a number", e);
        }
        if (!p[2].equals("none") && !p[2].equals("gateway")) {
            throw new IllegalArgumentException("cell \"" + id + "\": ingress \"" + p[2] + "\" is not none|gateway");
        }
        if (!p[3].equals("none") && !p[3].equals("sidecar")) {
            throw new IllegalArgumentException("cell \"" + id + "\": sidecar \"" + p[3] + "\" is not none|sidecar");
        }
        return new CellId(p[0], scale, p[2].equals("gateway"), p[3].equals("sidecar"));
    }

    /** {@code <graph>/<scale>/<ingress>/<sidecar>}. */
    public String id() {
        return graph + "/" + scale + "/" + ingressId() + "/" + sidecarId();
    }

    /** {@code gateway} or {@code none}. */
    public String ingressId() {
        return ingress ? "gateway" : "none";
    }

    /** {@code sidecar} or {@code none}. */
    public String sidecarId() {
        return sidecar ? "sidecar" : "none";
    }

    /** True for a cell without mesh: no gateway, no sidecar. */
    public boolean isBaseline() {
        return !ingress && !sidecar;
    }

    /** The same graph and scale without mesh ({@code <graph>/<scale>/none/none}): what added latency is measured over. */
    public CellId baseline() {
        return new CellId(graph, scale, false, false);
    }

    /** What the mesh of this cell is: {@code no mesh}, {@code gateway}, {@code sidecar} or {@code gateway+sidecar}. */
    public String mesh() {
        if (ingress && sidecar) {
            return "gateway+sidecar";
        }
        return ingress ? "gateway" : sidecar ? "sidecar" : "no mesh";
    }

    @Override
    public String toString() {
        return id();
    }

    private int gistMeshOrder() {
        if (!ingress) {
            return sidecar ? 3 : 0;
        }
        return sidecar ? 2 : 1;
    }

    private static int graphOrder(String graph) {
        int i = KNOWN_GRAPHS.indexOf(graph);
        return i >= 0 ? i : KNOWN_GRAPHS.size();
    }
}
