package dev.meshbench.istioconfig;

import static dev.meshbench.istioconfig.IstioCrdSchemaTest.NOT_ALLOWED;
import static dev.meshbench.istioconfig.IstioCrdSchemaTest.assertMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What {@link CrdSchemaValidator} adds to JSON Schema, on a small hand-written schema: the Kubernetes extensions
 * (closed objects unless preserve-unknown-fields, int-or-string, nullable, list types) and the implicit top-level
 * fields. The JSON Schema keywords themselves are json-schema-validator's. Needs no CRD file, so it runs where
 * {@link IstioCrdSchemaTest} is skipped.
 */
class CrdSchemaValidatorTest {

    private static final JsonNode SCHEMA = KitManifests.parse("""
            type: object
            properties:
              spec:
                type: object
                properties:
                  port: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
                  bare: {x-kubernetes-int-or-string: true}
                  labels: {type: object, additionalProperties: {type: string}}
                  free: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {known: {type: integer}}}
                  empty: {type: object}
                  count: {type: integer}
                  timeout: {type: string, nullable: true}
                  tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
                  ports:
                    type: array
                    x-kubernetes-list-type: map
                    x-kubernetes-list-map-keys: [name]
                    items: {type: object, properties: {name: {type: string}, number: {type: integer}}}
                  match:
                    type: object
                    properties: {exact: {type: string}, prefix: {type: string}}
                    x-kubernetes-validations: [{rule: "self.exact != ''", message: never evaluated here}]
                    oneOf:
                    - not: {anyOf: [{required: [exact]}, {required: [prefix]}]}
                    - required: [exact]
                    - required: [prefix]
            """);

    private static final JsonNode GOOD = KitManifests.parse("""
            apiVersion: example.dev/v1
            kind: Example
            metadata: {name: good, labels: {app.kubernetes.io/name: x}}
            spec:
              port: http
              bare: 8080
              labels: {a: abc}
              free: {known: 1, anything: [1, {x: y}]}
              empty: {}
              count: 3
              timeout: null
              tags: [x, y]
              ports: [{name: a, number: 1}, {name: b, number: 1}]
              match: {exact: ""}
            """);

    @Test
    @DisplayName("accepts a resource that keeps every rule, apiVersion, kind and metadata included")
    void acceptsAValidResource() {
        assertEquals(List.of(), CrdSchemaValidator.check(SCHEMA, GOOD));
        ObjectNode swapped = GOOD.deepCopy();
        Trees.object(swapped, "spec").put("port", 8080).put("bare", "http");
        assertEquals(List.of(), CrdSchemaValidator.check(SCHEMA, swapped), "int-or-string takes either");
    }

    @Test
    @DisplayName("rejects unknown fields where the schema does not preserve them, naming the object and the field")
    void rejectsUnknownFields() {
        ObjectNode bad = GOOD.deepCopy();
        bad.put("replicas", 1);
        Trees.object(bad, "spec").put("extra", 1);
        Trees.object(bad, "spec.empty").put("c", 1);
        Trees.object(bad, "spec.free").put("known", "one");
        Trees.object(bad, "spec.ports[0]").put("protocol", "TCP");
        Trees.object(bad, "spec.labels").put("b", 2);
        assertMessages(List.of(
                "$: property 'replicas'" + NOT_ALLOWED,
                "$.spec: property 'extra'" + NOT_ALLOWED,
                "$.spec.empty: property 'c'" + NOT_ALLOWED,
                "$.spec.free.known: string found, integer expected (value: \"one\")",
                "$.spec.ports[0]: property 'protocol'" + NOT_ALLOWED,
                "$.spec.labels.b: integer found, string expected (value: 2)"),
                CrdSchemaValidator.check(SCHEMA, bad));
    }

    @Test
    @DisplayName("rejects a wrong int-or-string, a null where not nullable, a 1.0 integer and duplicates in list types")
    void rejectsKubernetesExtensions() {
        ObjectNode bad = GOOD.deepCopy();
        ObjectNode spec = Trees.object(bad, "spec");
        spec.put("port", true);
        spec.put("bare", 1.5);
        spec.set("count", NullNode.getInstance());
        spec.putArray("tags").add("x").add("x");
        Trees.object(bad, "spec.ports[1]").put("name", "a");
        assertMessages(List.of(
                "$.spec.port: boolean found, integer expected (value: true)",
                "$.spec.port: boolean found, string expected (value: true)",
                "$.spec.bare: number found, integer expected (value: 1.5)",
                "$.spec.bare: number found, string expected (value: 1.5)",
                "$.spec.count: null found, integer expected",
                "$.spec.tags[1]: duplicate element (x-kubernetes-list-type: set) (value: \"x\")",
                "$.spec.ports[1]: duplicate key [name] = {\"name\":\"a\"} (x-kubernetes-list-type: map)"),
                CrdSchemaValidator.check(SCHEMA, bad));
        spec.removeAll().put("count", 1.0);
        assertMessages(List.of("$.spec.count: number found, integer expected (value: 1.0)"),
                CrdSchemaValidator.check(SCHEMA, bad));
    }

    @Test
    @DisplayName("refuses a schema with a keyword it does not know instead of ignoring it")
    void refusesAnUnknownKeyword() {
        JsonNode schema = KitManifests.parse("{type: object, properties: {spec: {type: object, x-kubernetes-embedded-resource: true}}}");
        Exception e = assertThrows(Exception.class, () -> CrdSchemaValidator.check(schema, GOOD));
        assertTrue(e.getMessage().contains("x-kubernetes-embedded-resource"), e::getMessage);
    }
}
