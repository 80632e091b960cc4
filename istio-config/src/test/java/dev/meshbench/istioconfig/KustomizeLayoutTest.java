package dev.meshbench.istioconfig;

import static dev.meshbench.istioconfig.IstioCrdSchemaTest.assertMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.istioconfig.KitManifests.Document;
import dev.meshbench.istioconfig.KitManifests.Kustomization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kustomize layout the orchestrator relies on: every file belongs to its folder's kustomization, every overlay
 * builds on base in base's namespace, and every resource says by its labels which layer or case owns it.
 */
class KustomizeLayoutTest {

    static final String PART_OF = "app.kubernetes.io/part-of";
    static final String LAYER = "meshbench.dev/layer";
    static final String CASE = "meshbench.dev/case";

    /**
     * Files no kustomization names (each must be named by the kustomization of its own folder: base/ or
     * cases/&lt;id&gt;/), and names of files or directories that do not exist.
     */
    static List<String> referenceProblems(KitManifests kit) {
        List<String> out = referenceProblems(kit.moduleDir(), kit.kustomizations());
        // Files beside the case folders belong to no kustomization.
        for (String file : files(kit.moduleDir(), "cases")) {
            if (file.indexOf('/', "cases/".length()) < 0) {
                out.add(file + ": orphan, outside every case folder");
            }
        }
        return out;
    }

    /**
     * For each kustomization: the files, directories and generator inputs it names that do not exist (a directory
     * must hold a kustomization.yaml), and the files under its folder it does not name.
     */
    static List<String> referenceProblems(Path moduleDir, List<Kustomization> kustomizations) {
        List<String> out = new ArrayList<>();
        for (Kustomization k : kustomizations) {
            Set<String> named = new HashSet<>();
            for (String ref : k.references()) {
                String path = KitManifests.relative(k.dir(), ref);
                Path target = moduleDir.resolve(path);
                if (Files.isDirectory(target)) {
                    if (!Files.isRegularFile(target.resolve("kustomization.yaml"))) {
                        out.add(k.dir() + "/kustomization.yaml: " + ref + " is a directory without kustomization.yaml");
                    }
                } else if (!Files.isRegularFile(target)) {
                    out.add(k.dir() + "/kustomization.yaml: " + ref + " does not exist");
                } else {
                    named.add(path);
                }
            }
            // A kustomization nested in this one's folder (a case's parameters Component) names its own files.
            List<String> nested = kustomizations.stream().map(Kustomization::dir).filter(d -> d.startsWith(k.dir() + "/"))
                    .map(d -> d + "/").toList();
            for (String file : files(moduleDir, k.dir())) {
                if (nested.stream().anyMatch(file::startsWith)) {
                    continue;
                }
                if (!file.equals(k.dir() + "/kustomization.yaml") && !named.contains(file)) {
                    out.add(file + ": orphan, " + k.dir() + "/kustomization.yaml does not name it");
                }
            }
        }
        return out;
    }

    /** Overlays that do not build on ../../base, or put their resources in another namespace than base. */
    static List<String> namespaceProblems(KitManifests kit) {
        List<String> out = new ArrayList<>();
        String namespace = kit.base().namespace();
        if (namespace == null) {
            out.add("base/kustomization.yaml: no namespace");
        }
        boolean declared = kit.resources().stream().anyMatch(d -> d.owner() == kit.base() && d.kind().equals("Namespace")
                && d.name().equals(namespace));
        if (!declared) {
            out.add("base/: no Namespace resource named " + namespace + " (base/kustomization.yaml's namespace)");
        }
        for (Kustomization overlay : kit.overlays()) {
            if (overlay.resources().stream().noneMatch(r -> KitManifests.relative(overlay.dir(), r).equals("base"))) {
                out.add(overlay.dir() + "/kustomization.yaml: does not build on ../../base (resources: " + overlay.resources() + ")");
            }
            if (namespace != null && !namespace.equals(overlay.namespace())) {
                out.add(overlay.dir() + "/kustomization.yaml: namespace " + overlay.namespace() + ", base's is " + namespace);
            }
        }
        return out;
    }

    /**
     * Resources without the labels of their owner: base's {@code part-of: meshbench} and {@code layer: base}, a
     * case's {@code part-of: meshbench} and {@code case: <its folder>}; and neither with the other's label (the
     * bypass patch selects Deployments by {@code layer=base}). Patches are partial resources and carry none.
     */
    static List<String> labelProblems(KitManifests kit) {
        List<String> out = new ArrayList<>();
        for (Document d : kit.resources()) {
            String caseId = d.owner().caseId();
            Map<String, String> expected = caseId == null
                    ? Map.of(PART_OF, "meshbench", LAYER, "base")
                    : Map.of(PART_OF, "meshbench", CASE, caseId);
            JsonNode labels = d.tree().path("metadata").path("labels");
            expected.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
                String actual = labels.path(e.getKey()).asText(null);
                if (!e.getValue().equals(actual)) {
                    out.add(d.describe() + ": label " + e.getKey() + " is " + (actual == null ? "missing" : actual)
                            + ", should be " + e.getValue());
                }
            });
            String foreign = caseId == null ? CASE : LAYER;
            if (labels.has(foreign)) {
                out.add(d.describe() + ": label " + foreign + " does not belong on a resource of "
                        + (caseId == null ? "base" : "case " + caseId));
            }
        }
        return out;
    }

    @Test
    @DisplayName("every file in base/ and cases/<id>/ is named by its kustomization.yaml, and every name exists")
    void noOrphanAndNoMissingFile() {
        assertEquals(List.of(), referenceProblems(KitManifests.load()));
    }

    @Test
    @DisplayName("every overlay builds on base and keeps base's namespace")
    void overlaysKeepBasesNamespace() {
        assertEquals(List.of(), namespaceProblems(KitManifests.load()));
    }

    @Test
    @DisplayName("every resource carries part-of meshbench and its layer (base) or case (the folder's name)")
    void everyResourceIsLabelledWithItsOwner() throws IOException {
        KitManifests kit = KitManifests.load();
        assertEquals(List.of(), labelProblems(kit));
        // Which cases have an overlay is the orchestrator's CaseListConsistencyTest's concern (against EgressCase).
        Set<String> folders = new HashSet<>(Set.of("base"));
        try (Stream<Path> cases = Files.list(kit.moduleDir().resolve("cases"))) {
            cases.filter(Files::isDirectory).forEach(d -> folders.add(d.getFileName().toString()));
        }
        assertEquals(folders, Set.copyOf(kit.kustomizations().stream()
                .map(k -> k.caseId() == null ? "base" : k.caseId()).toList()), "the folders the checks looked at");
    }

    @Test
    @DisplayName("reports an orphan file, a missing file, a foreign namespace and wrong labels in a broken copy")
    void reportsABrokenCopy(@TempDir Path copy) throws IOException {
        KitManifests real = KitManifests.load();
        copyTree(real.moduleDir().resolve("base"), copy.resolve("base"));
        copyTree(real.moduleDir().resolve("cases"), copy.resolve("cases"));
        Files.writeString(copy.resolve("cases/sni/forgotten.yaml"), "kind: ConfigMap\n");
        Files.delete(copy.resolve("cases/gateway/gateway.yaml"));
        replace(copy.resolve("cases/mtls/kustomization.yaml"), "namespace: acmeair", "namespace: other");
        replace(copy.resolve("cases/sidecar/serviceentry.yaml"), "meshbench.dev/case: sidecar", "meshbench.dev/case: gateway");
        replace(copy.resolve("base/workload.yaml"), "    meshbench.dev/layer: base\n", "    meshbench.dev/case: bypass\n");

        KitManifests broken = KitManifests.at(copy);
        assertMessages(List.of(
                "cases/gateway/kustomization.yaml: gateway.yaml does not exist",
                "cases/sni/forgotten.yaml: orphan, cases/sni/kustomization.yaml does not name it"),
                referenceProblems(broken));
        assertMessages(List.of("cases/mtls/kustomization.yaml: namespace other, base's is acmeair"), namespaceProblems(broken));
        assertMessages(List.of(
                "base/workload.yaml: ConfigMap meshbench-workload: label meshbench.dev/layer is missing, should be base",
                "base/workload.yaml: ConfigMap meshbench-workload: label meshbench.dev/case does not belong on a resource of base",
                "cases/sidecar/serviceentry.yaml: ServiceEntry mongo: label meshbench.dev/case is gateway, should be sidecar"),
                labelProblems(broken));
    }

    /** Every regular file under {@code dir} (relative to the module), in name order. */
    static List<String> files(Path moduleDir, String dir) {
        try (Stream<Path> walk = Files.walk(moduleDir.resolve(dir))) {
            return walk.filter(Files::isRegularFile).map(p -> moduleDir.relativize(p).toString().replace('\\', '/'))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + moduleDir.resolve(dir), e);
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    static void replace(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        if (!text.contains(from)) {
            throw new IllegalArgumentException(file + " has no " + from);
        }
        Files.writeString(file, text.replace(from, to));
    }
}
