package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.lifetime.WorkFolders;
import dev.meshbench.orchestrator.local.envoynginx.NativeBinaries;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Renders {@code istio-config} with kustomize itself: {@code kubectl kustomize} on a small overlay the run writes
 * over the case (or latency cell), so what the orchestrator applies is exactly what {@code kubectl apply -k} of that
 * overlay would apply. The overlay ({@link #overlay}) holds:
 * <ul>
 * <li>the case's folder as its one resource;</li>
 * <li>a Component with a {@code configMapGenerator} per parameter ConfigMap, {@code behavior: merge}, carrying the run's
 * values (the MongoDB host, its wildcard and address, the workload's switches);</li>
 * <li>the case's own {@code parameters} Component again, after those values: its {@code replacements} copy the
 * ConfigMap's values into the Istio resources, and inside the case they ran on the files' defaults;</li>
 * <li>{@code namespace} and {@code images} (by every name the tree gives the original image, see {@link #imageNames}).</li>
 * </ul>
 * Secrets (the MongoDB CA, the JWT key pair generated per run) never go to disk: {@link #withSecretData} sets them on
 * the rendered documents; no replacement reads them.
 */
public final class KubectlKustomize {
    public static final String P_KUBECTL = Catalogue.KUBECTL_BINARY.name();
    static final String INSTALL = "install kubectl 1.27 or later (kustomize v5 is built in)";
    /** The folder, beside a case's kustomization, of the Component whose replacements copy the run's parameters. */
    public static final String PARAMETERS = "parameters";
    /** How long one {@code kubectl kustomize} may take (it takes well under a second). */
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String TREE = "istio-config";
    private static final ObjectMapper YAML = new YAMLMapper();
    /** Plain YAML as kubectl prints it: strings quoted only where YAML would read them as something else. */
    private static final ObjectMapper YAML_OUT = YAMLMapper.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build();

    /**
     * The run's parameters.
     *
     * @param namespace  where everything goes, or null to keep the files' namespace
     * @param images     original image name (as written in the files, e.g. {@code acmeair-services}) to full reference
     * @param configMaps ConfigMap name to entries merged over the file's data (before the case's replacements run)
     */
    public record Parameters(String namespace, Map<String, String> images, Map<String, Map<String, String>> configMaps) {
        public static final Parameters NONE = new Parameters(null, Map.of(), Map.of());

        public Parameters {
            images = Map.copyOf(images);
            configMaps = Map.copyOf(configMaps);
        }
    }

    private final Path kubectl;

    public KubectlKustomize(Path kubectl) {
        this.kubectl = kubectl;
    }

    /** The kubectl {@code meshbench.kubectl.binary} names, else {@code kubectl} on the PATH; a named error when neither. */
    public static KubectlKustomize find(Optional<String> given) {
        return new KubectlKustomize(NativeBinaries.find(P_KUBECTL, given.orElse(null), "kubectl", INSTALL));
    }

    /** Renders folder {@code dir} (e.g. {@code cases/sni}) of the tree packaged in the {@code istio-config} jar. */
    public List<ObjectNode> build(String dir, Parameters parameters) {
        return build(Optional.empty(), dir, parameters);
    }

    /**
     * Renders folder {@code dir} of a tree: the given folder (a checkout's {@code istio-config}, or a test's edited
     * copy), else the packaged one. The tree is copied into a work folder of this process ({@link WorkFolders}:
     * private, removed by the watchdog if this JVM dies) beside the overlay (kustomize refuses absolute resource
     * paths), deleted on every exit path.
     */
    public List<ObjectNode> build(Optional<Path> tree, String dir, Parameters parameters) {
        Path work = null;
        try {
            work = WorkFolders.create("kustomize");
            Path copy = work.resolve(TREE);
            if (tree.isPresent()) {
                copyTree(tree.get(), copy);
            } else {
                copyPackaged(copy);
            }
            if (!Files.isRegularFile(copy.resolve(dir).resolve("kustomization.yaml"))) {
                throw new KustomizeException("istio-config/" + dir + " has no kustomization.yaml");
            }
            Path overlay = work.resolve("overlay");
            overlay(copy, dir, parameters, overlay);
            return parse(run(overlay, work, dir), dir);
        } catch (IOException e) {
            throw new KustomizeException("rendering istio-config/" + dir + ": " + e.getMessage());
        } finally {
            WorkFolders.delete(work);
        }
    }

    /**
     * Writes the overlay over {@code tree/dir} into {@code overlay} (and its {@code values} Component when there are
     * ConfigMap values): the files a user could write by hand for {@code kubectl apply -k}.
     */
    static void overlay(Path tree, String dir, Parameters p, Path overlay) throws IOException {
        Files.createDirectories(overlay);
        ObjectNode k = YAML.createObjectNode();
        k.put("apiVersion", "kustomize.config.k8s.io/v1beta1");
        k.put("kind", "Kustomization");
        k.putArray("resources").add("../" + TREE + "/" + dir);
        ArrayNode components = YAML.createArrayNode();
        if (!p.configMaps().isEmpty()) {
            components.add("values");
            writeValues(overlay.resolve("values"), p.configMaps());
        }
        if (Files.isRegularFile(tree.resolve(dir).resolve(PARAMETERS).resolve("kustomization.yaml"))) {
            components.add("../" + TREE + "/" + dir + "/" + PARAMETERS);
        }
        if (!components.isEmpty()) {
            k.set("components", components);
        }
        if (p.namespace() != null) {
            k.put("namespace", p.namespace());
        }
        if (!p.images().isEmpty()) {
            ArrayNode images = k.putArray("images");
            Map<String, TreeSet<String>> names = imageNames(tree);
            for (Map.Entry<String, String> e : new TreeMap<>(p.images()).entrySet()) {
                TreeSet<String> matching = new TreeSet<>(names.getOrDefault(e.getKey(), new TreeSet<>()));
                matching.add(e.getKey());
                for (String name : matching) {
                    images.add(image(name, e.getValue()));
                }
            }
        }
        Files.writeString(overlay.resolve("kustomization.yaml"), YAML.writeValueAsString(k));
    }

    private static void writeValues(Path dir, Map<String, Map<String, String>> configMaps) throws IOException {
        Files.createDirectories(dir);
        ObjectNode c = YAML.createObjectNode();
        c.put("apiVersion", "kustomize.config.k8s.io/v1alpha1");
        c.put("kind", "Component");
        c.putObject("generatorOptions").put("disableNameSuffixHash", true);
        ArrayNode generators = c.putArray("configMapGenerator");
        for (Map.Entry<String, Map<String, String>> cm : new TreeMap<>(configMaps).entrySet()) {
            ObjectNode g = generators.addObject();
            g.put("name", cm.getKey());
            g.put("behavior", "merge");
            ArrayNode literals = g.putArray("literals");
            for (Map.Entry<String, String> e : new TreeMap<>(cm.getValue()).entrySet()) {
                if (e.getValue().contains("\n") || e.getKey().contains("=")) {
                    throw new KustomizeException("ConfigMap " + cm.getKey() + " key " + e.getKey()
                            + ": a parameter value must be one line and its key must not contain '='");
                }
                literals.add(e.getKey() + "=" + e.getValue());
            }
        }
        Files.writeString(dir.resolve("kustomization.yaml"), YAML.writeValueAsString(c));
    }

    /**
     * For each original image name in the tree's kustomizations ({@code images[].name}), the names the tree gives it
     * ({@code newName}). kustomize matches an image by its current name, and the case's own kustomizations have already
     * renamed {@code acmeair-services} to its published name by the time the overlay's {@code images} run.
     */
    static Map<String, TreeSet<String>> imageNames(Path tree) throws IOException {
        Map<String, TreeSet<String>> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(tree)) {
            for (Path f : files.filter(f -> f.getFileName().toString().equals("kustomization.yaml")).sorted().toList()) {
                for (JsonNode image : YAML.readTree(f.toFile()).path("images")) {
                    if (image.hasNonNull("name") && image.hasNonNull("newName")) {
                        out.computeIfAbsent(image.get("name").asText(), n -> new TreeSet<>()).add(image.get("newName").asText());
                    }
                }
            }
        }
        return out;
    }

    /** An {@code images} entry setting every image named {@code name} to {@code reference} (name, tag and digest). */
    static ObjectNode image(String name, String reference) {
        ObjectNode i = YAML.createObjectNode();
        i.put("name", name);
        String rest = reference;
        int at = rest.indexOf('@');
        String digest = null;
        if (at >= 0) {
            digest = rest.substring(at + 1);
            rest = rest.substring(0, at);
        }
        int colon = rest.lastIndexOf(':');
        String tag = null;
        if (colon > rest.lastIndexOf('/')) {
            tag = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
        }
        if (rest.isEmpty()) {
            throw new KustomizeException("image " + name + ": '" + reference + "' is not an image reference");
        }
        i.put("newName", rest);
        if (tag != null) {
            i.put("newTag", tag);
        }
        if (digest != null) {
            i.put("digest", digest);
        }
        return i;
    }

    /** Runs {@code kubectl kustomize overlay}; the YAML it printed, or its error naming the folder. */
    private String run(Path overlay, Path work, String dir) throws IOException {
        Path out = work.resolve("out.yaml");
        Path err = work.resolve("err.txt");
        List<String> command = List.of(kubectl.toString(), "kustomize", overlay.toString());
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        try {
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                throw new KustomizeException(kubectl + " kustomize (istio-config/" + dir + "): no answer within " + TIMEOUT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new KustomizeException(kubectl + " kustomize (istio-config/" + dir + "): interrupted");
        }
        if (process.exitValue() != 0) {
            throw new KustomizeException(kubectl + " kustomize of istio-config/" + dir + " failed (exit " + process.exitValue() + "): "
                    + Files.readString(err).strip());
        }
        return Files.readString(out);
    }

    private static List<ObjectNode> parse(String yaml, String dir) throws IOException {
        List<ObjectNode> docs = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(yaml)) {
            for (var it = YAML.readValues(parser, JsonNode.class); it.hasNext(); ) {
                JsonNode d = it.next();
                if (d instanceof ObjectNode o) {
                    docs.add(o);
                } else if (d != null && !d.isNull() && !d.isMissingNode()) {
                    throw new KustomizeException("kubectl kustomize of istio-config/" + dir + " printed a document that is not a map");
                }
            }
        }
        return docs;
    }

    /**
     * Sets {@code data} on the Secrets named by {@code Secret/<name>} keys: as {@code stringData} where the file uses it
     * (the kit's do), else base64 under {@code data}. A Secret the render lacks is an error naming it.
     */
    public static List<ObjectNode> withSecretData(List<ObjectNode> docs, Map<String, Map<String, String>> secrets) {
        for (Map.Entry<String, Map<String, String>> s : secrets.entrySet()) {
            ObjectNode secret = docs.stream().filter(d -> "Secret".equals(d.path("kind").asText())
                            && s.getKey().equals(d.path("metadata").path("name").asText())).findFirst()
                    .orElseThrow(() -> new KustomizeException("the rendered manifests have no Secret " + s.getKey()));
            boolean encoded = secret.has("data") && !secret.has("stringData");
            ObjectNode target = secret.withObject(encoded ? "data" : "stringData");
            s.getValue().forEach((k, v) -> target.put(k, encoded
                    ? java.util.Base64.getEncoder().encodeToString(v.getBytes(java.nio.charset.StandardCharsets.UTF_8)) : v));
        }
        return docs;
    }

    /** Renders resources as one YAML stream, documents separated by {@code ---}. */
    public static String toYaml(List<? extends JsonNode> resources) {
        StringBuilder sb = new StringBuilder();
        try {
            for (JsonNode r : resources) {
                sb.append("---\n").append(YAML_OUT.writeValueAsString(r));
            }
        } catch (JsonProcessingException e) {
            throw new KustomizeException("writing YAML failed: " + e.getMessage());
        }
        return sb.toString();
    }

    /** Copies the {@code istio-config/} tree on the classpath (the jar's, or the module's classes folder). */
    private static void copyPackaged(Path to) throws IOException {
        var url = KubectlKustomize.class.getClassLoader().getResource(TREE + "/base/kustomization.yaml");
        if (url == null) {
            throw new KustomizeException("istio-config is not on the classpath (no istio-config/base/kustomization.yaml)");
        }
        URI uri;
        try {
            uri = url.toURI();
        } catch (URISyntaxException e) {
            throw new KustomizeException("istio-config on the classpath: " + e.getMessage());
        }
        if ("jar".equals(uri.getScheme())) {
            FileSystem fs;
            boolean opened = false;
            try {
                fs = FileSystems.newFileSystem(uri, Map.of());
                opened = true;
            } catch (FileSystemAlreadyExistsException e) {
                fs = FileSystems.getFileSystem(uri);
            }
            try {
                copyTree(fs.getPath("/" + TREE), to);
            } finally {
                if (opened) {
                    fs.close();
                }
            }
        } else {
            copyTree(Path.of(uri).getParent().getParent(), to);
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            throw new KustomizeException(from + ": not a folder");
        }
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    /** kustomize refused the manifests, or they could not be read: names the folder and the reason. */
    public static final class KustomizeException extends RuntimeException {
        public KustomizeException(String message) {
            super(message);
        }
    }
}
