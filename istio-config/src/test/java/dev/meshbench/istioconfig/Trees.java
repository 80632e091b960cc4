package dev.meshbench.istioconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Reaching into a parsed manifest by a path such as {@code spec.servers[0].tls}, for tests that break copies of it. */
final class Trees {

    private Trees() {
    }

    /** The object at {@code path} (dot-separated fields, {@code [i]} for array elements); fails if there is none. */
    static ObjectNode object(JsonNode root, String path) {
        JsonNode node = root;
        for (String step : path.split("\\.")) {
            String field = step.contains("[") ? step.substring(0, step.indexOf('[')) : step;
            if (!field.isEmpty()) {
                node = node.path(field);
            }
            int open = step.indexOf('[');
            while (open >= 0) {
                int close = step.indexOf(']', open);
                node = node.path(Integer.parseInt(step.substring(open + 1, close)));
                open = step.indexOf('[', close);
            }
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("no object at " + path + " in " + root);
        }
        return (ObjectNode) node;
    }

    /** Renames field {@code from} of the object at {@code path} to {@code to}, keeping its value. */
    static void rename(JsonNode root, String path, String from, String to) {
        ObjectNode object = object(root, path);
        JsonNode value = object.remove(from);
        if (value == null) {
            throw new IllegalArgumentException("no field " + from + " at " + path + " in " + root);
        }
        object.set(to, value);
    }
}
