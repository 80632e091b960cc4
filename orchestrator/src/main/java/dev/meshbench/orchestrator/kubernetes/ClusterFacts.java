package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.ClusterNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.LocalPortForward;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /** istiod's switches that turn off what needs Istio's own Envoy filters, as a run records them. */
    static final List<String> ISTIOD_SWITCHES = List.of("PILOT_ENABLE_METADATA_EXCHANGE", "PILOT_ENABLE_ALPN_FILTER");
    private static final Pattern ENVOY_VERSION = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");

    /**
     * What a run records about Istio's proxies beyond istiod's version: the image of the {@code istio-proxy}
     * container of a running pod of {@code namespace}, the Envoy build it runs (its admin {@code /server_info}, through
     * a port-forward to port 15000), and the switches istiod was started with and the mesh's default metrics
     * providers, when set. A cluster whose proxy is Istio's own build shows no switch; the test cluster's (pilot-agent
     * with upstream Envoy) shows them. Whatever cannot be read is left out.
     */
    public static Map<String, String> proxyFacts(KubernetesClient client, String namespace) {
        Map<String, String> out = new LinkedHashMap<>();
        try {
            Optional<Pod> pod = client.pods().inNamespace(namespace).list().getItems().stream()
                    .filter(p -> "Running".equals(p.getStatus().getPhase()) && p.getSpec().getContainers().stream()
                            .anyMatch(c -> "istio-proxy".equals(c.getName())))
                    .findFirst();
            pod.flatMap(p -> p.getSpec().getContainers().stream().filter(c -> "istio-proxy".equals(c.getName())).findFirst())
                    .ifPresent(c -> out.put("proxy image", c.getImage()));
            pod.flatMap(p -> envoyVersion(client, namespace, p.getMetadata().getName())).ifPresent(v -> out.put("proxy envoy", v));
            for (var istiod : client.apps().deployments().inAnyNamespace().withLabel("app", "istiod").list().getItems()) {
                istiod.getSpec().getTemplate().getSpec().getContainers().stream()
                        .filter(c -> "discovery".equals(c.getName())).findFirst().ifPresent(c -> {
                            List<String> set = Optional.ofNullable(c.getEnv()).orElse(List.of()).stream()
                                    .filter(e -> ISTIOD_SWITCHES.contains(e.getName()) && e.getValue() != null)
                                    .map(e -> e.getName() + "=" + e.getValue()).toList();
                            if (!set.isEmpty()) {
                                out.put("istiod switches", String.join(", ", set));
                            }
                        });
                // The mesh config istiod reads: ConfigMap istio in istiod's namespace (Istio's install labels it
                // with app.kubernetes.io/name, not app).
                Optional.ofNullable(client.configMaps().inNamespace(istiod.getMetadata().getNamespace()).withName("istio").get())
                        .map(cm -> cm.getData() == null ? null : cm.getData().get("mesh"))
                        .flatMap(ClusterFacts::defaultMetricsProviders).ifPresent(v -> out.put("mesh defaultProviders.metrics", v));
                break;
            }
        } catch (KubernetesClientException e) {
            out.put("proxy facts", "unreadable: " + e.getMessage());
        }
        return out;
    }

    /**
     * {@link #proxyFacts} as one phrase for the value of each Istio proxy in {@code run.json}'s
     * {@code dataPlane.versions} (whose keys are component kinds), e.g. {@code proxy image meshbench.local/proxyv2:1.29;
     * Envoy 9e55.../1.40.0/Clean/RELEASE/BoringSSL; istiod PILOT_ENABLE_ALPN_FILTER=false}; empty when nothing was read.
     */
    static String describe(Map<String, String> facts) {
        return facts.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(java.util.stream.Collectors.joining("; "));
    }

    /** The line {@code metrics: [...]} under {@code defaultProviders:} of a mesh config, as written. */
    static Optional<String> defaultMetricsProviders(String mesh) {
        Matcher m = Pattern.compile("(?m)^defaultProviders:\\s*\\n(?:[ \\t]+.*\\n)*?[ \\t]+metrics:\\s*(\\[[^\\]]*\\])").matcher(mesh + "\n");
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static Optional<String> envoyVersion(KubernetesClient client, String namespace, String pod) {
        try (LocalPortForward f = client.pods().inNamespace(namespace).withName(pod).portForward(15000, 0)) {
            HttpResponse<String> r = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + f.getLocalPort() + "/server_info"))
                            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = ENVOY_VERSION.matcher(r.body());
            return r.statusCode() == 200 && m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
