package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The part of kustomize that {@code istio-config} uses, so the orchestrator applies exactly what
 * {@code kubectl apply -k istio-config/cases/<id>} (and {@code istio-config/latency/cells/<cell>}) would:
 * {@code resources} (files and folders with their own kustomization), {@code components} (folders whose
 * kustomization is a {@code Component}), {@code configMapGenerator} ({@link ConfigMapGenerator}: {@code files} and
 * {@code options.labels}, with {@code generatorOptions.disableNameSuffixHash: true} only), {@code namespace},
 * {@code images}, {@code patches} (strategic merge of maps, selected by kind, name and label selector) and
 * {@code replacements} (field paths with list indexes, {@code [key]} for keys with dots and {@code [name=value]}
 * list selectors). Anything else in a kustomization is refused by name, so a file using more of kustomize fails here
 * instead of rendering differently. {@code KustomizeTest} compares the output with {@code kubectl kustomize} where
 * kubectl is installed.
 *
 * <p>{@link Overrides} are the orchestrator's parameters: data of the parameter ConfigMaps and Secrets and the
 * original image names are replaced as each file is read (so replacements copy the new values, as if the user had
 * edited the files), the namespace last.
 */
public final class Kustomize {
    private static final Set<String> SUPPORTED = Set.of("apiVersion", "kind", "namespace", "resources", "components",
            "configMapGenerator", "generatorOptions", "images", "patches", "replacements");
    private static final String KIND_KUSTOMIZATION = "Kustomization";
    private static final String KIND_COMPONENT = "Component";
    /** The only apiVersion kustomize accepts for a Component. */
    static final String COMPONENT_API_VERSION = "kustomize.config.k8s.io/v1alpha1";
    private static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "CustomResourceDefinition", "ClusterRole",
            "ClusterRoleBinding", "Node", "PersistentVolume", "StorageClass");
    static final ObjectMapper YAML = new YAMLMapper();
    /** Plain YAML as kubectl prints it: strings quoted only where YAML would read them as something else. */
    private static final ObjectMapper YAML_OUT = YAMLMapper.builder()
            .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build();

    /** Reads a file of the manifest tree by its path relative to the tree's root; empty when there is none. */
    @FunctionalInterface
    public interface Files {
        Optional<String> read(String path);

        /** The tree packaged in the {@code istio-config} jar, under {@code istio-config/} on the classpath. */
        static Files packaged() {
            return path -> {
                try (var in = Kustomize.class.getClassLoader().getResourceAsStream("istio-config/" + path)) {
                    return in == null ? Optional.empty()
                            : Optional.of(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new KustomizeException("istio-config/" + path + ": " + e.getMessage());
                }
            };
        }

        /** A tree on disk, such as a checkout's {@code istio-config} folder. */
        static Files directory(java.nio.file.Path root) {
            return path -> {
                java.nio.file.Path p = root.resolve(path);
                try {
                    return java.nio.file.Files.isRegularFile(p) ? Optional.of(java.nio.file.Files.readString(p)) : Optional.empty();
                } catch (IOException e) {
                    throw new KustomizeException(p + ": " + e.getMessage());
                }
            };
        }
    }

    /**
     * The orchestrator's parameters.
     *
     * @param namespace where everything goes, or null to keep the files' namespace
     * @param images    original image name (as written in the files, e.g. {@code acmeair-services}) to full reference
     * @param data      {@code Kind/name} (ConfigMap or Secret) to entries replacing those of the file
     */
    public record Overrides(String namespace, Map<String, String> images, Map<String, Map<String, String>> data) {
        public static final Overrides NONE = new Overrides(null, Map.of(), Map.of());

        public Overrides {
            images = Map.copyOf(images);
            data = Map.copyOf(data);
        }
    }

    private final Files files;

    public Kustomize(Files files) {
        this.files = files;
    }

    /** Renders the kustomization in folder {@code dir} (relative to the tree's root). */
    public List<ObjectNode> build(String dir, Overrides overrides) {
        List<ObjectNode> out = build(dir, overrides, 0);
        if (overrides.namespace() != null) {
            setNamespace(out, overrides.namespace());
        }
        return out;
    }

    private List<ObjectNode> build(String dir, Overrides overrides, int depth) {
        String file = join(dir, "kustomization.yaml");
        JsonNode k = kustomization(file, KIND_KUSTOMIZATION);
        List<ObjectNode> resources = new ArrayList<>();
        accumulate(dir, file, k, resources, overrides, depth);
        return resources;
    }

    /**
     * Adds what kustomization {@code k} (in folder {@code dir}) contributes to {@code resources} and runs its
     * transformers over all of them, in kustomize's order: resources, generators, components (each a kustomization
     * run over everything accumulated so far), then patches, namespace, images and replacements.
     */
    private void accumulate(String dir, String file, JsonNode k, List<ObjectNode> resources, Overrides overrides, int depth) {
        if (depth > 10) {
            throw new KustomizeException(dir + ": kustomizations nested more than 10 deep (a cycle?)");
        }
        for (Iterator<String> it = k.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!SUPPORTED.contains(key)) {
                throw new KustomizeException(file + ": '" + key + "' is not supported by the kit's renderer (supported: "
                        + String.join(", ", new java.util.TreeSet<>(SUPPORTED)) + ")");
            }
        }
        for (JsonNode r : k.path("resources")) {
            String path = normalize(join(dir, r.asText()));
            if (files.read(join(path, "kustomization.yaml")).isPresent()) {
                resources.addAll(build(path, overrides, depth + 1));
            } else {
                for (ObjectNode doc : readDocs(path)) {
                    resources.add(applyOverrides(doc, overrides));
                }
            }
        }
        for (ObjectNode generated : ConfigMapGenerator.generate(file, dir, k, path -> files.read(path))) {
            resources.add(applyOverrides(generated, overrides));
        }
        for (JsonNode c : k.path("components")) {
            String path = normalize(join(dir, c.asText()));
            String componentFile = join(path, "kustomization.yaml");
            if (files.read(componentFile).isEmpty()) {
                throw new KustomizeException(file + ": component " + c.asText() + " has no kustomization.yaml ("
                        + componentFile + ")");
            }
            accumulate(path, componentFile, kustomization(componentFile, KIND_COMPONENT), resources, overrides, depth + 1);
        }
        for (JsonNode p : k.path("patches")) {
            patch(file, resources, p, dir);
        }
        if (k.hasNonNull("namespace")) {
            setNamespace(resources, k.get("namespace").asText());
        }
        for (JsonNode image : k.path("images")) {
            String name = image.path("name").asText();
            for (ObjectNode r : resources) {
                forEachContainer(r, c -> {
                    String ref = c.path("image").asText();
                    if (imageName(ref).equals(name)) {
                        String newName = image.path("newName").asText(imageName(ref));
                        String tag = image.hasNonNull("newTag") ? ":" + image.get("newTag").asText() : tagOf(ref);
                        c.put("image", newName + tag);
                    }
                });
            }
        }
        for (JsonNode rep : k.path("replacements")) {
            replace(file, resources, rep);
        }
    }

    /**
     * Reads a kustomization file and checks its kind: a folder listed in {@code resources} must hold a
     * {@code Kustomization} (kind and apiVersion may be left out), one listed in {@code components} a
     * {@code Component} of {@value #COMPONENT_API_VERSION}, as kustomize requires.
     */
    private JsonNode kustomization(String file, String expectedKind) {
        JsonNode k = readDocs(file).stream().findFirst()
                .orElseThrow(() -> new KustomizeException(file + ": empty kustomization"));
        String kind = k.path("kind").asText(KIND_KUSTOMIZATION);
        if (!kind.equals(expectedKind)) {
            throw new KustomizeException(file + ": kind " + kind + " where a " + expectedKind + " is expected ("
                    + (KIND_COMPONENT.equals(expectedKind) ? "listed in components" : "listed in resources") + ")");
        }
        if (KIND_COMPONENT.equals(kind) && !COMPONENT_API_VERSION.equals(k.path("apiVersion").asText())) {
            throw new KustomizeException(file + ": a Component must have apiVersion " + COMPONENT_API_VERSION + ", not '"
                    + k.path("apiVersion").asText() + "'");
        }
        return k;
    }

    private ObjectNode applyOverrides(ObjectNode doc, Overrides overrides) {
        String key = doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText();
        Map<String, String> data = overrides.data().get(key);
        if (data != null) {
            boolean secret = "Secret".equals(doc.path("kind").asText());
            ObjectNode target = doc.withObject(secret && !doc.has("data") ? "stringData" : "data");
            data.forEach((k, v) -> target.put(k, secret && doc.has("data") && !doc.has("stringData")
                    ? java.util.Base64.getEncoder().encodeToString(v.getBytes(java.nio.charset.StandardCharsets.UTF_8)) : v));
        }
        if (!overrides.images().isEmpty()) {
            forEachContainer(doc, c -> {
                String replacement = overrides.images().get(imageName(c.path("image").asText()));
                if (replacement != null) {
                    c.put("image", replacement);
                }
            });
        }
        return doc;
    }

    private void patch(String file, List<ObjectNode> resources, JsonNode p, String dir) {
        if (!p.hasNonNull("path")) {
            throw new KustomizeException(file + ": a patch without 'path' is not supported by the kit's renderer");
        }
        String path = normalize(join(dir, p.get("path").asText()));
        List<ObjectNode> docs = readDocs(path);
        if (docs.size() != 1) {
            throw new KustomizeException(path + ": a patch file must hold one document, found " + docs.size());
        }
        JsonNode target = p.path("target");
        int matched = 0;
        for (ObjectNode r : resources) {
            if (selects(target, r)) {
                ObjectNode body = docs.get(0).deepCopy();
                body.remove("apiVersion");
                body.remove("kind");
                if (body.path("metadata").isObject()) {
                    ((ObjectNode) body.get("metadata")).remove("name");
                }
                merge(r, body);
                matched++;
            }
        }
        if (matched == 0) {
            throw new KustomizeException(file + ": patch " + path + " selects no resource");
        }
    }

    /** Strategic merge for maps; a list in the patch replaces the list (the kit's patches have none). */
    private static void merge(ObjectNode into, JsonNode patch) {
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode existing = into.get(e.getKey());
            if (e.getValue().isNull()) {
                into.remove(e.getKey());
            } else if (existing instanceof ObjectNode o && e.getValue().isObject()) {
                merge(o, e.getValue());
            } else {
                into.set(e.getKey(), e.getValue().deepCopy());
            }
        }
    }

    private static boolean selects(JsonNode select, ObjectNode r) {
        if (select.hasNonNull("kind") && !select.get("kind").asText().equals(r.path("kind").asText())) {
            return false;
        }
        if (select.hasNonNull("name") && !select.get("name").asText().equals(r.path("metadata").path("name").asText())) {
            return false;
        }
        if (select.hasNonNull("labelSelector")) {
            for (String term : select.get("labelSelector").asText().split(",")) {
                String[] kv = term.trim().split("=", 2);
                JsonNode v = r.path("metadata").path("labels").get(kv[0]);
                if (v == null || (kv.length == 2 && !kv[1].equals(v.asText()))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void replace(String file, List<ObjectNode> resources, JsonNode rep) {
        JsonNode source = rep.path("source");
        ObjectNode from = resources.stream().filter(r -> selects(source, r)).findFirst().orElseThrow(() ->
                new KustomizeException(file + ": replacement source " + source.path("kind").asText() + "/"
                        + source.path("name").asText() + " not found"));
        String sourcePath = source.path("fieldPath").asText("metadata.name");
        JsonNode value = lookup(from, sourcePath).orElseThrow(() -> new KustomizeException(file + ": replacement source "
                + source.path("kind").asText() + "/" + source.path("name").asText() + " has no field " + sourcePath));
        for (JsonNode target : rep.path("targets")) {
            boolean any = false;
            for (ObjectNode r : resources) {
                if (!selects(target.path("select"), r)) {
                    continue;
                }
                any = true;
                for (JsonNode fp : target.path("fieldPaths")) {
                    if (!set(r, fp.asText(), value)) {
                        throw new KustomizeException(file + ": replacement target " + r.path("kind").asText() + "/"
                                + r.path("metadata").path("name").asText() + " has no field " + fp.asText());
                    }
                }
            }
            if (!any) {
                throw new KustomizeException(file + ": replacement target " + target.path("select") + " selects no resource");
            }
        }
    }

    /** Splits {@code a.b.[c.d].0.[name=x]} into segments. */
    static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean bracket = false;
        for (char ch : path.toCharArray()) {
            if (ch == '[' && cur.length() == 0) {
                bracket = true;
            } else if (ch == ']' && bracket) {
                bracket = false;
            } else if (ch == '.' && !bracket) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        out.add(cur.toString());
        return out;
    }

    private static Optional<JsonNode> lookup(JsonNode node, String path) {
        JsonNode cur = node;
        for (String s : segments(path)) {
            cur = child(cur, s);
            if (cur == null) {
                return Optional.empty();
            }
        }
        return Optional.of(cur);
    }

    private static JsonNode child(JsonNode cur, String segment) {
        if (cur instanceof ArrayNode a) {
            int eq = segment.indexOf('=');
            if (eq > 0) {
                String key = segment.substring(0, eq);
                String val = segment.substring(eq + 1);
                for (JsonNode item : a) {
                    if (val.equals(item.path(key).asText(null))) {
                        return item;
                    }
                }
                return null;
            }
            try {
                return a.get(Integer.parseInt(segment));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return cur.isObject() ? cur.get(segment) : null;
    }

    private static boolean set(ObjectNode root, String path, JsonNode value) {
        List<String> segs = segments(path);
        JsonNode parent = root;
        for (String s : segs.subList(0, segs.size() - 1)) {
            parent = child(parent, s);
            if (parent == null) {
                return false;
            }
        }
        String last = segs.get(segs.size() - 1);
        if (parent instanceof ObjectNode o && o.has(last)) {
            o.set(last, value.deepCopy());
            return true;
        }
        if (parent instanceof ArrayNode a) {
            try {
                int i = Integer.parseInt(last);
                if (i < a.size()) {
                    a.set(i, value.deepCopy());
                    return true;
                }
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return false;
    }

    private static void setNamespace(List<ObjectNode> resources, String namespace) {
        for (ObjectNode r : resources) {
            String kind = r.path("kind").asText();
            if ("Namespace".equals(kind)) {
                r.withObject("metadata").put("name", namespace);
            } else if (!CLUSTER_SCOPED.contains(kind)) {
                r.withObject("metadata").put("namespace", namespace);
            }
        }
    }

    private static void forEachContainer(ObjectNode r, java.util.function.Consumer<ObjectNode> action) {
        JsonNode podSpec = "Pod".equals(r.path("kind").asText()) ? r.path("spec") : r.path("spec").path("template").path("spec");
        for (String list : List.of("initContainers", "containers")) {
            for (JsonNode c : podSpec.path(list)) {
                if (c instanceof ObjectNode o && o.has("image")) {
                    action.accept(o);
                }
            }
        }
    }

    /** {@code registry/name:tag} -> {@code registry/name}; a port in the registry is not a tag. */
    static String imageName(String ref) {
        String noDigest = ref.contains("@") ? ref.substring(0, ref.indexOf('@')) : ref;
        int colon = noDigest.lastIndexOf(':');
        return colon > noDigest.lastIndexOf('/') ? noDigest.substring(0, colon) : noDigest;
    }

    private static String tagOf(String ref) {
        return ref.substring(imageName(ref).length());
    }

    private List<ObjectNode> readDocs(String path) {
        String text = files.read(path).orElseThrow(() -> new KustomizeException(path + ": no such file"));
        List<ObjectNode> docs = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(text)) {
            for (Iterator<JsonNode> it = YAML.readValues(parser, JsonNode.class); it.hasNext(); ) {
                JsonNode doc = it.next();
                if (doc == null || doc.isNull() || doc.isMissingNode() || doc.isEmpty()) {
                    continue;
                }
                if (!(doc instanceof ObjectNode o)) {
                    throw new KustomizeException(path + ": a document is not a mapping");
                }
                docs.add(o);
            }
        } catch (JsonProcessingException e) {
            throw new KustomizeException(path + ": not valid YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new KustomizeException(path + ": " + e.getMessage());
        }
        return docs;
    }

    private static String join(String dir, String name) {
        return dir.isEmpty() ? name : dir + "/" + name;
    }

    /** Resolves {@code .} and {@code ..} segments; refuses to leave the tree. */
    static String normalize(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/")) {
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                if (out.isEmpty()) {
                    throw new KustomizeException(path + ": leaves the manifest tree");
                }
                out.remove(out.size() - 1);
            } else {
                out.add(s);
            }
        }
        return String.join("/", out);
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

    /** A kustomization the renderer cannot render: names the file and the reason. */
    public static final class KustomizeException extends RuntimeException {
        public KustomizeException(String message) {
            super(message);
        }
    }
}
