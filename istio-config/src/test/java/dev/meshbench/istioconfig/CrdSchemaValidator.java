package dev.meshbench.istioconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.AbstractJsonValidator;
import com.networknt.schema.AbstractKeyword;
import com.networknt.schema.DisallowUnknownKeywordFactory;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.JsonValidator;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.ValidationContext;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.oas.OpenApi30;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Validates a resource against the OpenAPI v3 schema its CustomResourceDefinition gives for the resource's
 * {@code apiVersion} and {@code kind}, with networknt's json-schema-validator in its OpenAPI 3.0 dialect (JSON Schema
 * draft 4 semantics: {@code nullable}, boolean {@code exclusiveMinimum}, {@code integer} refuses {@code 1.0}).
 * Made for Istio's generated CRD file; works for any CRD file.
 *
 * <p>The Kubernetes extensions, as the API server treats them:
 * <ul>
 *   <li>Unknown fields are errors. A structural schema is closed: the API server prunes or rejects a field its
 *       schema does not list. {@link #structural} adds {@code additionalProperties: false} wherever a schema lists
 *       {@code properties} or says {@code type: object}, unless it has {@code x-kubernetes-preserve-unknown-fields}
 *       or its own {@code additionalProperties}. At the top level {@code apiVersion}, {@code kind} and
 *       {@code metadata} are allowed (Kubernetes adds them to every CRD; TypedModelTest checks {@code metadata}).</li>
 *   <li>{@code x-kubernetes-int-or-string}: an integer or a string ({@link #structural} adds the {@code anyOf}
 *       where the CRD leaves it out; Istio's file has it).</li>
 *   <li>{@code nullable}: the OpenAPI 3.0 dialect accepts {@code null} only where {@code nullable: true}.</li>
 *   <li>{@code x-kubernetes-list-type} {@code set} and {@code map}: no two equal elements, or no two with the same
 *       values of {@code x-kubernetes-list-map-keys} ({@link ListTypeKeyword}).</li>
 *   <li>Not checked, as before: {@code x-kubernetes-validations} (CEL rules: no CEL evaluator here), {@code format}
 *       (annotation only), {@code x-kubernetes-map-type} (server-side apply only).</li>
 * </ul>
 * A keyword the dialect does not know makes loading the schema fail rather than pass silently.
 *
 * <p>Messages name the file, the resource, the JSON path and the library's reason, e.g.
 * {@code cases/mtls/gateway.yaml: Gateway istio-egressgateway: $.spec.servers[0].tls: property 'mod' is not defined
 * in the schema and the schema does not allow additional properties}.
 */
final class CrdSchemaValidator {

    /** Our name for the dialect below; schemas are given as trees, so nothing is fetched from it. */
    private static final String DIALECT_IRI = "https://meshbench.dev/schema/kubernetes-structural";

    private static final JsonMetaSchema DIALECT = JsonMetaSchema.builder(DIALECT_IRI, OpenApi30.getInstance())
            .keywords(List.of(
                    new NonValidationKeyword("x-kubernetes-preserve-unknown-fields"), // read by structural()
                    new NonValidationKeyword("x-kubernetes-int-or-string"), // read by structural()
                    new NonValidationKeyword("x-kubernetes-validations"), // CEL: not evaluated
                    new NonValidationKeyword("x-kubernetes-map-type"), // server-side apply only
                    new NonValidationKeyword("x-kubernetes-list-map-keys"), // read by ListTypeKeyword
                    new ListTypeKeyword()))
            .unknownKeywordFactory(DisallowUnknownKeywordFactory.getInstance())
            .build();

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.builder()
            .metaSchema(DIALECT).defaultMetaSchemaIri(DIALECT_IRI).build();

    /**
     * Paths as {@code $.spec.servers[0].tls}. {@code format} (Istio's: int32, double, date-time, byte) stays an
     * annotation, as the validator this replaced left it: the ranges that matter are given as minimum and maximum.
     */
    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .pathType(PathType.JSON_PATH).formatAssertionsEnabled(false).build();

    /** One version of one kind: its schema and whether the CRD serves it. */
    private record Version(JsonNode schema, boolean served) { }

    private final String source;
    /** group -> kind -> version -> schema. */
    private final Map<String, Map<String, Map<String, Version>>> crds;
    /** apiVersion and kind -> compiled schema. */
    private final Map<String, JsonSchema> compiled = new ConcurrentHashMap<>();

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
        String apiVersion = resource.path("apiVersion").asText("");
        String kind = resource.path("kind").asText("");
        String prefix = where + ": " + resource.path("kind").asText("?") + " "
                + resource.path("metadata").path("name").asText("?") + ": ";
        JsonSchema schema;
        try {
            schema = compiled.computeIfAbsent(apiVersion + " " + kind, k -> compile(schema(apiVersion, kind)));
        } catch (IllegalArgumentException e) {
            return List.of(prefix + e.getMessage());
        }
        return messages(schema, resource).stream().map(m -> prefix + m).toList();
    }

    /** Every way {@code resource} breaks {@code openApiV3Schema} (a CRD version's), one message each. */
    static List<String> check(JsonNode openApiV3Schema, JsonNode resource) {
        return messages(compile(openApiV3Schema), resource);
    }

    private static JsonSchema compile(JsonNode openApiV3Schema) {
        return FACTORY.getSchema(structural(openApiV3Schema), CONFIG);
    }

    /** The library's messages; a scalar's value is added where the message does not name it (enum, type, ...). */
    private static List<String> messages(JsonSchema schema, JsonNode resource) {
        List<String> out = new ArrayList<>();
        for (ValidationMessage m : schema.validate(resource)) {
            JsonNode value = m.getInstanceNode();
            boolean scalar = value != null && (value.isTextual() || value.isNumber() || value.isBoolean());
            out.add(m.getMessage() + (scalar ? " (value: " + value + ")" : ""));
        }
        return out;
    }

    /**
     * A copy of a CRD's {@code openAPIV3Schema} made into the JSON Schema the API server in effect applies: closed
     * where the CRD does not preserve unknown fields, {@code x-kubernetes-int-or-string} as an {@code anyOf}, and
     * {@code apiVersion}, {@code kind} and {@code metadata} allowed at the top level.
     */
    private static ObjectNode structural(JsonNode openApiV3Schema) {
        ObjectNode schema = openApiV3Schema.deepCopy();
        close(schema);
        // After close(): metadata stays open (TypedModelTest reads it into an ObjectMeta).
        ObjectNode properties = schema.withObjectProperty("properties");
        for (String implicit : List.of("apiVersion", "kind", "metadata")) {
            if (!properties.has(implicit)) {
                properties.putObject(implicit);
            }
        }
        return schema;
    }

    /**
     * The Kubernetes rules JSON Schema has no keyword for: JSON Schema allows any field it does not list, a
     * structural schema none unless {@code x-kubernetes-preserve-unknown-fields}. Follows the structural part only
     * ({@code properties}, {@code items}, {@code additionalProperties}): in a structural schema {@code allOf},
     * {@code anyOf}, {@code oneOf} and {@code not} hold no fields of their own, and closing them would reject the
     * fields their parent lists.
     */
    private static void close(ObjectNode schema) {
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false) && !schema.has("anyOf")) {
            schema.putArray("anyOf").add(KitManifests.parse("type: integer")).add(KitManifests.parse("type: string"));
        }
        boolean object = schema.has("properties") || "object".equals(schema.path("type").asText());
        if (object && !schema.has("additionalProperties")
                && !schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            schema.put("additionalProperties", false);
        }
        schema.path("properties").forEach(p -> close((ObjectNode) p));
        for (String child : List.of("items", "additionalProperties")) {
            if (schema.path(child).isObject()) {
                close((ObjectNode) schema.get(child));
            }
        }
    }

    /**
     * The {@code openAPIV3Schema} for an apiVersion and kind.
     *
     * @throws IllegalArgumentException if the file has no such kind or version, or does not serve the version
     */
    private JsonNode schema(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
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

    /**
     * {@code x-kubernetes-list-type}: {@code set} wants distinct elements, {@code map} distinct values of the
     * {@code x-kubernetes-list-map-keys}; {@code atomic} matters to server-side apply only. Written here because
     * JSON Schema has no keyword for unique keys ({@code uniqueItems} compares whole elements), and the API server
     * rejects such a list (a ServiceEntry with two ports of the same name).
     */
    private static final class ListTypeKeyword extends AbstractKeyword {

        ListTypeKeyword() {
            super("x-kubernetes-list-type");
        }

        @Override
        public JsonValidator newValidator(SchemaLocation schemaLocation, JsonNodePath evaluationPath, JsonNode schemaNode,
                JsonSchema parentSchema, ValidationContext validationContext) {
            String type = schemaNode.asText();
            if (!List.of("atomic", "set", "map").contains(type)) {
                throw new IllegalArgumentException("x-kubernetes-list-type '" + type + "' at " + schemaLocation
                        + " is none of atomic, set, map");
            }
            List<String> keys = new ArrayList<>();
            parentSchema.getSchemaNode().path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
            return new AbstractJsonValidator(schemaLocation, evaluationPath, this, schemaNode) {
                @Override
                public Set<ValidationMessage> validate(ExecutionContext executionContext, JsonNode node, JsonNode rootNode,
                        JsonNodePath instanceLocation) {
                    Set<ValidationMessage> errors = new LinkedHashSet<>();
                    if (type.equals("atomic") || !node.isArray()) {
                        return errors;
                    }
                    Set<JsonNode> seen = new HashSet<>();
                    for (int i = 0; i < node.size(); i++) {
                        JsonNode element = node.get(i);
                        JsonNode key = element;
                        if (type.equals("map")) {
                            ObjectNode tuple = KitManifests.YAML.createObjectNode();
                            keys.forEach(k -> tuple.set(k, element.path(k)));
                            key = tuple;
                        }
                        if (!seen.add(key)) {
                            // A set's element is named by the " (value: ...)" that messages() adds to scalars.
                            String what = type.equals("map") ? "key " + keys + " = " + key : "element";
                            errors.add(ValidationMessage.builder().type(getKeyword()).code(getKeyword())
                                    .schemaLocation(getSchemaLocation()).evaluationPath(getEvaluationPath())
                                    .instanceLocation(instanceLocation.append(i)).instanceNode(element)
                                    .message("{0}: duplicate {1} (x-kubernetes-list-type: {2})").arguments(what, type)
                                    .build());
                        }
                    }
                    return errors;
                }
            };
        }
    }
}
