package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.model.EgressCase;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The manifests of one case on a cluster: {@code istio-config}'s overlay {@code cases/<id>} (which includes the base)
 * rendered by {@code kubectl kustomize} with the run's parameters ({@link KubectlKustomize}), as fabric8's typed resources. The labels below say who owns what, so switching
 * case and tearing down touch only the kit's resources.
 */
public final class CaseManifests {
    /** Server-side apply's field manager. */
    public static final String FIELD_MANAGER = "meshbench";
    /** On every resource of the kit, value {@value #PART_OF_VALUE}. */
    public static final String PART_OF = "app.kubernetes.io/part-of";
    public static final String PART_OF_VALUE = "meshbench";
    /** On every resource a case adds to the base: the case id. */
    public static final String CASE_LABEL = "meshbench.dev/case";
    /** Secret data that {@link #render} shows instead of the keys generated per run. */
    public static final String REDACTED = "<generated per run, not shown>";

    private CaseManifests() {
    }

    /**
     * Renders a case.
     *
     * @param jwt the key pair auth signs tokens with ({@code private.pem}, {@code public.pem} PEM), generated per
     *            run; {@code null} to print {@link #REDACTED} instead
     */
    public static List<ObjectNode> render(EgressCase c, KubernetesSettings s, WorkloadInfo workload, Map<String, String> jwt) {
        return render(KubectlKustomize.find(s.kubectl()), c, s.namespace(), s.images(), java.util.Optional.of(s.requireMongo()),
                workload, jwt);
    }

    /**
     * Renders a case from its parts.
     *
     * @param mongo the external MongoDB, or empty to keep {@code istio-config}'s own parameters (for printing)
     */
    public static List<ObjectNode> render(KubectlKustomize kustomize, EgressCase c, String namespace, Map<String, String> images,
            java.util.Optional<KubernetesSettings.Mongo> mongo, WorkloadInfo workload, Map<String, String> jwt) {
        Map<String, Map<String, String>> configMaps = new LinkedHashMap<>();
        Map<String, Map<String, String>> secrets = new LinkedHashMap<>();
        mongo.ifPresent(m -> {
            configMaps.put("meshbench-mongo", Map.of("uri", m.uri().toString(), "host", m.host(), "wildcard", m.wildcard(),
                    "cidr", m.cidr()));
            secrets.put("meshbench-mongo-ca", Map.of("ca.crt", m.caPem()));
        });
        secrets.put("meshbench-jwt", jwt != null ? Map.copyOf(jwt) : Map.of("private.pem", REDACTED, "public.pem", REDACTED));
        configMaps.put("meshbench-workload", Map.of("FLIGHT_CACHE", Boolean.toString(workload.flightCache()),
                "REWARDS_ASYNC", Boolean.toString(workload.rewardsAsync())));
        return KubectlKustomize.withSecretData(kustomize.build(c.istioConfigDir(),
                new KubectlKustomize.Parameters(namespace, images, configMaps)), secrets);
    }

    /** The rendered documents as fabric8's typed models (Istio kinds through the Istio extension's classes). */
    public static List<HasMetadata> typed(List<ObjectNode> docs, KubernetesSerialization serialization) {
        return docs.stream().map(d -> {
            Object o = serialization.unmarshal(d.toString());
            if (!(o instanceof HasMetadata h) || o instanceof io.fabric8.kubernetes.api.model.GenericKubernetesResource) {
                throw new IllegalStateException(d.path("kind").asText() + " " + d.path("metadata").path("name").asText()
                        + " (" + d.path("apiVersion").asText() + ") has no typed model: is fabric8's istio-client on the classpath?");
            }
            return h;
        }).toList();
    }

    /** {@code Kind namespace/name}, as messages name a resource. */
    public static String describe(HasMetadata r) {
        String ns = r.getMetadata().getNamespace();
        return r.getKind() + " " + (ns == null ? "" : ns + "/") + r.getMetadata().getName();
    }
}
