package dev.meshbench.istioconfig;

import static dev.meshbench.istioconfig.IstioCrdSchemaTest.assertMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The validator's keywords on small hand-written schemas: the ones the kit's resources do not reach today. Needs no
 * CRD file, so it runs where {@link IstioCrdSchemaTest} is skipped.
 */
class CrdSchemaValidatorTest {

    private static final JsonNode SCHEMA = KitManifests.parse("""
            type: object
            properties:
              spec:
                type: object
                properties:
                  port: {x-kubernetes-int-or-string: true}
                  labels: {type: object, additionalProperties: {type: string, maxLength: 3}}
                  free: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {known: {type: integer}}}
                  closed: {type: object, additionalProperties: false, properties: {a: {type: boolean}}}
                  empty: {type: object}
                  ratio: {type: number, minimum: 0, maximum: 1}
                  name: {type: string, pattern: '^[a-z]+$', minLength: 2}
                  tags: {type: array, items: {type: string}, x-kubernetes-list-type: set, minItems: 1}
                  timeout: {type: string, nullable: true}
                  match:
                    type: object
                    properties: {exact: {type: string}, prefix: {type: string}, regex: {type: string}}
                    oneOf:
                    - not: {anyOf: [{required: [exact]}, {required: [prefix]}, {required: [regex]}]}
                    - required: [exact]
                    - required: [prefix]
                    - required: [regex]
                required: [name]
            """);

    private static final JsonNode GOOD = KitManifests.parse("""
            apiVersion: example.dev/v1
            kind: Example
            metadata: {name: good}
            spec:
              port: http
              labels: {a: abc}
              free: {known: 1, anything: [1, {x: y}]}
              closed: {a: true}
              empty: {}
              ratio: 0.5
              name: abc
              tags: [x, y]
              timeout: null
              match: {prefix: /}
            """);

    @Test
    @DisplayName("accepts a resource that keeps every rule, apiVersion, kind and metadata included")
    void acceptsAValidResource() {
        assertEquals(List.of(), CrdSchemaValidator.check(SCHEMA, GOOD));
        ObjectNode noMatch = GOOD.deepCopy();
        Trees.object(noMatch, "spec").remove("match");
        Trees.object(noMatch, "spec").put("port", 8080);
        assertEquals(List.of(), CrdSchemaValidator.check(SCHEMA, noMatch), "int-or-string takes an integer too");
    }

    @Test
    @DisplayName("rejects each broken rule with the field's path and the reason")
    void rejectsEachBrokenRule() {
        ObjectNode bad = GOOD.deepCopy();
        ObjectNode spec = Trees.object(bad, "spec");
        spec.put("port", true);
        Trees.object(bad, "spec.labels").put("b", "abcd");
        Trees.object(bad, "spec.free").put("known", "one");
        Trees.object(bad, "spec.closed").put("b", true);
        Trees.object(bad, "spec.empty").put("c", 1);
        spec.put("ratio", 2);
        spec.put("name", "A");
        spec.putArray("tags").add("x").add("x");
        spec.set("extra", NullNode.getInstance());
        Trees.object(bad, "spec.match").put("regex", ".*");
        assertMessages(List.of(
                "spec.port: expected integer or string, got boolean true",
                "spec.labels.b: longer than maxLength 3 (4)",
                "spec.free.known: expected integer, got string \"one\"",
                "spec.closed.b: unknown field (additionalProperties: false; known: a)",
                "spec.empty.c: unknown field (known: none)",
                "spec.ratio: 2 is above the maximum 1",
                "spec.name: shorter than minLength 2 (1)",
                "spec.name: 'A' does not match pattern ^[a-z]+$",
                "spec.tags[1]: duplicate element \"x\" (x-kubernetes-list-type: set)",
                "spec.extra: unknown field (known: ",
                "spec.match: matches 2 of oneOf, needs exactly one: none of exact, prefix, regex set | exact set | prefix set | regex set (matched: prefix set | regex set)"),
                CrdSchemaValidator.check(SCHEMA, bad));
    }

    @Test
    @DisplayName("rejects a missing required field, a null where not nullable and an empty list under minItems")
    void rejectsMissingAndNull() {
        ObjectNode bad = GOOD.deepCopy();
        ObjectNode spec = Trees.object(bad, "spec");
        spec.remove("name");
        spec.set("ratio", NullNode.getInstance());
        spec.putArray("tags");
        assertMessages(List.of(
                "spec: missing required field name",
                "spec.ratio: null value",
                "spec.tags: 0 items, fewer than minItems 1"),
                CrdSchemaValidator.check(SCHEMA, bad));
    }
}
