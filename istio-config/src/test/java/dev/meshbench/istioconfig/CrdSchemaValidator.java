package dev.meshbench.istioconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Validates a resource against the OpenAPI v3 schema its CustomResourceDefinition gives for the resource's
 * {@code apiVersion} (group and version) and {@code kind}: structurally, the way the Kubernetes API server checks a
 * custom resource, except where said below. Made for Istio's generated CRD file; works for any CRD file.
 *
 * <p>How each schema keyword is treated:
 * <ul>
 *   <li>{@code type} ({@code object}, {@code array}, {@code string}, {@code integer}, {@code number},
 *       {@code boolean}): the value must be of that JSON type; {@code integer} wants an integral number (YAML
 *       {@code 1.0} and {@code "1"} are not). A value of the wrong type is not looked into further.</li>
 *   <li>{@code x-kubernetes-int-or-string: true}: an integral number or a string.</li>
 *   <li>{@code nullable}: {@code null} is accepted only where {@code nullable: true}; elsewhere it is an error (the
 *       API server would silently drop it, which is never what a hand-written manifest means).</li>
 *   <li>{@code enum}: the value must equal one of the listed values.</li>
 *   <li>{@code properties} are CLOSED: a field the schema does not list is an error, naming the known fields
 *       (closest first), unless the node has {@code x-kubernetes-preserve-unknown-fields: true} (accepted as is) or
 *       {@code additionalProperties} (a schema: the value is validated against it; {@code true}: accepted;
 *       {@code false}: an error). An {@code object} with neither {@code properties} nor either escape allows no
 *       field at all, as in a structural schema. At the top level {@code apiVersion}, {@code kind} and
 *       {@code metadata} are always allowed (Kubernetes adds them to every CRD; the typed-model test checks
 *       {@code metadata} as an ObjectMeta).</li>
 *   <li>{@code required}: every listed field must be present.</li>
 *   <li>{@code items}: each element is validated against it; {@code minItems}, {@code maxItems} checked;
 *       {@code x-kubernetes-list-type: set} wants distinct elements, {@code map} distinct values of the
 *       {@code x-kubernetes-list-map-keys}.</li>
 *   <li>{@code minLength}, {@code maxLength} (in code points), {@code pattern} (Java regex, unanchored like JSON
 *       Schema), {@code minimum}, {@code maximum}, {@code exclusiveMinimum}, {@code exclusiveMaximum} (booleans, as
 *       in OpenAPI v3.0), {@code minProperties}, {@code maxProperties}: checked.</li>
 *   <li>{@code oneOf}, {@code anyOf}, {@code allOf}, {@code not}: evaluated. Each alternative is validated against
 *       the same value with every keyword above except closedness (alternatives carry no {@code properties}); Istio
 *       uses them only with {@code required} lists, to say which fields exclude each other, and with
 *       {@code type} for int-or-string.</li>
 *   <li>Ignored: {@code x-kubernetes-validations} (CEL rules: no CEL evaluator here), {@code format}
 *       ({@code int32}, {@code date-time}, ... are not range- or syntax-checked), {@code description},
 *       {@code default} (nothing is defaulted), {@code x-kubernetes-list-type: atomic} and
 *       {@code x-kubernetes-map-type} (they matter to server-side apply only).</li>
 * </ul>
 * Messages name the file, the resource, the JSON path and the reason:
 * {@code cases/mtls/gateway.yaml: Gateway istio-egressgateway: spec.servers[0].tls.mod: unknown field (known: mode, ...)}.
 */
final class CrdSchemaValidator {

    /** The fields Kubernetes adds to every custom resource's schema. */
    private static final Set<String> IMPLICIT_TOP_LEVEL = Set.of("apiVersion", "kind", "metadata");

    /** One served version of one kind: its schema and whether the CRD serves it. */
    private record Version(JsonNode schema, boolean served) { }

    private final String source;
    /** group -> kind -> version -> schema. */
    private final Map<String, Map<String, Map<String, Version>>> crds;

    private CrdSchemaValidator(String source, Map<String, Map<String, Map<String, Version>>> crds) {
        this.source = source;
        this.crds = crds;
    }

    /** Reads every CustomResourceDefinition of a (multi-document) CRD file. */
    static CrdSchemaValidator load(Path crdFile) throws IOException {
        Map<String, Map<String, Map<String, Version>>> crds = new TreeMap<>();
        try (MappingIterator<JsonNode> docs = KitManifests.YAML.readerFor(JsonNode.class).readValues(crdFile.toFile())) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc == null || !"CustomResourceDefinition".equals(doc.path("kind").asText())) {
                    continue;
                }
                JsonNode spec = doc.path("spec");
                Map<String, Version> versions = crds.computeIfAbsent(spec.path("group").asText(), g -> new TreeMap<>())
                        .computeIfAbsent(spec.path("names").path("kind").asText(), k -> new TreeMap<>());
                for (JsonNode v : spec.path("versions")) {
                    versions.put(v.path("name").asText(),
                            new Version(v.path("schema").path("openAPIV3Schema"), v.path("served").asBoolean(true)));
                }
            }
        }
        if (crds.isEmpty()) {
            throw new IOException("no CustomResourceDefinition in " + crdFile);
        }
        return new CrdSchemaValidator(crdFile.toString(), crds);
    }

    /**
     * Every way the resource breaks its CRD's schema, one message each, prefixed with {@code where} and the
     * resource's kind and name; empty if it is valid.
     *
     * @param where the resource's origin for messages, e.g. {@code cases/mtls/gateway.yaml}
     */
    List<String> validate(String where, JsonNode resource) {
        String prefix = where + ": " + resource.path("kind").asText("?") + " "
                + resource.path("metadata").path("name").asText("?") + ": ";
        JsonNode schema;
        try {
            schema = schema(resource.path("apiVersion").asText(""), resource.path("kind").asText(""));
        } catch (IllegalArgumentException e) {
            return List.of(prefix + e.getMessage());
        }
        return check(schema, resource).stream().map(e -> prefix + e).toList();
    }

    /** Every way {@code resource} breaks {@code schema} (an {@code openAPIV3Schema}), as {@code path: reason}. */
    static List<String> check(JsonNode schema, JsonNode resource) {
        List<String> errors = new ArrayList<>();
        new Walk(errors, true).validate(resource, schema, "", true);
        return errors;
    }

    /**
     * The {@code openAPIV3Schema} for an apiVersion and kind.
     *
     * @throws IllegalArgumentException if the file has no such kind or version, or does not serve the version
     */
    JsonNode schema(String apiVersion, String kind) {
        String group = group(apiVersion);
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        Map<String, Map<String, Version>> kinds = crds.get(group);
        if (kinds == null) {
            throw new IllegalArgumentException("no CRD of group '" + group + "' in " + source + " (groups: "
                    + String.join(", ", crds.keySet()) + ")");
        }
        Map<String, Version> versions = kinds.get(kind);
        if (versions == null) {
            throw new IllegalArgumentException("no kind " + kind + " in group " + group + " (kinds: "
                    + String.join(", ", kinds.keySet()) + ")");
        }
        Version v = versions.get(version);
        if (v == null) {
            throw new IllegalArgumentException("no version " + version + " of " + group + " " + kind + " (versions: "
                    + String.join(", ", versions.keySet()) + ")");
        }
        if (!v.served()) {
            throw new IllegalArgumentException(apiVersion + " " + kind + " is not served (served: " + versions.entrySet()
                    .stream().filter(e -> e.getValue().served()).map(Map.Entry::getKey).collect(Collectors.joining(", ")) + ")");
        }
        return v.schema();
    }

    private static String group(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** One validation pass; {@code closed} is false inside oneOf/anyOf/allOf/not alternatives. */
    private static final class Walk {
        private final List<String> errors;
        private final boolean closed;

        Walk(List<String> errors, boolean closed) {
            this.errors = errors;
            this.closed = closed;
        }

        private void error(String path, String reason) {
            errors.add((path.isEmpty() ? "(top level)" : path) + ": " + reason);
        }

        void validate(JsonNode node, JsonNode schema, String path, boolean topLevel) {
            if (node.isNull()) {
                if (!schema.path("nullable").asBoolean(false)) {
                    error(path, "null value (the field is not nullable; leave it out instead)");
                }
                return;
            }
            if (!typeMatches(node, schema, path)) {
                return;
            }
            checkEnum(node, schema, path);
            switch (node.getNodeType()) {
                case STRING -> checkString(node.textValue(), schema, path);
                case NUMBER -> checkNumber(node.decimalValue(), schema, path);
                case ARRAY -> checkArray(node, schema, path);
                case OBJECT -> checkObject(node, schema, path, topLevel);
                default -> { }
            }
            checkCombinators(node, schema, path);
        }

        private boolean typeMatches(JsonNode node, JsonNode schema, String path) {
            if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
                if (!node.isIntegralNumber() && !node.isTextual()) {
                    error(path, "expected integer or string, got " + describe(node));
                    return false;
                }
                return true;
            }
            String type = schema.path("type").asText("");
            boolean ok = switch (type) {
                case "object" -> node.isObject();
                case "array" -> node.isArray();
                case "string" -> node.isTextual();
                case "integer" -> node.isIntegralNumber();
                case "number" -> node.isNumber();
                case "boolean" -> node.isBoolean();
                case "" -> true;
                default -> throw new IllegalStateException("unknown schema type '" + type + "' at " + path);
            };
            if (!ok) {
                error(path, "expected " + type + ", got " + describe(node));
            }
            return ok;
        }

        private void checkEnum(JsonNode node, JsonNode schema, String path) {
            JsonNode allowed = schema.get("enum");
            if (allowed == null) {
                return;
            }
            for (JsonNode v : allowed) {
                if (v.equals(node)) {
                    return;
                }
            }
            List<String> values = new ArrayList<>();
            allowed.forEach(v -> values.add(v.asText()));
            error(path, describe(node) + " is not one of " + String.join(", ", values));
        }

        private void checkString(String value, JsonNode schema, String path) {
            int length = value.codePointCount(0, value.length());
            if (schema.has("maxLength") && length > schema.get("maxLength").asInt()) {
                error(path, "longer than maxLength " + schema.get("maxLength").asInt() + " (" + length + ")");
            }
            if (schema.has("minLength") && length < schema.get("minLength").asInt()) {
                error(path, "shorter than minLength " + schema.get("minLength").asInt() + " (" + length + ")");
            }
            if (schema.has("pattern")) {
                String regex = schema.get("pattern").asText();
                try {
                    if (!Pattern.compile(regex).matcher(value).find()) {
                        error(path, "'" + value + "' does not match pattern " + regex);
                    }
                } catch (PatternSyntaxException e) {
                    throw new IllegalStateException("pattern at " + path + " is not a Java regex: " + regex, e);
                }
            }
        }

        private void checkNumber(BigDecimal value, JsonNode schema, String path) {
            if (schema.has("minimum")) {
                BigDecimal min = schema.get("minimum").decimalValue();
                boolean exclusive = schema.path("exclusiveMinimum").asBoolean(false);
                if (exclusive ? value.compareTo(min) <= 0 : value.compareTo(min) < 0) {
                    error(path, value + " is below the minimum " + min + (exclusive ? " (exclusive)" : ""));
                }
            }
            if (schema.has("maximum")) {
                BigDecimal max = schema.get("maximum").decimalValue();
                boolean exclusive = schema.path("exclusiveMaximum").asBoolean(false);
                if (exclusive ? value.compareTo(max) >= 0 : value.compareTo(max) > 0) {
                    error(path, value + " is above the maximum " + max + (exclusive ? " (exclusive)" : ""));
                }
            }
        }

        private void checkArray(JsonNode node, JsonNode schema, String path) {
            if (schema.has("maxItems") && node.size() > schema.get("maxItems").asInt()) {
                error(path, node.size() + " items, more than maxItems " + schema.get("maxItems").asInt());
            }
            if (schema.has("minItems") && node.size() < schema.get("minItems").asInt()) {
                error(path, node.size() + " items, fewer than minItems " + schema.get("minItems").asInt());
            }
            JsonNode items = schema.get("items");
            if (items != null && items.isObject()) {
                for (int i = 0; i < node.size(); i++) {
                    validate(node.get(i), items, path + "[" + i + "]", false);
                }
            }
            String listType = schema.path("x-kubernetes-list-type").asText("");
            if (listType.equals("set") || listType.equals("map")) {
                List<String> keys = new ArrayList<>();
                schema.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
                Set<JsonNode> seen = new HashSet<>();
                for (int i = 0; i < node.size(); i++) {
                    JsonNode element = node.get(i);
                    JsonNode key = element;
                    if (listType.equals("map")) {
                        var tuple = KitManifests.YAML.createObjectNode();
                        keys.forEach(k -> tuple.set(k, element.path(k)));
                        key = tuple;
                    }
                    if (!seen.add(key)) {
                        error(path + "[" + i + "]", "duplicate " + (listType.equals("map") ? "key " + keys + " = " + key : "element " + key)
                                + " (x-kubernetes-list-type: " + listType + ")");
                    }
                }
            }
        }

        private void checkObject(JsonNode node, JsonNode schema, String path, boolean topLevel) {
            if (schema.has("maxProperties") && node.size() > schema.get("maxProperties").asInt()) {
                error(path, node.size() + " fields, more than maxProperties " + schema.get("maxProperties").asInt());
            }
            if (schema.has("minProperties") && node.size() < schema.get("minProperties").asInt()) {
                error(path, node.size() + " fields, fewer than minProperties " + schema.get("minProperties").asInt());
            }
            for (JsonNode required : schema.path("required")) {
                if (!node.has(required.asText())) {
                    error(path, "missing required field " + required.asText());
                }
            }
            JsonNode properties = schema.path("properties");
            JsonNode additional = schema.get("additionalProperties");
            boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String name = field.getKey();
                // A map key such as app.kubernetes.io/name in brackets, so the path stays readable.
                String fieldPath = !name.matches("[A-Za-z0-9_-]+") ? path + "[" + name + "]" : path.isEmpty() ? name : path + "." + name;
                if (properties.has(name)) {
                    validate(field.getValue(), properties.get(name), fieldPath, false);
                } else if (topLevel && IMPLICIT_TOP_LEVEL.contains(name)) {
                    // apiVersion, kind and metadata: Kubernetes' own, not in a CRD's schema.
                } else if (additional != null && additional.isObject()) {
                    validate(field.getValue(), additional, fieldPath, false);
                } else if (additional != null && additional.isBoolean()) {
                    if (!additional.booleanValue()) {
                        error(fieldPath, "unknown field (additionalProperties: false; known: " + known(name, properties, topLevel) + ")");
                    }
                } else if (preserve) {
                    // x-kubernetes-preserve-unknown-fields: kept as written, not looked into.
                } else if (closed && (properties.size() > 0 || schema.path("type").asText("").equals("object"))) {
                    error(fieldPath, "unknown field (known: " + known(name, properties, topLevel) + ")");
                }
            }
        }

        private void checkCombinators(JsonNode node, JsonNode schema, String path) {
            JsonNode allOf = schema.get("allOf");
            if (allOf != null) {
                for (int i = 0; i < allOf.size(); i++) {
                    List<String> sub = branch(node, allOf.get(i), path);
                    if (!sub.isEmpty()) {
                        error(path, "does not satisfy allOf[" + i + "]: " + String.join("; ", sub));
                    }
                }
            }
            JsonNode anyOf = schema.get("anyOf");
            if (anyOf != null && matching(node, anyOf, path).isEmpty()) {
                error(path, "matches none of anyOf: " + alternatives(anyOf));
            }
            JsonNode oneOf = schema.get("oneOf");
            if (oneOf != null) {
                List<Integer> matched = matching(node, oneOf, path);
                if (matched.size() != 1) {
                    error(path, "matches " + matched.size() + " of oneOf, needs exactly one: " + alternatives(oneOf)
                            + (matched.isEmpty() ? "" : " (matched: " + matched.stream()
                            .map(i -> describeAlternative(oneOf.get(i))).collect(Collectors.joining(" | ")) + ")"));
                }
            }
            JsonNode not = schema.get("not");
            if (not != null && branch(node, not, path).isEmpty()) {
                error(path, "must not match: " + describeAlternative(not));
            }
        }

        private List<Integer> matching(JsonNode node, JsonNode alternatives, String path) {
            List<Integer> out = new ArrayList<>();
            for (int i = 0; i < alternatives.size(); i++) {
                if (branch(node, alternatives.get(i), path).isEmpty()) {
                    out.add(i);
                }
            }
            return out;
        }

        private List<String> branch(JsonNode node, JsonNode alternative, String path) {
            List<String> sub = new ArrayList<>();
            new Walk(sub, false).validate(node, alternative, path, false);
            return sub;
        }
    }

    /** The alternatives of a oneOf/anyOf in words: Istio's are lists of required fields. */
    private static String alternatives(JsonNode alternatives) {
        List<String> out = new ArrayList<>();
        alternatives.forEach(a -> out.add(describeAlternative(a)));
        return String.join(" | ", out);
    }

    private static String describeAlternative(JsonNode alternative) {
        if (alternative.size() == 1 && alternative.has("required")) {
            List<String> fields = new ArrayList<>();
            alternative.get("required").forEach(f -> fields.add(f.asText()));
            return String.join(" and ", fields) + " set";
        }
        if (alternative.size() == 1 && alternative.has("type")) {
            return alternative.get("type").asText();
        }
        if (alternative.size() == 1 && alternative.has("not") && alternative.get("not").size() == 1
                && alternative.get("not").has("anyOf")) {
            List<String> fields = new ArrayList<>();
            for (JsonNode a : alternative.get("not").get("anyOf")) {
                a.path("required").forEach(f -> fields.add(f.asText()));
            }
            return "none of " + String.join(", ", fields) + " set";
        }
        return alternative.toString();
    }

    /** The known fields of a node, closest to the unknown name first (so a misspelling's intended field leads). */
    private static String known(String unknown, JsonNode properties, boolean topLevel) {
        Map<String, Integer> distance = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        properties.fieldNames().forEachRemaining(names::add);
        if (topLevel) {
            names.addAll(List.of("apiVersion", "kind", "metadata"));
        }
        names.forEach(f -> distance.put(f, editDistance(unknown.toLowerCase(), f.toLowerCase())));
        if (distance.isEmpty()) {
            return "none";
        }
        return distance.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey(Comparator.naturalOrder())))
                .map(Map.Entry::getKey).collect(Collectors.joining(", "));
    }

    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }

    private static String describe(JsonNode node) {
        JsonNodeType type = node.getNodeType();
        return switch (type) {
            case STRING -> "string \"" + node.textValue() + "\"";
            case NUMBER -> (node.isIntegralNumber() ? "integer " : "number ") + node;
            case BOOLEAN -> "boolean " + node;
            case ARRAY -> "array";
            case OBJECT -> "object";
            default -> type.name().toLowerCase();
        };
    }
}
