package dev.meshbench.istioconfig;

import static dev.meshbench.istioconfig.IstioCrdSchemaTest.assertMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.istioconfig.KitManifests.Document;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every document of the kit (resources and patches) reads into its typed fabric8 7 model (the Kubernetes kinds,
 * and with istio-client the Istio kinds as {@code io.fabric8.istio.api.networking.v1.*}), never into
 * {@link GenericKubernetesResource}, and leaves no field in an {@code additionalProperties} map.
 */
class TypedModelTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static KitManifests manifests;

    @BeforeAll
    static void load() {
        manifests = KitManifests.load();
    }

    /**
     * Everything wrong with one document as a typed model, each message naming file, resource and path; empty if
     * it reads into its own class with every field known.
     */
    static List<String> problems(String file, JsonNode tree) {
        String apiVersion = tree.path("apiVersion").asText("");
        String kind = tree.path("kind").asText("");
        String prefix = file + ": " + kind + " " + tree.path("metadata").path("name").asText("") + ": ";
        KubernetesResource model;
        try {
            model = SERIALIZATION.convertValue(tree, KubernetesResource.class);
        } catch (IllegalArgumentException e) {
            return List.of(prefix + "does not read into fabric8's model: " + e.getMessage());
        }
        if (model instanceof GenericKubernetesResource) {
            return List.of(prefix + "read as GenericKubernetesResource: " + fabric8() + " has no typed model for "
                    + apiVersion + " " + kind);
        }
        List<String> out = new ArrayList<>();
        if (!(model instanceof HasMetadata typed) || !typed.getKind().equals(kind) || !typed.getApiVersion().equals(apiVersion)) {
            out.add(prefix + "read as " + model.getClass().getName() + ", not a " + apiVersion + " " + kind);
        }
        UnknownFieldFinder.find(model).forEach(u -> out.add(prefix + u));
        return out;
    }

    private static String fabric8() {
        String v = KubernetesSerialization.class.getPackage().getImplementationVersion();
        return v == null ? "fabric8" : "fabric8 " + v;
    }

    @TestFactory
    @DisplayName("every document of base/ and cases/ reads into its typed fabric8 model with every field known")
    Stream<DynamicTest> everyDocumentReadsIntoItsTypedModel() {
        List<Document> documents = manifests.documents();
        assertFalse(documents.isEmpty(), "no document found");
        return documents.stream().map(d -> dynamicTest(d.describe() + (d.patch() ? " (patch)" : ""), () -> {
            List<String> problems = problems(d.file(), d.tree());
            assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
        }));
    }

    @Test
    @DisplayName("reads the Istio kinds into istio-client's networking.v1 classes")
    void readsIstioKindsIntoIstioClasses() {
        for (Document d : manifests.resources()) {
            if (d.apiVersion().equals("networking.istio.io/v1")) {
                Object model = SERIALIZATION.convertValue(d.tree(), KubernetesResource.class);
                assertEquals("io.fabric8.istio.api.networking.v1." + d.kind(), model.getClass().getName(), d.describe());
            }
        }
    }

    @Test
    @DisplayName("catches a misspelled field of a Deployment: spec.replicaz and containers[0].imagez")
    void catchesMisspelledDeploymentFields() {
        Document auth = manifests.resources().stream()
                .filter(d -> d.file().equals("base/auth.yaml") && d.kind().equals("Deployment")).findFirst().orElseThrow();
        assertEquals(List.of(), problems(auth.file(), auth.tree()));
        JsonNode broken = auth.tree().deepCopy();
        Trees.rename(broken, "spec", "replicas", "replicaz");
        Trees.rename(broken, "spec.template.spec.containers[0]", "image", "imagez");
        assertMessages(List.of(
                "base/auth.yaml: Deployment auth: spec.replicaz: unknown field (not in DeploymentSpec)",
                "base/auth.yaml: Deployment auth: spec.template.spec.containers[0].imagez: unknown field (not in Container)"),
                problems(auth.file(), broken));
    }

    @Test
    @DisplayName("catches a misspelled field of an Istio kind: Gateway spec.servers[0].tls.mod")
    void catchesMisspelledIstioField() {
        Document gateway = manifests.resources().stream()
                .filter(d -> d.file().equals("cases/mtls/gateway.yaml")).findFirst().orElseThrow();
        JsonNode broken = gateway.tree().deepCopy();
        Trees.rename(broken, "spec.servers[0].tls", "mode", "mod");
        assertMessages(List.of("cases/mtls/gateway.yaml: Gateway istio-egressgateway: spec.servers[0].tls.mod: unknown field (not in ServerTLSSettings)"),
                problems(gateway.file(), broken));
    }

    @Test
    @DisplayName("catches a kind or version fabric8 has no class for (read as GenericKubernetesResource)")
    void catchesGenericResources() {
        Document gateway = manifests.resources().stream()
                .filter(d -> d.file().equals("cases/mtls/gateway.yaml")).findFirst().orElseThrow();
        ObjectNode wrongVersion = gateway.tree().deepCopy();
        wrongVersion.put("apiVersion", "networking.istio.io/v2");
        assertMessages(List.of("cases/mtls/gateway.yaml: Gateway istio-egressgateway: read as GenericKubernetesResource"),
                problems(gateway.file(), wrongVersion));
        ObjectNode wrongKind = gateway.tree().deepCopy();
        wrongKind.put("kind", "Gatway");
        assertMessages(List.of("cases/mtls/gateway.yaml: Gatway istio-egressgateway: read as GenericKubernetesResource"),
                problems(gateway.file(), wrongKind));
    }
}
