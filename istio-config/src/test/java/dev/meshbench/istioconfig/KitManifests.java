package dev.meshbench.istioconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The module's manifests as the tests see them: the kustomize base and one overlay per case, each file by its path
 * relative to the module ({@code base/auth.yaml}, {@code cases/mtls/gateway.yaml}), each YAML document parsed.
 *
 * <p>A kustomization names two sorts of file: {@code resources} (full resources, one or more documents each) and
 * {@code patches} (partial resources a kustomization merges into others, such as {@code cases/bypass/exclude-mongo.yaml}).
 * Neither the kustomization files nor the patches are full resources.
 */
final class KitManifests {

    static final YAMLMapper YAML = new YAMLMapper();
    /**
     * The Component beside a case's kustomization whose replacements copy meshbench-mongo's values into the case; the
     * orchestrator includes it again over the run's values ({@code orchestrator/.../kubernetes/KubectlKustomize}).
     */
    static final String PARAMETERS = "parameters";

    /** One kustomization directory: {@code base}, {@code cases/<id>} or a case's Component {@code cases/<id>/parameters}. */
    record Kustomization(String dir, JsonNode tree) {

        /** {@code base} has no case; an overlay's case is its folder's name. */
        String caseId() {
            return dir.startsWith("cases/") ? dir.split("/")[1] : null;
        }

        String namespace() {
            return tree.path("namespace").asText(null);
        }

        /** Entries of {@code resources}, as written (files or directories, relative to {@link #dir}). */
        List<String> resources() {
            return strings(tree.path("resources"));
        }

        /** Files a kustomization merges into resources: {@code patches[].path}, {@code patchesStrategicMerge}, {@code patchesJson6902[].path}. */
        List<String> patches() {
            List<String> out = new ArrayList<>();
            tree.path("patches").forEach(p -> { if (p.hasNonNull("path")) out.add(p.get("path").asText()); });
            out.addAll(strings(tree.path("patchesStrategicMerge")));
            tree.path("patchesJson6902").forEach(p -> { if (p.hasNonNull("path")) out.add(p.get("path").asText()); });
            return out;
        }

        /** Entries of {@code components}, as written (directories, relative to {@link #dir}). */
        List<String> components() {
            return strings(tree.path("components"));
        }

        /** Files a {@code configMapGenerator} reads: its {@code files} entries, {@code key=path} or {@code path}. */
        List<String> generatorFiles() {
            List<String> out = new ArrayList<>();
            tree.path("configMapGenerator").forEach(g -> g.path("files").forEach(f -> {
                String entry = f.asText();
                out.add(entry.substring(entry.indexOf('=') + 1));
            }));
            return out;
        }

        /**
         * {@link #resources()}, {@link #patches()}, {@link #components()} and {@link #generatorFiles()}: every path
         * this kustomization reads.
         */
        List<String> references() {
            List<String> out = new ArrayList<>(resources());
            out.addAll(patches());
            out.addAll(components());
            out.addAll(generatorFiles());
            return out;
        }

        private static List<String> strings(JsonNode array) {
            List<String> out = new ArrayList<>();
            array.forEach(n -> out.add(n.asText()));
            return out;
        }
    }

    /**
     * One YAML document of a manifest file.
     *
     * @param file  path relative to the module, e.g. {@code cases/sni/serviceentry.yaml}
     * @param index the document's position in the file, from 0
     * @param patch whether the file is a patch (a partial resource) rather than a resource
     */
    record Document(String file, int index, JsonNode tree, boolean patch, Kustomization owner) {

        String kind() {
            return tree.path("kind").asText("");
        }

        String apiVersion() {
            return tree.path("apiVersion").asText("");
        }

        String name() {
            return tree.path("metadata").path("name").asText("");
        }

        /** {@code cases/mtls/gateway.yaml: Gateway istio-egressgateway}, the prefix of every message about it. */
        String describe() {
            return file + ": " + kind() + " " + name();
        }

        @Override
        public String toString() {
            return describe();
        }
    }

    private final Path moduleDir;
    private final List<Kustomization> kustomizations;
    private final List<Document> documents;

    private KitManifests(Path moduleDir) {
        this.moduleDir = moduleDir;
        List<Kustomization> all = new ArrayList<>();
        all.add(readKustomization(moduleDir, "base"));
        try (Stream<Path> cases = Files.list(moduleDir.resolve("cases"))) {
            cases.filter(Files::isDirectory).map(p -> "cases/" + p.getFileName()).sorted()
                    .forEach(dir -> {
                        all.add(readKustomization(moduleDir, dir));
                        if (Files.isRegularFile(moduleDir.resolve(dir).resolve(PARAMETERS).resolve("kustomization.yaml"))) {
                            all.add(readKustomization(moduleDir, dir + "/" + PARAMETERS));
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + moduleDir.resolve("cases"), e);
        }
        this.kustomizations = List.copyOf(all);
        this.documents = readDocuments(moduleDir, kustomizations);
    }

    /** The manifests of this module: surefire runs tests in the module's directory (its {@code basedir}). */
    static KitManifests load() {
        Path dir = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
        if (!Files.isRegularFile(dir.resolve("base/kustomization.yaml"))) {
            throw new IllegalStateException("no base/kustomization.yaml under " + dir
                    + ": run the tests from the istio-config module directory (or set -Dbasedir to it)");
        }
        return at(dir);
    }

    /** The manifests under a module directory holding {@code base/} and {@code cases/} (tests' broken copies). */
    static KitManifests at(Path moduleDir) {
        return new KitManifests(moduleDir);
    }

    Path moduleDir() {
        return moduleDir;
    }

    /** {@code base} first, then every {@code cases/<id>} in name order, each followed by its {@code parameters} Component. */
    List<Kustomization> kustomizations() {
        return kustomizations;
    }

    Kustomization base() {
        return kustomizations.get(0);
    }

    /** The cases' folders ({@code cases/<id>}), without their Components. */
    List<Kustomization> overlays() {
        return kustomizations.subList(1, kustomizations.size()).stream().filter(k -> k.dir().split("/").length == 2).toList();
    }

    /**
     * Every document of every resource and patch file the kustomizations name, in kustomization order (a file that
     * does not exist is left out here; {@code KustomizeLayoutTest} reports it).
     */
    List<Document> documents() {
        return documents;
    }

    /**
     * Every document of every resource and patch file the kustomizations name, in kustomization order; files that do
     * not exist are left out.
     */
    static List<Document> readDocuments(Path moduleDir, List<Kustomization> kustomizations) {
        List<Document> out = new ArrayList<>();
        for (Kustomization k : kustomizations) {
            for (String ref : k.resources()) {
                String path = relative(k.dir(), ref);
                if (Files.isRegularFile(moduleDir.resolve(path))) {
                    out.addAll(read(moduleDir, path, false, k));
                }
            }
            for (String ref : k.patches()) {
                String path = relative(k.dir(), ref);
                if (Files.isRegularFile(moduleDir.resolve(path))) {
                    out.addAll(read(moduleDir, path, true, k));
                }
            }
        }
        return List.copyOf(out);
    }

    /** Full resources only (no patches). */
    List<Document> resources() {
        return documents().stream().filter(d -> !d.patch()).toList();
    }

    /** {@code ref} of a kustomization in {@code dir}, as a normalized path relative to the module. */
    static String relative(String dir, String ref) {
        return Path.of(dir).resolve(ref).normalize().toString().replace('\\', '/');
    }

    /** Parses one file into its documents (empty documents, such as a trailing {@code ---}, left out). */
    private static List<Document> read(Path moduleDir, String file, boolean patch, Kustomization owner) {
        List<Document> out = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(moduleDir.resolve(file).toFile())) {
            int index = 0;
            while (docs.hasNext()) {
                JsonNode tree = docs.next();
                if (tree != null && !tree.isNull() && !tree.isMissingNode() && !tree.isEmpty()) {
                    out.add(new Document(file, index, tree, patch, owner));
                }
                index++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + moduleDir.resolve(file), e);
        }
        return out;
    }

    /** The kustomization.yaml of folder {@code dir} (relative to the module). */
    static Kustomization readKustomization(Path moduleDir, String dir) {
        Path file = moduleDir.resolve(dir).resolve("kustomization.yaml");
        try {
            return new Kustomization(dir, YAML.readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        }
    }

    /** One YAML document given as text (tests' ad-hoc schemas and resources). */
    static JsonNode parse(String yaml) {
        try {
            return YAML.readTree(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("parsing " + yaml, e);
        }
    }
}
