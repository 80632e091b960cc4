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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The run's overlay over {@code istio-config}, rendered by the kubectl on the PATH (or {@code meshbench.kubectl.binary}):
 * kubectl is required here as it is for every user of the Kubernetes target.
 */
class KubectlKustomizeTest {
    private static final KubectlKustomize KUBECTL = KubectlKustomize.find(Optional.ofNullable(System.getProperty(KubectlKustomize.P_KUBECTL)));

    /** Without parameters the overlay adds nothing: each case renders as {@code kubectl kustomize istio-config/cases/<id>}. */
    @ParameterizedTest
    @EnumSource(EgressCase.class)
    void withoutParametersEachCaseRendersAsItsFolder(EgressCase c) throws Exception {
        Path tree = checkoutTree();
        Map<String, JsonNode> expected = byKindAndName(parse(kubectlKustomize(tree.resolve(c.istioConfigDir()))));
        Map<String, JsonNode> actual = byKindAndName(KUBECTL.build(c.istioConfigDir(), KubectlKustomize.Parameters.NONE));
        assertEquals(expected.keySet(), actual.keySet());
        actual.forEach((k, v) -> assertEquals(expected.get(k), v, k));
    }

    /** The run's values reach every copy the case's replacements make, and the namespace and images every resource. */
    @Test
    void parametersReachEveryCopyOfAParameter() {
        KubectlKustomize.Parameters o = new KubectlKustomize.Parameters("perf-7",
                Map.of("acmeair-services", "registry.example:5000/acme:1.2", "sni-proxy", "registry.example/nginx@sha256:"
                        + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"),
                Map.of("meshbench-mongo", Map.of("uri", "mongodb://db.perf.example:27017/?tls=true",
                        "host", "db.perf.example", "wildcard", "*.perf.example", "cidr", "10.1.2.3/32")));
        Map<String, JsonNode> sni = byKindAndName(KUBECTL.build(EgressCase.SNI.istioConfigDir(), o));
        assertNotNull(sni.get("Namespace/perf-7"));
        sni.values().stream().filter(r -> !"Namespace".equals(r.path("kind").asText()))
                .forEach(r -> assertEquals("perf-7", r.path("metadata").path("namespace").asText(), r.toString()));
        assertEquals("*.perf.example", sni.get("VirtualService/mongo-through-sni-proxy").path("spec").path("hosts").get(0).asText());
        assertEquals("db.perf.example", sni.get("DestinationRule/egressgateway-for-mongo").path("spec").path("subsets").get(0)
                .path("trafficPolicy").path("portLevelSettings").get(0).path("tls").path("sni").asText());
        assertTrue(sni.get("Deployment/booking").toString().contains("\"registry.example:5000/acme:1.2\""), sni.get("Deployment/booking").toString());
        assertTrue(sni.get("Deployment/meshbench-egressgateway").toString().contains("\"registry.example/nginx@sha256:0123456789abcdef"));
        assertEquals("mongodb://db.perf.example:27017/?tls=true", sni.get("ConfigMap/meshbench-mongo").path("data").path("uri").asText());
        assertEquals("meshbench", sni.get("ConfigMap/meshbench-mongo").path("metadata").path("labels").path("app.kubernetes.io/part-of").asText(),
                "merging the run's values keeps the file's labels");
        assertFalse(sni.values().toString().contains("meshbench.example"), "a default MongoDB host is left");

        Map<String, JsonNode> bypass = byKindAndName(KUBECTL.build(EgressCase.BYPASS.istioConfigDir(), o));
        assertEquals("10.1.2.3/32", bypass.get("Deployment/flight").path("spec").path("template").path("metadata")
                .path("annotations").path("traffic.sidecar.istio.io/excludeOutboundIPRanges").asText());
    }

    /** kustomize's own refusal reaches the user with the folder named; the temporary overlay is gone either way. */
    @Test
    void aBrokenTreeFailsNamingTheFolderAndLeavesNothing(@TempDir Path tmp) throws Exception {
        Path tree = tmp.resolve("istio-config");
        KubectlKustomize.copyTree(checkoutTree(), tree);
        Files.writeString(tree.resolve("cases/sidecar/kustomization.yaml"),
                Files.readString(tree.resolve("cases/sidecar/kustomization.yaml")).replace("serviceentry.yaml", "gone.yaml"));
        List<Path> before = leftovers();
        String m = assertThrows(KubectlKustomize.KustomizeException.class, () -> KUBECTL.build(Optional.of(tree), "cases/sidecar",
                KubectlKustomize.Parameters.NONE)).getMessage();
        assertTrue(m.contains("kustomize of istio-config/cases/sidecar failed"), m);
        assertTrue(m.contains("gone.yaml"), m);
        assertEquals(before, leftovers(), "the temporary overlay is deleted after a failure");
        String none = assertThrows(KubectlKustomize.KustomizeException.class, () -> KUBECTL.build("cases/nope",
                KubectlKustomize.Parameters.NONE)).getMessage();
        assertEquals("istio-config/cases/nope has no kustomization.yaml", none);
        String twoLines = assertThrows(KubectlKustomize.KustomizeException.class, () -> KUBECTL.build("cases/sidecar",
                new KubectlKustomize.Parameters(null, Map.of(), Map.of("meshbench-mongo", Map.of("host", "a\nb"))))).getMessage();
        assertEquals("ConfigMap meshbench-mongo key host: a parameter value must be one line and its key must not contain '='", twoLines);
    }

    @Test
    void aMissingKubectlIsNamed(@TempDir Path tmp) {
        String m = assertThrows(IllegalArgumentException.class,
                () -> KubectlKustomize.find(Optional.of(tmp.resolve("kubectl").toString()))).getMessage();
        assertTrue(m.startsWith("meshbench.kubectl.binary=" + tmp.resolve("kubectl") + ": no such file"), m);
        assertTrue(m.contains("install kubectl"), m);
    }

    @Test
    void imageReferencesSplitIntoNameTagAndDigest() {
        assertEquals("{\"name\":\"a\",\"newName\":\"localhost:5000/x/b\",\"newTag\":\"1.0\"}",
                KubectlKustomize.image("a", "localhost:5000/x/b:1.0").toString());
        assertEquals("{\"name\":\"a\",\"newName\":\"localhost:5000/x/b\"}", KubectlKustomize.image("a", "localhost:5000/x/b").toString());
        assertEquals("{\"name\":\"a\",\"newName\":\"nginx\",\"newTag\":\"1\",\"digest\":\"sha256:abc\"}",
                KubectlKustomize.image("a", "nginx:1@sha256:abc").toString());
        assertThrows(KubectlKustomize.KustomizeException.class, () -> KubectlKustomize.image("a", ":1"));
    }

    @Test
    void secretsAreSetAfterRenderingAndNeverWritten() {
        List<ObjectNode> docs = KUBECTL.build(EgressCase.SIDECAR.istioConfigDir(), KubectlKustomize.Parameters.NONE);
        KubectlKustomize.withSecretData(docs, Map.of("meshbench-mongo-ca", Map.of("ca.crt", "PEM")));
        assertEquals("PEM", byKindAndName(docs).get("Secret/meshbench-mongo-ca").path("stringData").path("ca.crt").asText());
        String m = assertThrows(KubectlKustomize.KustomizeException.class,
                () -> KubectlKustomize.withSecretData(docs, Map.of("nope", Map.of("a", "b")))).getMessage();
        assertEquals("the rendered manifests have no Secret nope", m);
    }

    private static List<Path> leftovers() throws IOException {
        try (var s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("meshbench-kustomize-")).sorted().toList();
        }
    }

    /** Every cell of the latency study renders, without parameters, as its folder does. */
    @ParameterizedTest
    @MethodSource("latencyCells")
    void withoutParametersEachLatencyCellRendersAsItsFolder(String cellDir) throws Exception {
        Path tree = checkoutTree();
        Map<String, JsonNode> expected = byKindAndName(parse(kubectlKustomize(tree.resolve(cellDir))));
        Map<String, JsonNode> actual = byKindAndName(KUBECTL.build(cellDir, KubectlKustomize.Parameters.NONE));
        assertEquals(expected.keySet(), actual.keySet());
        actual.forEach((k, v) -> assertEquals(expected.get(k), v, k));
    }

    static List<String> latencyCells() {
        return LatencyCell.matrix(List.of("single", "double")).stream().map(c -> "latency/cells/" + c.slug()).toList();
    }

    /** What the cells use: components in order, the generated ConfigMap, the replacement, the namespace. */
    @Test
    void latencyCellWithEveryComponent() {
        Map<String, JsonNode> cell = byKindAndName(KUBECTL.build("latency/cells/double-5-gateway-sidecar",
                new KubectlKustomize.Parameters("perf-3", Map.of(), Map.of())));
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

        Map<String, JsonNode> plain = byKindAndName(KUBECTL.build("latency/cells/single-1-none-none", KubectlKustomize.Parameters.NONE));
        assertFalse(plain.containsKey("Gateway/latency-ingress"));
        assertEquals(1, plain.get("Deployment/a").path("spec").path("replicas").asInt());
        assertEquals("disabled", plain.get("Namespace/meshbench-latency").path("metadata").path("labels").path("istio-injection").asText());
    }

    static Path checkoutTree() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("istio-config/base"))) {
            p = p.getParent();
        }
        assumeTrue(p != null, "no istio-config folder above " + Path.of("").toAbsolutePath());
        return p.resolve("istio-config");
    }

    static String kubectlKustomize(Path dir) throws IOException, InterruptedException {
        Process proc = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(false).start();
        byte[] out = proc.getInputStream().readAllBytes();
        String err = new String(proc.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!proc.waitFor(60, TimeUnit.SECONDS) || proc.exitValue() != 0) {
            throw new AssertionError("kubectl kustomize " + dir + " failed: " + err);
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    static List<ObjectNode> parse(String yaml) throws IOException {
        List<ObjectNode> docs = new ArrayList<>();
        for (Iterator<JsonNode> it = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readValues(new YAMLFactory().createParser(yaml), JsonNode.class); it.hasNext(); ) {
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
