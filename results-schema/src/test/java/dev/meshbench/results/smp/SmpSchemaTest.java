package dev.meshbench.results.smp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.convert.ResultsConverter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code smp.json} against the schema written from the SMP protos ({@link SmpSchema}). */
class SmpSchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path RUNS = Path.of("src/test/resources/runs");

    @ParameterizedTest
    @ValueSource(strings = {"bypass-1", "sidecar-1", "gateway-1", "mtls-1", "sni-1", "sni-envoy-1", "sni-k8s-1",
            "mtls-v1"})
    @DisplayName("exports every sample run as a document the SMP schema accepts")
    void sampleRunsAreValid(String run) throws IOException {
        String json = SmpExporter.toJson(ResultsConverter.compute(RUNS.resolve(run)));
        assertEquals(List.of(), SmpSchema.problems(json));
    }

    @Test
    @DisplayName("exports the hand-made runs (local, Kubernetes, no data plane) as documents the schema accepts")
    void handMadeRunsAreValid() {
        for (RunResults r : List.of(SmpExporterTest.localRun(), SmpExporterTest.clusterRun(null),
                SmpExporterTest.clusterRun(new DataPlaneInfo("netty", java.util.Map.of(), null, false, false, "JDK")))) {
            assertEquals(List.of(), SmpSchema.problems(SmpExporter.toJson(r)), r.inputs().runId());
        }
    }

    static Stream<Arguments> wrongDocuments() {
        return Stream.of(
                Arguments.of("a field SMP does not have (p95 in latencies_ms)", "latencies_ms: property 'p95'",
                        edit(d -> latency(d).put("p95", 30.0))),
                Arguments.of("a field under its JSON name instead of the proto's (actualQps)", "property 'actualQps'",
                        edit(d -> result(d).set("actualQps", result(d).remove("actual_qps")))),
                Arguments.of("a number as text that is not one (actual_qps)",
                        "actual_qps: string found, number expected",
                        edit(d -> result(d).put("actual_qps", "fast"))),
                Arguments.of("an epoch number for a timestamp", "start_time: integer found, string expected",
                        edit(d -> result(d).put("start_time", 1_700_000_000_000L))),
                Arguments.of("a timestamp without a zone", "end_time: does not match the regex pattern",
                        edit(d -> result(d).put("end_time", "2023-11-14T22:13:35.250"))),
                Arguments.of("a mesh type that ServiceMesh.Type does not list",
                        "mesh_type.type: does not have a value in the enumeration",
                        edit(d -> ((ObjectNode) d.get("service_mesh_config").get("mesh_type")).put("type", "NETTY"))),
                Arguments.of("a protocol that Client.Protocol does not list",
                        "protocol: does not have a value in the enumeration",
                        edit(d -> client(d).put("protocol", "HTTP"))),
                Arguments.of("connections beyond int32", "connections: must have a maximum value of 2147483647",
                        edit(d -> client(d).put("connections", 3_000_000_000L))),
                Arguments.of("a label that is not text", "labels.meshbench.dev/errors: integer found, string expected",
                        edit(d -> ((ObjectNode) result(d).get("labels")).put("meshbench.dev/errors", 2))),
                Arguments.of("a node's cores as a fraction", "cores: number found, integer expected",
                        edit(d -> ((ObjectNode) d.get("environment_config").get("nodes").get(0)).put("cores", 7.91))),
                Arguments.of("a missing part of the document (no results)",
                        "required property 'performance_test_results' not found",
                        edit(d -> d.remove("performance_test_results"))),
                Arguments.of("an unknown part of the document", "property 'meshery' is not defined",
                        edit(d -> d.put("meshery", true))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongDocuments")
    @DisplayName("refuses a wrong document, naming the field and the problem")
    void refusesWrongDocuments(String what, String expected, JsonNode wrong) {
        List<String> problems = SmpSchema.problems(wrong);
        assertFalse(problems.isEmpty(), what + " must fail validation");
        assertTrue(problems.stream().anyMatch(p -> p.contains(expected)),
                "expected \"" + expected + "\" in " + problems);
    }

    /** The local run's document with one change. */
    private static JsonNode edit(Consumer<ObjectNode> change) {
        try {
            ObjectNode doc = (ObjectNode) JSON.readTree(SmpExporter.toJson(SmpExporterTest.localRun()));
            assertEquals(List.of(), SmpSchema.problems(doc), "the document is valid before the change");
            change.accept(doc);
            return doc;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode result(ObjectNode doc) {
        return (ObjectNode) ((ArrayNode) doc.get("performance_test_results")).get(1);
    }

    private static ObjectNode latency(ObjectNode doc) {
        return (ObjectNode) result(doc).get("latencies_ms");
    }

    private static ObjectNode client(ObjectNode doc) {
        return (ObjectNode) doc.get("performance_test_configs").get(1).get("clients").get(0);
    }
}
