package dev.meshbench.istioconfig;

import static dev.meshbench.istioconfig.IstioCrdSchemaTest.assertMessages;
import static dev.meshbench.istioconfig.KustomizeLayoutTest.PART_OF;
import static dev.meshbench.istioconfig.LatencyManifests.GRAPH;
import static dev.meshbench.istioconfig.LatencyManifests.ROOT;
import static dev.meshbench.istioconfig.LatencyManifests.STUDY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.istioconfig.KitManifests.Document;
import dev.meshbench.istioconfig.KitManifests.Kustomization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The latency study's tree under {@code latency/}, checked as files (LatencyCellsTest renders the cells): every file
 * belongs to its folder's kustomization, the cells are exactly the matrix's 16 and each composes what its name says,
 * every resource is labelled, reads into its typed fabric8 model and, for Istio's kinds, validates against Istio's
 * CRD schema.
 */
class LatencyLayoutTest {

    /** What a cell's kustomization.yaml may hold: it only composes. */
    private static final Set<String> CELL_FIELDS = Set.of("apiVersion", "kind", "resources", "components");

    /**
     * {@link KustomizeLayoutTest#referenceProblems(Path, List)} for every kustomization of the tree, and files in a
     * folder without a kustomization.yaml (Markdown files aside: notes, not manifests).
     */
    static List<String> referenceProblems(LatencyManifests tree) {
        List<String> out = KustomizeLayoutTest.referenceProblems(tree.moduleDir(), tree.kustomizations());
        Set<String> folders = tree.kustomizations().stream().map(Kustomization::dir).collect(Collectors.toSet());
        for (String file : KustomizeLayoutTest.files(tree.moduleDir(), ROOT)) {
            if (!file.endsWith(".md") && !folders.contains(file.substring(0, file.lastIndexOf('/')))) {
                out.add(file + ": orphan, in a folder without kustomization.yaml");
            }
        }
        return out;
    }

    /**
     * Folders under {@code latency/cells/} that are no cell of the matrix, cells without a folder, and cells whose
     * kustomization composes anything but {@code ../../services/<graph>} and the components their name says.
     */
    static List<String> cellProblems(LatencyManifests tree) {
        List<String> out = new ArrayList<>();
        Map<String, LatencyCell> cells = new LinkedHashMap<>();
        LatencyCell.matrix().forEach(c -> cells.put(c.dir(), c));
        for (Kustomization k : tree.cellFolders()) {
            String where = k.dir() + "/kustomization.yaml: ";
            LatencyCell cell = cells.remove(k.dir());
            if (cell == null) {
                out.add(where + "not a cell of the matrix (<graph>-<scale>-<ingress>-<sidecar>: single|double, 1|5, "
                        + "none|gateway, none|sidecar)");
                continue;
            }
            k.tree().fieldNames().forEachRemaining(field -> {
                if (!CELL_FIELDS.contains(field)) {
                    out.add(where + "'" + field + "' does not belong in a cell, which only composes resources and components");
                }
            });
            if (!cell.resources().equals(k.resources())) {
                out.add(where + "resources " + k.resources() + ", cell " + cell.id() + " is " + cell.resources());
            }
            if (!cell.components().equals(k.components())) {
                out.add(where + "components " + k.components() + ", cell " + cell.id() + " is " + cell.components());
            }
        }
        cells.values().forEach(c -> out.add(c.dir() + "/kustomization.yaml: missing, no folder for cell " + c.id()));
        return out;
    }

    /**
     * Resources without {@code part-of: meshbench} and {@code study: latency}, and those of
     * {@code services/<graph>} without {@code app.kubernetes.io/component: graph-node} (what components scale-5 and
     * sidecar select) and {@code meshbench.dev/graph: <graph>}.
     */
    static List<String> labelProblems(LatencyManifests tree) {
        List<String> out = new ArrayList<>();
        String services = ROOT + "/services/";
        for (Document d : tree.resources()) {
            Map<String, String> expected = new LinkedHashMap<>();
            expected.put(PART_OF, "meshbench");
            expected.put(STUDY, "latency");
            if (d.owner().dir().startsWith(services)) {
                expected.put("app.kubernetes.io/component", "graph-node");
                expected.put(GRAPH, d.owner().dir().substring(services.length()));
            }
            JsonNode labels = d.tree().path("metadata").path("labels");
            expected.forEach((key, value) -> {
                String actual = labels.path(key).asText(null);
                if (!value.equals(actual)) {
                    out.add(d.describe() + ": label " + key + " is " + (actual == null ? "missing" : actual)
                            + ", should be " + value);
                }
            });
        }
        return out;
    }

    @Test
    @DisplayName("every file under latency/ is named by its folder's kustomization, and every name exists")
    void noOrphanAndNoMissingFile() {
        assertEquals(List.of(), referenceProblems(LatencyManifests.load()));
    }

    @Test
    @DisplayName("the cells are the 16 of the matrix, each its graph's services plus the components its name says")
    void cellsAreTheMatrix() {
        LatencyManifests tree = LatencyManifests.load();
        assertEquals(List.of(), cellProblems(tree));
        assertEquals(16, tree.cellFolders().size(), "the folders the check looked at");
    }

    @Test
    @DisplayName("every resource carries part-of meshbench and study latency; graph services their graph")
    void everyResourceIsLabelled() {
        LatencyManifests tree = LatencyManifests.load();
        assertFalse(tree.resources().isEmpty(), "no resource found");
        assertEquals(List.of(), labelProblems(tree));
    }

    @Test
    @DisplayName("the graph folders are the graph files: services/<graph> for each latency/graphs/<graph>.yaml")
    void oneServicesFolderPerGraph() {
        LatencyManifests tree = LatencyManifests.load();
        assertEquals(LatencyCell.GRAPHS.stream().sorted().toList(), tree.graphs().keySet().stream().sorted().toList());
        assertEquals(LatencyCell.GRAPHS.stream().map(g -> ROOT + "/services/" + g).sorted().toList(),
                tree.kustomizations().stream().map(Kustomization::dir).filter(d -> d.startsWith(ROOT + "/services/")).toList());
    }

    @TestFactory
    @DisplayName("every document under latency/ reads into its typed fabric8 model with every field known")
    Stream<DynamicTest> everyDocumentReadsIntoItsTypedModel() {
        List<Document> documents = LatencyManifests.load().documents();
        assertFalse(documents.isEmpty(), "no document found");
        return documents.stream().map(d -> dynamicTest(d.describe() + (d.patch() ? " (patch)" : ""), () -> {
            List<String> problems = TypedModelTest.problems(d.file(), d.tree());
            assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
        }));
    }

    @TestFactory
    @DisplayName("every Istio resource under latency/ validates against its CRD schema")
    Stream<DynamicTest> everyIstioResourceValidates() throws IOException {
        LatencyManifests tree = LatencyManifests.load();
        IstioSchemas schemas = IstioSchemas.load(tree.moduleDir());
        List<Document> istio = tree.resources().stream().filter(d -> d.apiVersion().contains(".istio.io/")).toList();
        assertEquals(2, istio.size(), "the Gateway and the VirtualService of components/gateway");
        return istio.stream().map(d -> dynamicTest(d.describe(), () -> {
            schemas.assume();
            List<String> errors = schemas.validator().validate(d.file(), d.tree());
            assertTrue(errors.isEmpty(), () -> errors.size() + " schema error(s):\n" + String.join("\n", errors));
        }));
    }

    @Test
    @DisplayName("reports an orphan, a missing file, a wrong cell, a missing cell and a missing label in a broken copy")
    void reportsABrokenCopy(@TempDir Path copy) throws IOException {
        LatencyManifests real = LatencyManifests.load();
        KustomizeLayoutTest.copyTree(real.moduleDir().resolve(ROOT), copy.resolve(ROOT));
        Path latency = copy.resolve(ROOT);
        Files.writeString(latency.resolve("components/gateway/forgotten.yaml"), "kind: ConfigMap\n");
        Files.writeString(latency.resolve("services/notes.yaml"), "kind: ConfigMap\n");
        Files.delete(latency.resolve("components/sidecar/graph-nodes.yaml"));
        KustomizeLayoutTest.replace(latency.resolve("cells/single-5-none-sidecar/kustomization.yaml"),
                "  - ../../components/scale-5\n", "");
        Files.move(latency.resolve("cells/double-1-none-none"), latency.resolve("cells/double-2-none-none"));
        KustomizeLayoutTest.replace(latency.resolve("cells/double-1-gateway-none/kustomization.yaml"),
                "kind: Kustomization\n", "kind: Kustomization\nnamespace: other\n");
        KustomizeLayoutTest.replace(latency.resolve("services/double/go-sample.yaml"),
                "    meshbench.dev/graph: double\nspec:\n  selector:", "    meshbench.dev/graph: single\nspec:\n  selector:");

        LatencyManifests broken = LatencyManifests.at(copy);
        assertMessages(List.of(
                "latency/components/sidecar/kustomization.yaml: graph-nodes.yaml does not exist",
                "latency/components/gateway/forgotten.yaml: orphan, latency/components/gateway/kustomization.yaml does not name it",
                "latency/services/notes.yaml: orphan, in a folder without kustomization.yaml"),
                referenceProblems(broken));
        assertMessages(List.of(
                "latency/cells/single-5-none-sidecar/kustomization.yaml: components [../../components/sidecar], cell "
                        + "single/5/none/sidecar is [../../components/scale-5, ../../components/sidecar]",
                "latency/cells/double-2-none-none/kustomization.yaml: not a cell of the matrix",
                "latency/cells/double-1-none-none/kustomization.yaml: missing, no folder for cell double/1/none/none",
                "latency/cells/double-1-gateway-none/kustomization.yaml: 'namespace' does not belong in a cell"),
                cellProblems(broken));
        assertMessages(List.of("latency/services/double/go-sample.yaml: Service go-sample: label meshbench.dev/graph is "
                + "single, should be double"), labelProblems(broken));
    }
}
