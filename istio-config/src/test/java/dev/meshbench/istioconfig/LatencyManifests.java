package dev.meshbench.istioconfig;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.istioconfig.KitManifests.Document;
import dev.meshbench.istioconfig.KitManifests.Kustomization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The latency study's kustomize tree under {@code latency/} as the tests see it: every folder holding a
 * kustomization.yaml ({@code graphs}, {@code base}, {@code services/<graph>}, {@code components/<name>},
 * {@code cells/<cell>}) with the documents of the resources and patches it names, parsed as {@link KitManifests}
 * parses base/ and cases/, and the service graphs of {@code latency/graphs/}.
 */
final class LatencyManifests {

    static final String ROOT = "latency";
    static final String NAMESPACE = "meshbench-latency";
    static final String STUDY = "meshbench.dev/study";
    static final String GRAPH = "meshbench.dev/graph";
    static final String ENTRYPOINT = "meshbench.dev/entrypoint";

    /**
     * One service graph file, {@code latency/graphs/<name>.yaml} (isotope's MockServiceGraph).
     *
     * @param services   the services' names, in file order
     * @param entrypoint the service marked {@code isEntrypoint: true}
     * @param text       the file as it is, which the graphs' ConfigMap must hold unchanged
     */
    record Graph(String name, List<String> services, String entrypoint, String text) {

        /** The key of the graphs' ConfigMap holding this graph, and the file name under the mount path. */
        String fileName() {
            return name + ".yaml";
        }
    }

    private final Path moduleDir;
    private final List<Kustomization> kustomizations;
    private final List<Document> documents;

    private LatencyManifests(Path moduleDir) {
        this.moduleDir = moduleDir;
        try (Stream<Path> walk = Files.walk(moduleDir.resolve(ROOT))) {
            this.kustomizations = walk.filter(p -> p.getFileName().toString().equals("kustomization.yaml"))
                    .map(p -> moduleDir.relativize(p.getParent()).toString().replace('\\', '/')).sorted()
                    .map(dir -> KitManifests.readKustomization(moduleDir, dir)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + moduleDir.resolve(ROOT), e);
        }
        this.documents = KitManifests.readDocuments(moduleDir, kustomizations);
    }

    /** The tree of this module (see {@link KitManifests#load()}). */
    static LatencyManifests load() {
        return at(KitManifests.load().moduleDir());
    }

    /** The tree under a module directory holding {@code latency/} (tests' broken copies). */
    static LatencyManifests at(Path moduleDir) {
        return new LatencyManifests(moduleDir);
    }

    Path moduleDir() {
        return moduleDir;
    }

    /** Every kustomization and component of the tree, by folder name. */
    List<Kustomization> kustomizations() {
        return kustomizations;
    }

    /** The folders under {@code latency/cells/}, whatever their names. */
    List<Kustomization> cellFolders() {
        return kustomizations.stream().filter(k -> k.dir().startsWith(ROOT + "/cells/")).toList();
    }

    /** Every document of the resources and patches the tree's kustomizations name. */
    List<Document> documents() {
        return documents;
    }

    /** Full resources only (no patches). */
    List<Document> resources() {
        return documents.stream().filter(d -> !d.patch()).toList();
    }

    /** Every graph file, {@code latency/graphs/*.yaml} but the kustomization, by graph name. */
    Map<String, Graph> graphs() {
        Map<String, Graph> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(moduleDir.resolve(ROOT).resolve("graphs"))) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".yaml") && !name.equals("kustomization.yaml")) {
                    Graph g = readGraph(name.substring(0, name.length() - ".yaml".length()), Files.readString(file));
                    out.put(g.name(), g);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the graphs under " + moduleDir.resolve(ROOT), e);
        }
        return out;
    }

    private static Graph readGraph(String name, String text) {
        JsonNode tree = KitManifests.parse(text);
        List<String> services = new ArrayList<>();
        String entrypoint = null;
        for (JsonNode s : tree.path("services")) {
            String service = s.path("name").asText();
            services.add(service);
            if (s.path("isEntrypoint").asBoolean(false)) {
                entrypoint = service;
            }
        }
        return new Graph(name, List.copyOf(services), entrypoint, text);
    }
}
