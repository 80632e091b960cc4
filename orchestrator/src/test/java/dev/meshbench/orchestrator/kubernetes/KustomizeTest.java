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
import dev.meshbench.orchestrator.cases.EgressCase;
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
        Map<String, String> tree = Map.of("k/kustomization.yaml", "resources: [a.yaml]\nconfigMapGenerator: []\n",
                "k/a.yaml", "kind: ConfigMap\nmetadata: {name: a}\n");
        Kustomize k = new Kustomize(p -> Optional.ofNullable(tree.get(p)));
        String m1 = assertThrows(Kustomize.KustomizeException.class, () -> k.build("k", Kustomize.Overrides.NONE)).getMessage();
        assertTrue(m1.startsWith("k/kustomization.yaml: 'configMapGenerator' is not supported"), m1);
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
