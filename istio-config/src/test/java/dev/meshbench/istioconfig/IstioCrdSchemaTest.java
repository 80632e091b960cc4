package dev.meshbench.istioconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.istioconfig.KitManifests.Document;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every Istio resource of the kit against Istio's own CRD schemas ({@code ../shared/istio-crds/istio-crds.gen.yaml}
 * beside the checkout, or {@code -Dmeshbench.istioCrds}); skipped, saying why, where that file is absent.
 */
class IstioCrdSchemaTest {

    static final String PROPERTY = "meshbench.istioCrds";
    /** The end of json-schema-validator's message for a field the (closed) schema does not list. */
    static final String NOT_ALLOWED = " is not defined in the schema and the schema does not allow additional properties";

    private static KitManifests manifests;
    private static IstioSchemas schemas;
    /** Null where the CRD file is absent. */
    private static CrdSchemaValidator validator;

    @BeforeAll
    static void loadSchemas() throws IOException {
        manifests = KitManifests.load();
        schemas = IstioSchemas.load(manifests.moduleDir());
        validator = schemas.validator();
    }

    /** Skips the calling test, saying where the CRD file was looked for and how to give it, if it is absent. */
    private static void assumeCrds() {
        schemas.assume();
    }

    /** {@code -Dmeshbench.istioCrds} if set, else {@code <repo root>/../shared/istio-crds/istio-crds.gen.yaml}. */
    static Path crdFile(Path repoRoot) {
        String property = System.getProperty(PROPERTY, "");
        Path file = property.isBlank() ? repoRoot.resolve("../shared/istio-crds/istio-crds.gen.yaml") : Path.of(property);
        return file.toAbsolutePath().normalize();
    }

    /**
     * The kit's Istio resources: documents whose API group is Istio's. Full resources only: a patch is partial and
     * would miss required fields (TypedModelTest checks patches for unknown fields).
     */
    private static List<Document> istioDocuments() {
        return manifests.resources().stream().filter(d -> d.apiVersion().contains(".istio.io/")).toList();
    }

    @TestFactory
    @DisplayName("every Istio resource in base/ and cases/ validates against its CRD schema")
    Stream<DynamicTest> everyIstioResourceValidates() {
        List<Document> istio = istioDocuments();
        assertFalse(istio.isEmpty(), "no Istio resource found: the selection is wrong");
        return istio.stream().map(d -> dynamicTest(d.describe(), () -> {
            assumeCrds();
            List<String> errors = validator.validate(d.file(), d.tree());
            assertTrue(errors.isEmpty(), () -> errors.size() + " schema error(s):\n" + String.join("\n", errors));
        }));
    }

    /** One break of a real file, and the messages the validator must give for it (each the start of one message). */
    private record Break(String description, String file, String name, Consumer<JsonNode> change, List<String> expected) { }

    @TestFactory
    @DisplayName("rejects copies of the real files broken on purpose, each with its own message")
    Stream<DynamicTest> rejectsBrokenCopies() {
        String sidecarSe = "cases/sidecar/serviceentry.yaml: ServiceEntry mongo: ";
        String gatewaySe = "cases/gateway/serviceentry.yaml: ServiceEntry mongo: ";
        String mtlsGw = "cases/mtls/gateway.yaml: Gateway istio-egressgateway: ";
        String mtlsDr = "cases/mtls/destinationrule.yaml: DestinationRule egressgateway-for-mongo: ";
        String sniDr = "cases/sni/destinationrule.yaml: DestinationRule disable-mtls-for-sni-proxy: ";
        String gatewayVs = "cases/gateway/virtualservice.yaml: VirtualService mongo-through-egress-gateway: ";
        String ingressVs = "base/ingress.yaml: VirtualService acmeair-routes: ";
        List<Break> breaks = List.of(
                new Break("a misspelled field: spec.hostz", "cases/sidecar/serviceentry.yaml", "mongo",
                        t -> Trees.rename(t, "spec", "hosts", "hostz"),
                        List.of(sidecarSe + "$.spec: required property 'hosts' not found",
                                sidecarSe + "$.spec: property 'hostz'" + NOT_ALLOWED)),
                new Break("a misspelled nested field: tls.mod", "cases/mtls/gateway.yaml", "istio-egressgateway",
                        t -> Trees.rename(t, "spec.servers[0].tls", "mode", "mod"),
                        List.of(mtlsGw + "$.spec.servers[0].tls: property 'mod'" + NOT_ALLOWED)),
                new Break("a wrong enum value: tls.mode MUTUALLY", "cases/mtls/destinationrule.yaml", "egressgateway-for-mongo",
                        t -> Trees.object(t, "spec.subsets[0].trafficPolicy.portLevelSettings[0].tls").put("mode", "MUTUALLY"),
                        List.of(mtlsDr + "$.spec.subsets[0].trafficPolicy.portLevelSettings[0].tls.mode: does not have a value in the "
                                + "enumeration [\"DISABLE\", \"SIMPLE\", \"MUTUAL\", \"ISTIO_MUTUAL\"] (value: \"MUTUALLY\")")),
                new Break("a wrong enum value: location EXTERNAL", "cases/sidecar/serviceentry.yaml", "mongo",
                        t -> Trees.object(t, "spec").put("location", "EXTERNAL"),
                        List.of(sidecarSe + "$.spec.location: does not have a value in the enumeration [\"MESH_EXTERNAL\", \"MESH_INTERNAL\"] "
                                + "(value: \"EXTERNAL\")")),
                new Break("a wrong type: port.number \"x\"", "cases/mtls/gateway.yaml", "istio-egressgateway",
                        t -> Trees.object(t, "spec.servers[0].port").put("number", "x"),
                        List.of(mtlsGw + "$.spec.servers[0].port.number: string found, integer expected (value: \"x\")")),
                new Break("a missing required field: port.protocol", "cases/mtls/gateway.yaml", "istio-egressgateway",
                        t -> Trees.object(t, "spec.servers[0].port").remove("protocol"),
                        List.of(mtlsGw + "$.spec.servers[0].port: required property 'protocol' not found")),
                new Break("a null where null is not allowed: servers[0].tls", "cases/mtls/gateway.yaml", "istio-egressgateway",
                        t -> Trees.object(t, "spec.servers[0]").set("tls", NullNode.getInstance()),
                        List.of(mtlsGw + "$.spec.servers[0].tls: null found, object expected")),
                new Break("more items than maxItems: three tls.credentialNames", "cases/mtls/gateway.yaml", "istio-egressgateway",
                        t -> Trees.object(t, "spec.servers[0].tls").putArray("credentialNames").add("a").add("b").add("c"),
                        List.of(mtlsGw + "$.spec.servers[0].tls.credentialNames: must have at most 2 items but found 3")),
                new Break("a duplicate key of a list-type map: two ports named tls", "cases/gateway/serviceentry.yaml", "mongo",
                        t -> Trees.object(t, "spec.ports[1]").put("name", "tls"),
                        List.of(gatewaySe + "$.spec.ports[1]: duplicate key [name] = {\"name\":\"tls\"} (x-kubernetes-list-type: map)")),
                new Break("two fields a oneOf makes exclusive: loadBalancer simple and consistentHash", "cases/sni/destinationrule.yaml",
                        "disable-mtls-for-sni-proxy",
                        t -> {
                            ObjectNode lb = Trees.object(t, "spec.trafficPolicy").putObject("loadBalancer");
                            lb.put("simple", "ROUND_ROBIN");
                            lb.putObject("consistentHash").put("useSourceIp", true);
                        },
                        List.of(sniDr + "$.spec.trafficPolicy.loadBalancer: must be valid to one and only one schema, but 2 are valid "
                                        + "with indexes '1, 2'",
                                // oneOf[0] is "neither set"; the library also reports why that alternative failed.
                                sniDr + "$.spec.trafficPolicy.loadBalancer: must not be valid to the schema "
                                        + "\"$.properties.spec.properties.trafficPolicy.properties.loadBalancer.oneOf[0].not\"")),
                new Break("an unknown top-level field: replicas", "cases/gateway/virtualservice.yaml", "mongo-through-egress-gateway",
                        t -> ((ObjectNode) t).put("replicas", 1),
                        List.of(gatewayVs + "$: property 'replicas'" + NOT_ALLOWED)),
                new Break("a misspelled field of a route's match: uri.regx", "base/ingress.yaml", "acmeair-routes",
                        t -> Trees.rename(t, "spec.http[1].match[0].uri", "regex", "regx"),
                        List.of(ingressVs + "$.spec.http[1].match[0].uri: property 'regx'" + NOT_ALLOWED)),
                new Break("an apiVersion Istio does not have: networking.istio.io/v2", "cases/mtls/gateway.yaml", "istio-egressgateway",
                        t -> ((ObjectNode) t).put("apiVersion", "networking.istio.io/v2"),
                        List.of(mtlsGw + "no version v2 of networking.istio.io Gateway (versions: v1, v1alpha3, v1beta1)")));
        return breaks.stream().map(b -> dynamicTest(b.description(), () -> {
            assumeCrds();
            Document original = document(b.file(), b.name());
            assertEquals(List.of(), validator.validate(original.file(), original.tree()), "the unbroken file must validate");
            JsonNode broken = original.tree().deepCopy();
            b.change().accept(broken);
            assertMessages(b.expected(), validator.validate(original.file(), broken));
        }));
    }

    private static Document document(String file, String name) {
        return manifests.documents().stream().filter(d -> d.file().equals(file) && d.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no resource " + name + " in " + file));
    }

    /** Exactly the expected messages, in any order, each matched by its start. */
    static void assertMessages(List<String> expectedStarts, List<String> actual) {
        List<String> unmatched = new ArrayList<>(actual);
        for (String expected : expectedStarts) {
            int at = -1;
            for (int i = 0; i < unmatched.size() && at < 0; i++) {
                if (unmatched.get(i).startsWith(expected)) {
                    at = i;
                }
            }
            if (at < 0) {
                fail("no message starting with\n  " + expected + "\namong\n  " + String.join("\n  ", actual));
            }
            unmatched.remove(at);
        }
        assertTrue(unmatched.isEmpty(), () -> "unexpected message(s):\n  " + String.join("\n  ", unmatched));
    }
}
