package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.orchestrator.kubernetes.Kustomize.KustomizeException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The part of kustomize's {@code configMapGenerator} that {@code istio-config} uses: per generator a {@code name},
 * {@code files} (each a file next to the kustomization, its name the key, its text the value) and
 * {@code options.labels}; and {@code generatorOptions.disableNameSuffixHash: true}. A generator whose ConfigMap would
 * get kustomize's content hash as a name suffix is refused, naming the file and the key, rather than applied under a
 * name other than kubectl's; so is any other field, by name.
 */
final class ConfigMapGenerator {
    private static final Set<String> GENERATOR_KEYS = Set.of("name", "files", "options");
    private static final Set<String> OPTION_KEYS = Set.of("labels");
    private static final Set<String> GLOBAL_OPTION_KEYS = Set.of("disableNameSuffixHash");

    private ConfigMapGenerator() {
    }

    /**
     * The ConfigMaps kustomization {@code k} generates, in its order.
     *
     * @param file the kustomization's path, for messages
     * @param dir  its folder, which {@code files} entries are relative to
     * @param read reads a file of the tree by path
     */
    static List<ObjectNode> generate(String file, String dir, JsonNode k, Function<String, Optional<String>> read) {
        JsonNode generators = k.path("configMapGenerator");
        JsonNode global = k.path("generatorOptions");
        if (!global.isMissingNode()) {
            refuseOthers(file, "generatorOptions", global, GLOBAL_OPTION_KEYS);
        }
        if (generators.isMissingNode() || generators.isEmpty()) {
            return List.of();
        }
        if (!global.path("disableNameSuffixHash").asBoolean(false)) {
            throw new KustomizeException(file + ": configMapGenerator without generatorOptions.disableNameSuffixHash: true is "
                    + "not supported by the kit's renderer (kustomize would add a content hash to the ConfigMap's name)");
        }
        List<ObjectNode> out = new ArrayList<>();
        for (JsonNode g : generators) {
            refuseOthers(file, "configMapGenerator", g, GENERATOR_KEYS);
            String name = g.path("name").asText("");
            if (name.isEmpty()) {
                throw new KustomizeException(file + ": a configMapGenerator entry has no name");
            }
            String where = "configMapGenerator " + name;
            refuseOthers(file, where + " options", g.path("options"), OPTION_KEYS);
            ObjectNode cm = JsonNodeFactory.instance.objectNode();
            cm.put("apiVersion", "v1");
            cm.put("kind", "ConfigMap");
            ObjectNode metadata = cm.putObject("metadata");
            metadata.put("name", name);
            JsonNode labels = g.path("options").path("labels");
            if (labels.isObject() && !labels.isEmpty()) {
                metadata.set("labels", labels.deepCopy());
            }
            ObjectNode data = cm.putObject("data");
            for (JsonNode f : g.path("files")) {
                String entry = f.asText();
                if (entry.contains("=")) {
                    throw new KustomizeException(file + ": " + where + ": file entry '" + entry + "' with a key of its own "
                            + "(key=path) is not supported by the kit's renderer (the key is the file's name)");
                }
                String path = Kustomize.normalize(dir.isEmpty() ? entry : dir + "/" + entry);
                String text = read.apply(path).orElseThrow(() -> new KustomizeException(file + ": " + where + ": " + path
                        + ": no such file"));
                String key = path.substring(path.lastIndexOf('/') + 1);
                if (data.has(key)) {
                    throw new KustomizeException(file + ": " + where + ": key " + key + " given twice");
                }
                data.put(key, text);
            }
            out.add(cm);
        }
        return out;
    }

    private static void refuseOthers(String file, String where, JsonNode node, Set<String> allowed) {
        if (node.isMissingNode() || node.isNull()) {
            return;
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!allowed.contains(key)) {
                throw new KustomizeException(file + ": " + where + ": '" + key + "' is not supported by the kit's renderer "
                        + "(supported: " + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
        }
    }
}
