package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.latency.LatencyCell;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class KustomizeTest {
    private static final Kustomize PACKAGED = new Kustomize(Kustomize.Files.packaged());

    /** The kit renders each case exactly as kubectl's own kustomize does (skipped where kubectl is missing). */
    @ParameterizedTest
    @EnumSource(EgressCase.class)
    void rendersEachCaseAsKubectlKustomizeDoes(EgressCase c) throws Exception {
        Path tree = checkoutTree();
        Optional<String> kubectl = kubectlKustomize(tree.resolve(c.istioConfigDir()));
        assumeTrue(kubectl.isPresent(), "kubectl is not on PATH: cannot compare with kubectl kustomize");
        Map<String, JsonNode> expected = byKindAndName(parse(kubectl.get()));
        Map<String, JsonNode> actual = byKindAndName(PACKAGED.build(c.istioConfigDir(), Kustomize.Overrides.NONE));
        assertEquals(expected.keySet(), actual.keySet());
        actual.forEach((k, v) -> assertEquals(expected.get(k), v, k));
    }

    @Test
    void overridesReachEveryCopyOfAParameter() {
        Kustomize.Overrides o = new Kustomize.Overrides("perf-7",
                Map.of("acmeair-services", "registry.example/acme:1.2", "sni-proxy", "registry.example/nginx:1"),
                Map.of("ConfigMap/meshbench-mongo", Map.of("uri", "mongodb://db.perf.example:27017/?tls=true",
                        "host", "db.perf.example", "wildcard", "*.perf.example", "cidr", "10.1.2.3/32")));
        Map<String, JsonNode> sni = byKindAndName(PACKAGED.build(EgressCase.SNI.istioConfigDir(), o));
        assertNotNull(sni.get("Namespace/perf-7"));
        sni.values().stream().filter(r -> !"Namespace".equals(r.path("kind").asText()))
                .forEach(r -> assertEquals("perf-7", r.path("metadata").path("namespace").asText(), r.toString()));
        assertEquals("*.perf.example", sni.get("VirtualService/mongo-through-sni-proxy").path("spec").path("hosts").get(0).asText());
        assertEquals("db.perf.example", sni.get("DestinationRule/egressgateway-for-mongo").path("spec").path("subsets").get(0)
                .path("trafficPolicy").path("portLevelSettings").get(0).path("tls").path("sni").asText());
        assertTrue(sni.get("Deployment/booking").toString().contains("\"registry.example/acme:1.2\""));
        assertTrue(sni.get("Deployment/meshbench-egressgateway").toString().contains("\"registry.example/nginx:1\""));
        assertFalse(sni.values().toString().contains("meshbench.example"), "a default MongoDB host is left");

        Map<String, JsonNode> bypass = byKindAndName(PACKAGED.build(EgressCase.BYPASS.istioConfigDir(), o));
        assertEquals("10.1.2.3/32", bypass.get("Deployment/flight").path("spec").path("template").path("metadata")
                .path("annotations").path("traffic.sidecar.istio.io/excludeOutboundIPRanges").asText());
    }

    @Test
    void refusesWhatItDoesNotRender() {
        Map<String, String> tree = Map.of("k/kustomization.yaml", "resources: [a.yaml]\nsecretGenerator: []\n",
                "k/a.yaml", "kind: ConfigMap\nmetadata: {name: a}\n");
        Kustomize k = new Kustomize(p -> Optional.ofNullable(tree.get(p)));
        String m1 = assertThrows(Kustomize.KustomizeException.class, () -> k.build("k", Kustomize.Overrides.NONE)).getMessage();
        assertTrue(m1.startsWith("k/kustomization.yaml: 'secretGenerator' is not supported"), m1);
        Map<String, String> missing = Map.of("k/kustomization.yaml", "resources: [gone.yaml]\n");
        assertEquals("k/gone.yaml: no such file", assertThrows(Kustomize.KustomizeException.class,
                () -> new Kustomize(p -> Optional.ofNullable(missing.get(p))).build("k", Kustomize.Overrides.NONE)).getMessage());
        Map<String, String> badTarget = Map.of("k/kustomization.yaml", """
                resources: [a.yaml]
                replacements:
                  - source: {kind: ConfigMap, name: a, fieldPath: data.x}
                    targets:
                      - select: {kind: ConfigMap, name: a}
                        fieldPaths: [data.nope.deeper]
                """, "k/a.yaml", "kind: ConfigMap\nmetadata: {name: a}\ndata: {x: '1'}\n");
        String m3 = assertThrows(Kustomize.KustomizeException.class,
                () -> new Kustomize(p -> Optional.ofNullable(badTarget.get(p))).build("k", Kustomize.Overrides.NONE)).getMessage();
        assertTrue(m3.contains("replacement target ConfigMap/a has no field data.nope.deeper"), m3);
    }

    /** Every cell of the latency study renders as kubectl's kustomize renders it (skipped where kubectl is missing). */
    @ParameterizedTest
    @MethodSource("latencyCells")
    void rendersEachLatencyCellAsKubectlKustomizeDoes(String cellDir) throws Exception {
        Path tree = checkoutTree();
        Optional<String> kubectl = kubectlKustomize(tree.resolve(cellDir));
        assumeTrue(kubectl.isPresent(), "kubectl is not on PATH: cannot compare with kubectl kustomize");
        Map<String, JsonNode> expected = byKindAndName(parse(kubectl.get()));
        Map<String, JsonNode> actual = byKindAndName(PACKAGED.build(cellDir, Kustomize.Overrides.NONE));
        assertEquals(expected.keySet(), actual.keySet());
        actual.forEach((k, v) -> assertEquals(expected.get(k), v, k));
    }

    static List<String> latencyCells() {
        return LatencyCell.matrix(List.of("single", "double")).stream().map(c -> "latency/cells/" + c.slug()).toList();
    }

    /** What the cells use, checked without kubectl: components in order, the generated ConfigMap, the replacement. */
    @Test
    void latencyCellWithEveryComponent() {
        Map<String, JsonNode> cell = byKindAndName(PACKAGED.build("latency/cells/double-5-gateway-sidecar",
                new Kustomize.Overrides("perf-3", Map.of(), Map.of())));
        assertEquals(5, cell.get("Deployment/go-sample").path("spec").path("replicas").asInt());
        assertEquals(5, cell.get("Deployment/go-sample-dependency").path("spec").path("replicas").asInt());
        assertEquals(1, cell.get("Deployment/fortio").path("spec").path("replicas").asInt(), "scale-5 patches graph nodes only");
        assertEquals("true", cell.get("Deployment/go-sample").path("spec").path("template").path("metadata").path("labels")
                .path("sidecar.istio.io/inject").asText());
        assertEquals("enabled", cell.get("Namespace/perf-3").path("metadata").path("labels").path("istio-injection").asText());
        assertEquals("go-sample", cell.get("VirtualService/latency-entrypoint").path("spec").path("http").get(0).path("route").get(0)
                .path("destination").path("host").asText());
        JsonNode graphs = cell.get("ConfigMap/latency-graphs");
        assertEquals("perf-3", graphs.path("metadata").path("namespace").asText());
        assertEquals("latency", graphs.path("metadata").path("labels").path("meshbench.dev/study").asText());
        assertTrue(graphs.path("data").path("double.yaml").asText().contains("go-sample-dependency"));
        assertTrue(graphs.path("data").has("single.yaml"));

        Map<String, JsonNode> plain = byKindAndName(PACKAGED.build("latency/cells/single-1-none-none", Kustomize.Overrides.NONE));
        assertFalse(plain.containsKey("Gateway/latency-ingress"));
        assertEquals(1, plain.get("Deployment/a").path("spec").path("replicas").asInt());
        assertEquals("disabled", plain.get("Namespace/meshbench-latency").path("metadata").path("labels").path("istio-injection").asText());
    }

    @Test
    void refusesGeneratorsAndComponentsItCannotRenderAsKubectlWould() {
        String hashed = refusal(Map.of("k/kustomization.yaml", "configMapGenerator:\n  - name: g\n    files: [a.txt]\n",
                "k/a.txt", "x"));
        assertEquals("k/kustomization.yaml: configMapGenerator without generatorOptions.disableNameSuffixHash: true is not "
                + "supported by the kit's renderer (kustomize would add a content hash to the ConfigMap's name)", hashed);
        String literals = refusal(Map.of("k/kustomization.yaml", """
                configMapGenerator:
                  - name: g
                    literals: [a=b]
                generatorOptions: {disableNameSuffixHash: true}
                """));
        assertTrue(literals.startsWith("k/kustomization.yaml: configMapGenerator: 'literals' is not supported"), literals);
        String keyed = refusal(Map.of("k/kustomization.yaml", """
                configMapGenerator:
                  - name: g
                    files: [other=a.txt]
                generatorOptions: {disableNameSuffixHash: true}
                """, "k/a.txt", "x"));
        assertTrue(keyed.contains("configMapGenerator g: file entry 'other=a.txt'"), keyed);
        String notComponent = refusal(Map.of("k/kustomization.yaml", "components: [../c]\n",
                "c/kustomization.yaml", "kind: Kustomization\nresources: []\n"));
        assertEquals("c/kustomization.yaml: kind Kustomization where a Component is expected (listed in components)", notComponent);
        String componentAsResource = refusal(Map.of("k/kustomization.yaml", "resources: [../c]\n",
                "c/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"));
        assertEquals("c/kustomization.yaml: kind Component where a Kustomization is expected (listed in resources)", componentAsResource);
        String missing = refusal(Map.of("k/kustomization.yaml", "components: [../nowhere]\n"));
        assertEquals("k/kustomization.yaml: component ../nowhere has no kustomization.yaml (nowhere/kustomization.yaml)", missing);
    }

    private static String refusal(Map<String, String> tree) {
        Kustomize k = new Kustomize(p -> Optional.ofNullable(tree.get(p)));
        return assertThrows(Kustomize.KustomizeException.class, () -> k.build("k", Kustomize.Overrides.NONE)).getMessage();
    }

    @Test
    void fieldPathSegments() {
        assertEquals(List.of("spec", "template", "metadata", "annotations", "traffic.sidecar.istio.io/x"),
                Kustomize.segments("spec.template.metadata.annotations.[traffic.sidecar.istio.io/x]"));
        assertEquals(List.of("spec", "tls", "0", "match", "name=a.b", "x"), Kustomize.segments("spec.tls.0.match.[name=a.b].x"));
        assertEquals("localhost:5000/a/b", Kustomize.imageName("localhost:5000/a/b:1.0"));
        assertEquals("localhost:5000/a/b", Kustomize.imageName("localhost:5000/a/b"));
        assertEquals("nginx", Kustomize.imageName("nginx@sha256:abc"));
    }

    static Path checkoutTree() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("istio-config/base"))) {
            p = p.getParent();
        }
        assumeTrue(p != null, "no istio-config folder above " + Path.of("").toAbsolutePath());
        return p.resolve("istio-config");
    }

    static Optional<String> kubectlKustomize(Path dir) throws IOException, InterruptedException {
        Process proc;
        try {
            proc = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(false).start();
        } catch (IOException e) {
            return Optional.empty();
        }
        byte[] out = proc.getInputStream().readAllBytes();
        String err = new String(proc.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!proc.waitFor(60, TimeUnit.SECONDS) || proc.exitValue() != 0) {
            throw new AssertionError("kubectl kustomize " + dir + " failed: " + err);
        }
        return Optional.of(new String(out, StandardCharsets.UTF_8));
    }

    static List<ObjectNode> parse(String yaml) throws IOException {
        List<ObjectNode> docs = new ArrayList<>();
        for (Iterator<JsonNode> it = Kustomize.YAML.readValues(new YAMLFactory().createParser(yaml), JsonNode.class); it.hasNext(); ) {
            JsonNode d = it.next();
            if (d instanceof ObjectNode o && !o.isEmpty()) {
                docs.add(o);
            }
        }
        return docs;
    }

    static Map<String, JsonNode> byKindAndName(List<ObjectNode> docs) {
        Map<String, JsonNode> m = new TreeMap<>();
        docs.forEach(d -> m.put(d.path("kind").asText() + "/" + d.path("metadata").path("name").asText(), d));
        return m;
    }
}
