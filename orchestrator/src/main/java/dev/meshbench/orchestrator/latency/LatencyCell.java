package dev.meshbench.orchestrator.latency;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One cell of the latency study's matrix: which service graph, how many replicas of each of its services (and of
 * the ingress gateway), whether requests enter through an ingress gateway, and whether every service has a sidecar.
 * Its id, {@code <graph>/<scale>/<ingress>/<sidecar>} ({@code double/5/gateway/sidecar}, {@code single/1/none/none}),
 * is what users select cells by and what results record.
 *
 * @param graph   the service graph's name ({@code single}, {@code double}, or a user's graph file's base name)
 * @param scale   replicas of every service and of the ingress gateway
 * @param ingress whether clients go through an ingress gateway
 * @param sidecar whether every service replica has a sidecar
 */
public record LatencyCell(String graph, int scale, boolean ingress, boolean sidecar) {
    /** The scales of the study's matrix. */
    public static final List<Integer> SCALES = List.of(1, 5);
    public static final String NONE = "none";
    public static final String GATEWAY = "gateway";
    public static final String SIDECAR = "sidecar";
    /** A graph name: what fits in a cell id and a folder name. */
    private static final Pattern GRAPH_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

    public LatencyCell {
        Objects.requireNonNull(graph, "graph");
        if (!GRAPH_NAME.matcher(graph).matches()) {
            throw new IllegalArgumentException("graph name '" + graph + "' must be lower-case letters, digits and '-' (at most 40)");
        }
        if (scale < 1 || scale > 20) {
            throw new IllegalArgumentException("scale " + scale + " of graph " + graph + " must be between 1 and 20");
        }
    }

    /** {@code double/5/gateway/sidecar}. */
    public String id() {
        return graph + "/" + scale + "/" + (ingress ? GATEWAY : NONE) + "/" + (sidecar ? SIDECAR : NONE);
    }

    /** The id with {@code -} for {@code /}: a folder name, and the cell's kustomize folder in istio-config. */
    public String slug() {
        return id().replace('/', '-');
    }

    /** The components of the mesh this cell has, as the study's table says it: {@code ingress+sidecar}, {@code none}. */
    public String mesh() {
        if (ingress && sidecar) {
            return GATEWAY + "+" + SIDECAR;
        }
        return ingress ? GATEWAY : sidecar ? SIDECAR : NONE;
    }

    /** The cell without ingress and sidecar: the no-mesh baseline each cell's added latency is measured against. */
    public LatencyCell baseline() {
        return new LatencyCell(graph, scale, false, false);
    }

    /**
     * The full matrix over {@code graphs}, in the gist's order: by scale, then no mesh, ingress, ingress and
     * sidecar, sidecar, each for every graph.
     */
    public static List<LatencyCell> matrix(List<String> graphs) {
        List<LatencyCell> out = new ArrayList<>();
        boolean[][] meshes = {{false, false}, {true, false}, {true, true}, {false, true}};
        for (int scale : SCALES) {
            for (boolean[] m : meshes) {
                for (String g : graphs) {
                    out.add(new LatencyCell(g, scale, m[0], m[1]));
                }
            }
        }
        return out;
    }

    /**
     * The cells of {@code matrix} that {@code selection} names, in matrix order: comma-separated ids where any part
     * may be {@code *} ({@code single/1/none/sidecar}, {@code double/*}{@code /none/*}, {@code all}). A pattern that
     * matches no cell is refused, naming it and the matrix's cells.
     */
    public static List<LatencyCell> select(List<LatencyCell> matrix, String key, String selection) {
        String value = selection == null ? "" : selection.trim();
        if (value.isEmpty() || value.equalsIgnoreCase("all")) {
            return List.copyOf(matrix);
        }
        Set<LatencyCell> chosen = new LinkedHashSet<>();
        for (String raw : value.split(",")) {
            String pattern = raw.trim().toLowerCase(Locale.ROOT);
            String[] parts = pattern.split("/", -1);
            if (parts.length != 4) {
                throw new IllegalArgumentException(key + "=" + selection + ": '" + raw.trim()
                        + "' is not <graph>/<scale>/<ingress>/<sidecar>, e.g. single/1/none/sidecar (any part may be *)");
            }
            check(key, selection, parts[2], NONE, GATEWAY, "ingress");
            check(key, selection, parts[3], NONE, SIDECAR, "sidecar");
            List<LatencyCell> hits = matrix.stream().filter(c -> matches(c, parts)).toList();
            if (hits.isEmpty()) {
                throw new IllegalArgumentException(key + "=" + selection + ": '" + raw.trim() + "' matches no cell; cells are "
                        + String.join(", ", matrix.stream().map(LatencyCell::id).toList()));
            }
            chosen.addAll(hits);
        }
        return matrix.stream().filter(chosen::contains).toList();
    }

    private static void check(String key, String selection, String part, String a, String b, String what) {
        if (!part.equals("*") && !part.equals(a) && !part.equals(b)) {
            throw new IllegalArgumentException(key + "=" + selection + ": " + what + " '" + part + "' must be " + a + ", " + b + " or *");
        }
    }

    private static boolean matches(LatencyCell c, String[] p) {
        return (p[0].equals("*") || p[0].equals(c.graph))
                && (p[1].equals("*") || p[1].equals(Integer.toString(c.scale)))
                && (p[2].equals("*") || p[2].equals(c.ingress ? GATEWAY : NONE))
                && (p[3].equals("*") || p[3].equals(c.sidecar ? SIDECAR : NONE));
    }
}
