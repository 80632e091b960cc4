package dev.meshbench.istioconfig;

import static dev.meshbench.istioconfig.IstioCrdSchemaTest.assertMessages;
import static dev.meshbench.istioconfig.KustomizeLayoutTest.PART_OF;
import static dev.meshbench.istioconfig.LatencyManifests.ENTRYPOINT;
import static dev.meshbench.istioconfig.LatencyManifests.GRAPH;
import static dev.meshbench.istioconfig.LatencyManifests.NAMESPACE;
import static dev.meshbench.istioconfig.LatencyManifests.ROOT;
import static dev.meshbench.istioconfig.LatencyManifests.STUDY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.istioconfig.LatencyManifests.Graph;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every cell of the latency study rendered by {@code kubectl kustomize} (skipped where kubectl is not on PATH; see
 * {@link KubectlKustomize} for why not the kit's renderer), and checked for what its id says: the graph's services
 * at the cell's scale, sidecar injection on or off, Gateway and VirtualService to the graph's entrypoint if and only
 * if ingress is the gateway, the graphs' ConfigMap equal to the graph files, the fortio client; and every rendered
 * resource valid (typed fabric8 model, Istio CRD schema).
 */
class LatencyCellsTest {

    static final String GRAPHS_CONFIGMAP = "latency-graphs";
    static final String GRAPHS_MOUNT = "/etc/meshbench/graphs";
    static final String GATEWAY = "latency-ingress";
    static final String VIRTUAL_SERVICE = "latency-entrypoint";
    static final String INJECT = "sidecar.istio.io/inject";

    private static LatencyManifests tree;
    private static IstioSchemas schemas;
    /** The graph services' image: what istio-config/base gives {@code acmeair-services}. */
    private static String servicesImage;
    private static final Map<LatencyCell, List<JsonNode>> RENDERED = new ConcurrentHashMap<>();

    @BeforeAll
    static void load() throws IOException {
        KitManifests kit = KitManifests.load();
        tree = LatencyManifests.at(kit.moduleDir());
        schemas = IstioSchemas.load(kit.moduleDir());
        for (JsonNode image : kit.base().tree().path("images")) {
            if (image.path("name").asText().equals("acmeair-services")) {
                servicesImage = image.path("newName").asText() + ":" + image.path("newTag").asText();
            }
        }
        assertNotNull(servicesImage, "base/kustomization.yaml gives no image for acmeair-services");
    }

    /** The cell rendered from {@code moduleDir}'s tree; skips the calling test where kubectl is not on PATH. */
    static List<JsonNode> render(Path moduleDir, LatencyCell cell) {
        return KubectlKustomize.render(moduleDir.resolve(cell.dir()));
    }

    private static List<JsonNode> rendered(LatencyCell cell) {
        return RENDERED.computeIfAbsent(cell, c -> render(tree.moduleDir(), c));
    }

    /**
     * Everything in a cell's rendering that its id does not call for, one message each, {@code <cell>: <Kind>
     * <name>: <what> is <actual>, should be <expected>}; empty if the rendering is right.
     */
    static List<String> renderedProblems(LatencyCell cell, List<JsonNode> rendered, Map<String, Graph> graphs, String image) {
        Problems p = new Problems(cell.id());
        Graph graph = graphs.get(cell.graph());
        Map<String, JsonNode> byId = new TreeMap<>();
        for (JsonNode r : rendered) {
            if (byId.put(r.path("kind").asText() + "/" + r.path("metadata").path("name").asText(), r) != null) {
                p.add("", "two resources " + r.path("kind").asText() + "/" + r.path("metadata").path("name").asText());
            }
        }
        Set<String> expected = new TreeSet<>(List.of("Namespace/" + NAMESPACE, "ConfigMap/" + GRAPHS_CONFIGMAP, "Deployment/fortio"));
        graph.services().forEach(s -> expected.addAll(List.of("Deployment/" + s, "Service/" + s)));
        if (cell.gateway()) {
            expected.addAll(List.of("Gateway/" + GATEWAY, "VirtualService/" + VIRTUAL_SERVICE));
        }
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(byId.keySet());
        Set<String> extra = new TreeSet<>(byId.keySet());
        extra.removeAll(expected);
        if (!missing.isEmpty() || !extra.isEmpty()) {
            p.add("", "resources: missing " + missing + ", not called for " + extra);
        }

        for (JsonNode r : rendered) {
            String who = r.path("kind").asText() + " " + r.path("metadata").path("name").asText();
            p.expect(who, r, "/metadata/labels/" + escape(PART_OF), "meshbench");
            p.expect(who, r, "/metadata/labels/" + escape(STUDY), "latency");
            if (!r.path("kind").asText().equals("Namespace")) {
                p.expect(who, r, "/metadata/namespace", NAMESPACE);
            }
        }
        on(byId, "Namespace/" + NAMESPACE, (who, ns) -> {
            p.expect(who, ns, "/metadata/labels/istio-injection", cell.sidecar() ? "enabled" : "disabled");
            p.expect(who, ns, "/metadata/annotations/" + escape(GRAPH), graph.name());
            p.expect(who, ns, "/metadata/annotations/" + escape(ENTRYPOINT), graph.entrypoint());
        });
        for (String service : graph.services()) {
            on(byId, "Deployment/" + service, (who, d) -> {
                p.expect(who, d, "/spec/replicas", Integer.toString(cell.scale()));
                p.expect(who, d, "/spec/template/metadata/labels/" + escape(INJECT), Boolean.toString(cell.sidecar()));
                p.expect(who, d, "/spec/template/spec/containers/0/image", image);
                p.expect(who, d, "/spec/template/spec/containers/0/args", "[\"graph-node\"]");
                p.expect(who, d, "/spec/template/spec/containers/0/readinessProbe/httpGet/path", "/health/ready");
                Map<String, String> env = new TreeMap<>();
                d.at("/spec/template/spec/containers/0/env").forEach(e -> env.put(e.path("name").asText(), e.path("value").asText()));
                p.expect(who, "env", env, Map.of("GRAPH_FILE", GRAPHS_MOUNT + "/" + graph.fileName(), "SERVICE_NAME", service,
                        "PORT", "8080", "BIND_HOST", "0.0.0.0"));
                p.expect(who, d, "/spec/template/spec/containers/0/volumeMounts/0/mountPath", GRAPHS_MOUNT);
                p.expect(who, d, "/spec/template/spec/volumes/0/configMap/name", GRAPHS_CONFIGMAP);
            });
            on(byId, "Service/" + service, (who, s) -> {
                p.expect(who, s, "/spec/selector/app", service);
                p.expect(who, s, "/spec/ports/0/port", "8080");
            });
        }
        on(byId, "Deployment/fortio", (who, d) -> {
            p.expect(who, d, "/spec/replicas", "1");
            p.expect(who, d, "/spec/template/metadata/labels/" + escape(INJECT), "false");
            p.expect(who, d, "/spec/template/metadata/annotations/" + escape(INJECT), "false");
            p.expect(who, d, "/spec/template/spec/containers/0/args", "[\"server\"]");
            p.expect(who, d, "/spec/template/spec/containers/0/resources/requests/cpu", "2");
        });
        on(byId, "ConfigMap/" + GRAPHS_CONFIGMAP, (who, c) -> graphs.values().forEach(g ->
                p.expect(who, c, "/data/" + g.fileName(), g.text())));
        on(byId, "Gateway/" + GATEWAY, (who, g) -> {
            p.expect(who, g, "/spec/selector/istio", "ingressgateway");
            p.expect(who, g, "/spec/servers/0/port/number", "80");
            p.expect(who, g, "/spec/servers/0/port/protocol", "HTTP");
            p.expect(who, g, "/spec/servers/0/hosts", "[\"*\"]");
        });
        on(byId, "VirtualService/" + VIRTUAL_SERVICE, (who, v) -> {
            p.expect(who, v, "/spec/hosts", "[\"*\"]");
            p.expect(who, v, "/spec/gateways", "[\"" + GATEWAY + "\"]");
            p.expect(who, v, "/spec/http/0/route/0/destination/host", graph.entrypoint());
            p.expect(who, v, "/spec/http/0/route/0/destination/port/number", "8080");
        });
        return p.messages;
    }

    /** The messages of one cell's check. */
    private static final class Problems {
        private final String cell;
        final List<String> messages = new ArrayList<>();

        Problems(String cell) {
            this.cell = cell;
        }

        void add(String who, String message) {
            messages.add(cell + ": " + (who.isEmpty() ? "" : who + ": ") + message);
        }

        /** The value at a JSON pointer, as text (scalars) or JSON (arrays, objects), against the expected text. */
        void expect(String who, JsonNode resource, String pointer, String expected) {
            JsonNode node = resource.at(pointer);
            String actual = node.isMissingNode() ? null : node.isValueNode() ? node.asText() : node.toString();
            if (!expected.equals(actual)) {
                add(who, pointer.substring(1).replace('/', '.').replace("~1", "/") + " is "
                        + (actual == null ? "missing" : actual) + ", should be " + expected);
            }
        }

        void expect(String who, String what, Object actual, Object expected) {
            if (!Objects.equals(expected, actual)) {
                add(who, what + " is " + actual + ", should be " + expected);
            }
        }
    }

    private interface Check {
        void accept(String who, JsonNode resource);
    }

    /** Runs a check on the resource {@code Kind/name} if the rendering has it (a missing one is reported once). */
    private static void on(Map<String, JsonNode> byId, String id, Check check) {
        JsonNode r = byId.get(id);
        if (r != null) {
            check.accept(id.replace('/', ' '), r);
        }
    }

    /** A label or annotation key as a JSON pointer segment. */
    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    @TestFactory
    @DisplayName("every cell renders with kubectl kustomize into what its id says")
    Stream<DynamicTest> everyCellRendersAsItsIdSays() {
        return LatencyCell.matrix().stream().map(cell -> dynamicTest(cell.id(), () -> assertEquals(List.of(),
                renderedProblems(cell, rendered(cell), tree.graphs(), servicesImage))));
    }

    @TestFactory
    @DisplayName("every resource of every rendered cell reads into its typed fabric8 model with every field known")
    Stream<DynamicTest> everyRenderedResourceReadsIntoItsTypedModel() {
        return LatencyCell.matrix().stream().map(cell -> dynamicTest(cell.id(), () -> {
            List<String> problems = new ArrayList<>();
            rendered(cell).forEach(r -> problems.addAll(TypedModelTest.problems(cell.dir(), r)));
            assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
        }));
    }

    @TestFactory
    @DisplayName("every Istio resource of every rendered cell validates against its CRD schema")
    Stream<DynamicTest> everyRenderedIstioResourceValidates() {
        return LatencyCell.matrix().stream().map(cell -> dynamicTest(cell.id(), () -> {
            schemas.assume();
            List<String> errors = new ArrayList<>();
            rendered(cell).stream().filter(r -> r.path("apiVersion").asText().contains(".istio.io/"))
                    .forEach(r -> errors.addAll(schemas.validator().validate(cell.dir(), r)));
            assertTrue(errors.isEmpty(), () -> errors.size() + " schema error(s):\n" + String.join("\n", errors));
        }));
    }

    @Test
    @DisplayName("reports the wrong replicas, injection, route and graph of a broken copy's rendering")
    void reportsABrokenCopy(@TempDir Path copy) throws IOException {
        KustomizeLayoutTest.copyTree(tree.moduleDir().resolve(ROOT), copy.resolve(ROOT));
        Path latency = copy.resolve(ROOT);
        LatencyCell cell = new LatencyCell("double", 5, true, true);
        KustomizeLayoutTest.replace(latency.resolve("cells/double-5-gateway-sidecar/kustomization.yaml"),
                "  - ../../components/scale-5\n", "");
        KustomizeLayoutTest.replace(latency.resolve("components/sidecar/namespace.yaml"),
                "istio-injection: enabled", "istio-injection: disabled");
        KustomizeLayoutTest.replace(latency.resolve("services/double/namespace.yaml"),
                "meshbench.dev/entrypoint: go-sample", "meshbench.dev/entrypoint: go-sample-dependency");
        KustomizeLayoutTest.replace(latency.resolve("services/double/go-sample-dependency.yaml"),
                "/etc/meshbench/graphs/double.yaml", "/etc/meshbench/graphs/single.yaml");

        Map<String, Graph> graphs = tree.graphs();
        String c = cell.id() + ": ";
        assertMessages(List.of(
                c + "Deployment go-sample: spec.replicas is 1, should be 5",
                c + "Deployment go-sample-dependency: spec.replicas is 1, should be 5",
                c + "Namespace meshbench-latency: metadata.labels.istio-injection is disabled, should be enabled",
                c + "Namespace meshbench-latency: metadata.annotations.meshbench.dev/entrypoint is go-sample-dependency, should be go-sample",
                c + "VirtualService latency-entrypoint: spec.http.0.route.0.destination.host is go-sample-dependency, should be go-sample",
                c + "Deployment go-sample-dependency: env is {BIND_HOST=0.0.0.0, GRAPH_FILE=/etc/meshbench/graphs/single.yaml"),
                renderedProblems(cell, render(copy, cell), graphs, servicesImage));
        assertMessages(List.of(c + "resources: missing [Deployment/go-sample, Deployment/go-sample-dependency, Service/go-sample, "
                        + "Service/go-sample-dependency], not called for [Deployment/a, Service/a]",
                c + "Namespace meshbench-latency: metadata.annotations.meshbench.dev/graph is single, should be double",
                c + "Namespace meshbench-latency: metadata.annotations.meshbench.dev/entrypoint is a, should be go-sample",
                c + "VirtualService latency-entrypoint: spec.http.0.route.0.destination.host is a, should be go-sample"),
                renderedProblems(cell, rendered(new LatencyCell("single", 5, true, true)), graphs, servicesImage));
    }
}
