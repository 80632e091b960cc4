package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.orchestrator.latency.LatencyCell;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The manifests of one latency cell on a cluster: {@code istio-config}'s overlay {@code latency/cells/<slug>} (the
 * graph's services, with components scale-5, gateway and sidecar as the cell has them) rendered into the kit's
 * namespace with the services' image of the run. What the cell's entry is comes from the manifests themselves:
 * the namespace's {@value #ENTRYPOINT_ANNOTATION} annotation names the entrypoint Service, the Gateway's server its
 * port on Istio's ingress gateway.
 *
 * <p>The overlay's load client (fortio, labelled {@value #COMPONENT}={@value #LOAD_CLIENT}) is left out: the kit's
 * own generator runs where Maven runs.
 */
public final class LatencyManifests {
    /** The folder of the cells in {@code istio-config}. */
    public static final String CELLS = "latency/cells/";
    public static final String ENTRYPOINT_ANNOTATION = "meshbench.dev/entrypoint";
    static final String COMPONENT = "app.kubernetes.io/component";
    static final String LOAD_CLIENT = "load-client";
    static final String GRAPH_NODE = "graph-node";

    private LatencyManifests() {
    }

    /** {@code latency/cells/double-5-gateway-sidecar}. */
    public static String dir(LatencyCell cell) {
        return CELLS + cell.slug();
    }

    /**
     * Renders a cell into {@code namespace}; a cell that {@code istio-config} has no folder for (a graph of the user's
     * own) is refused, naming the cell and the folder.
     *
     * @param images original image name ({@value KubernetesSettings#SERVICES_IMAGE}) to the reference to run
     */
    public static List<ObjectNode> render(LatencyCell cell, String namespace, Map<String, String> images, KubectlKustomize kustomize,
            java.util.Optional<java.nio.file.Path> tree) {
        String dir = dir(cell);
        boolean present = tree.map(t -> java.nio.file.Files.isRegularFile(t.resolve(dir).resolve("kustomization.yaml")))
                .orElseGet(() -> LatencyManifests.class.getClassLoader().getResource("istio-config/" + dir + "/kustomization.yaml") != null);
        if (!present) {
            throw new IllegalArgumentException("cell " + cell.id() + " has no manifests (istio-config/" + dir + "): on a cluster the "
                    + "latency study runs the graphs istio-config/latency/services has (single, double) at scales 1 and 5");
        }
        return kustomize.build(tree, dir, new KubectlKustomize.Parameters(namespace, images, Map.of())).stream()
                .filter(d -> !LOAD_CLIENT.equals(d.path("metadata").path("labels").path(COMPONENT).asText()))
                .toList();
    }

    /** The graph's entrypoint Service: the namespace's {@value #ENTRYPOINT_ANNOTATION} annotation. */
    public static String entrypoint(List<ObjectNode> docs) {
        return docs.stream().filter(d -> "Namespace".equals(d.path("kind").asText()))
                .map(d -> d.path("metadata").path("annotations").path(ENTRYPOINT_ANNOTATION).asText(""))
                .filter(s -> !s.isEmpty()).findFirst()
                .orElseThrow(() -> new IllegalStateException("the cell's Namespace has no " + ENTRYPOINT_ANNOTATION + " annotation"));
    }

    /** The graph's services: the Deployments labelled {@value #COMPONENT}={@value #GRAPH_NODE}, in the manifests' order. */
    public static List<String> graphServices(List<ObjectNode> docs) {
        return docs.stream().filter(d -> "Deployment".equals(d.path("kind").asText())
                        && GRAPH_NODE.equals(d.path("metadata").path("labels").path(COMPONENT).asText()))
                .map(d -> d.path("metadata").path("name").asText()).toList();
    }

    /** The port of Service {@code name} named {@code http}, where its clients call it. */
    public static int servicePort(List<ObjectNode> docs, String name) {
        return docs.stream().filter(d -> "Service".equals(d.path("kind").asText()) && name.equals(d.path("metadata").path("name").asText()))
                .flatMap(d -> stream(d.path("spec").path("ports"))).filter(p -> "http".equals(p.path("name").asText()))
                .map(p -> p.path("port").asInt()).findFirst()
                .orElseThrow(() -> new IllegalStateException("the cell has no Service " + name + " with a port named http"));
    }

    /**
     * The port a Gateway of {@code docs} binds on Istio's ingress gateway (its selector includes
     * {@code istio: ingressgateway}), or empty without one: a latency cell's, or a case's entry (an egress case's
     * Gateway on the egress gateway does not count).
     */
    public static Optional<Integer> gatewayPort(List<ObjectNode> docs) {
        return docs.stream().filter(d -> "Gateway".equals(d.path("kind").asText()) && ClusterOps.ISTIO_INGRESS_GATEWAY.entrySet()
                        .stream().allMatch(e -> e.getValue().equals(d.path("spec").path("selector").path(e.getKey()).asText(null))))
                .flatMap(d -> stream(d.path("spec").path("servers"))).map(s -> s.path("port").path("number").asInt())
                .filter(p -> p > 0).findFirst();
    }

    private static java.util.stream.Stream<JsonNode> stream(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false);
    }
}
