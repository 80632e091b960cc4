package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Kubernetes cluster a run of the {@code kubernetes} target ran on, as the orchestrator read it when the run
 * started. Runs of the local target have none.
 *
 * @param kubernetesVersion the API server's version ({@code gitVersion}), e.g. {@code v1.31.4} or
 *                          {@code v1.31.4-eks-2d5f260}
 * @param istioVersion      Istio's version, e.g. {@code 1.28.0}; {@code null} when it could not be read
 * @param nodes             every node of the cluster, at least one; names are distinct. Kept sorted by name, so
 *                          the JSON is byte-stable whatever order the API listed them in
 */
@JsonPropertyOrder({"kubernetesVersion", "istioVersion", "nodes"})
public record ClusterInfo(
        @JsonProperty(required = true) String kubernetesVersion,
        String istioVersion,
        @JsonProperty(required = true) List<ClusterNode> nodes) {

    private static final Pattern KUBERNETES_VERSION = Pattern.compile("v\\d+\\.\\d+\\S*");

    public ClusterInfo {
        Checks.matches("cluster.kubernetesVersion", kubernetesVersion, KUBERNETES_VERSION,
                "must be the API server's version, such as v1.31.4");
        if (istioVersion != null) {
            Checks.text("cluster.istioVersion", istioVersion);
        }
        Checks.present("cluster.nodes", nodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("cluster.nodes must list at least one node");
        }
        Set<String> seen = new HashSet<>();
        for (ClusterNode n : nodes) {
            Checks.present("cluster.nodes[]", n);
            if (!seen.add(n.name())) {
                throw new IllegalArgumentException("cluster.nodes: node \"" + n.name() + "\" appears twice");
            }
        }
        nodes = nodes.stream().sorted(Comparator.comparing(ClusterNode::name)).toList();
    }

    /**
     * One line for a report: versions, then the nodes grouped by size (most numerous size first), e.g.
     * {@code "Kubernetes v1.31.4, Istio 1.28.0, 3 nodes (3 × 8 CPU / 32 GiB)"} or
     * {@code "Kubernetes v1.30.5+k3s1, Istio not recorded, 1 node (1 × 3.9 CPU / 7.6 GiB)"}. Sizes are equal when
     * they read the same ({@link ClusterNode#sizeText()}).
     */
    @JsonIgnore
    public String summary() {
        Map<String, Integer> bySize = new LinkedHashMap<>();
        for (ClusterNode n : nodes) {
            bySize.merge(n.sizeText(), 1, Integer::sum);
        }
        List<Map.Entry<String, Integer>> groups = new ArrayList<>(bySize.entrySet());
        groups.sort(Map.Entry.<String, Integer>comparingByValue().reversed()); // stable: ties keep name order
        List<String> sizes = groups.stream().map(g -> g.getValue() + " × " + g.getKey()).toList();
        return "Kubernetes " + kubernetesVersion + ", Istio " + (istioVersion == null ? "not recorded" : istioVersion)
                + ", " + nodes.size() + (nodes.size() == 1 ? " node" : " nodes") + " (" + String.join(", ", sizes)
                + ")";
    }
}
