package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.ClusterNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Optional;

/** What a run records about the cluster it ran on, read through the API server. */
public final class ClusterFacts {
    private ClusterFacts() {
    }

    /**
     * Istio's version: the tag of istiod's {@code discovery} image ({@code docker.io/istio/pilot:1.28.0} gives
     * {@code 1.28.0}) in any namespace; empty when there is no istiod the kit may read.
     */
    public static Optional<String> istioVersion(KubernetesClient client) {
        try {
            return client.apps().deployments().inAnyNamespace().withLabel("app", "istiod").list().getItems().stream()
                    .flatMap(d -> d.getSpec().getTemplate().getSpec().getContainers().stream())
                    .filter(c -> "discovery".equals(c.getName())).map(Container::getImage).map(ClusterFacts::tag)
                    .flatMap(Optional::stream).findFirst();
        } catch (KubernetesClientException e) {
            return Optional.empty();
        }
    }

    /** {@code repo/name:tag} -> {@code tag}; a digest-only reference has none. */
    static Optional<String> tag(String image) {
        String ref = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
        int colon = ref.lastIndexOf(':');
        return colon > ref.lastIndexOf('/') ? Optional.of(ref.substring(colon + 1)) : Optional.empty();
    }

    /** The cluster as a run records it: versions of Kubernetes and Istio, and every node's allocatable size. */
    public static ClusterInfo read(KubernetesClient client, String kubernetesVersion) {
        List<ClusterNode> nodes = client.nodes().list().getItems().stream().map(n -> new ClusterNode(n.getMetadata().getName(),
                Quantity.getAmountInBytes(n.getStatus().getAllocatable().get("cpu")).doubleValue(),
                Quantity.getAmountInBytes(n.getStatus().getAllocatable().get("memory")).longValue(),
                Optional.ofNullable(n.getMetadata().getLabels()).map(l -> l.get("node.kubernetes.io/instance-type")).orElse(null)))
                .toList();
        return new ClusterInfo(kubernetesVersion, istioVersion(client).orElse(null), nodes);
    }
}
