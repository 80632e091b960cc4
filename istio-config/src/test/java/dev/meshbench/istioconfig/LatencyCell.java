package dev.meshbench.istioconfig;

import java.util.ArrayList;
import java.util.List;

/**
 * One cell of the latency study's matrix as istio-config lays it out: id {@code <graph>/<scale>/<ingress>/<sidecar>}
 * ({@code double/5/gateway/sidecar}), folder {@code latency/cells/<id with - for />}, which composes
 * {@code latency/services/<graph>} with the components its id names ({@code scale-5}, {@code gateway},
 * {@code sidecar}).
 *
 * @param graph   {@code single} or {@code double}, a file {@code latency/graphs/<graph>.yaml}
 * @param scale   replicas of every graph service (and, outside this tree, of the ingress gateway)
 * @param gateway whether clients enter through Istio's ingress gateway
 * @param sidecar whether every graph service has a sidecar
 */
record LatencyCell(String graph, int scale, boolean gateway, boolean sidecar) {

    static final List<String> GRAPHS = List.of("single", "double");
    static final List<Integer> SCALES = List.of(1, 5);

    /** The 16 cells: graph x scale x ingress x sidecar. */
    static List<LatencyCell> matrix() {
        List<LatencyCell> out = new ArrayList<>();
        for (String graph : GRAPHS) {
            for (int scale : SCALES) {
                for (boolean gateway : List.of(false, true)) {
                    for (boolean sidecar : List.of(false, true)) {
                        out.add(new LatencyCell(graph, scale, gateway, sidecar));
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    /** {@code double/5/gateway/sidecar}, {@code single/1/none/none}. */
    String id() {
        return graph + "/" + scale + "/" + (gateway ? "gateway" : "none") + "/" + (sidecar ? "sidecar" : "none");
    }

    /** The cell's kustomization folder, relative to the module: {@code latency/cells/double-5-gateway-sidecar}. */
    String dir() {
        return LatencyManifests.ROOT + "/cells/" + id().replace('/', '-');
    }

    /** What the cell's kustomization.yaml must list in {@code resources}. */
    List<String> resources() {
        return List.of("../../services/" + graph);
    }

    /** What the cell's kustomization.yaml must list in {@code components}, in this order. */
    List<String> components() {
        List<String> out = new ArrayList<>();
        if (scale == 5) {
            out.add("../../components/scale-5");
        }
        if (gateway) {
            out.add("../../components/gateway");
        }
        if (sidecar) {
            out.add("../../components/sidecar");
        }
        return out;
    }

    @Override
    public String toString() {
        return id();
    }
}
