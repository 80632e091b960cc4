package dev.meshbench.results.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsJsonTest {
    static final Path GOLDEN = Path.of("src/test/resources/runs/sni-1/results.golden.json");
    static final Path RUN = Path.of("src/test/resources/runs/sni-1/run.json");

    /** The golden results.json as version 5 wrote it: no figures per request type. */
    static String goldenV5() throws IOException {
        return dev.meshbench.results.convert.ResultsConverterGoldenTest.withoutLabels(Files.readString(GOLDEN))
                .replace("\"schemaVersion\" : \"" + dev.meshbench.results.ResultsSchema.VERSION + "\"", "\"schemaVersion\" : \"5\"");
    }

    /** The committed run.json as version 5 wrote it (the same fields). */
    static String runV5() throws IOException {
        return Files.readString(RUN).replace("\"schemaVersion\" : \"" + dev.meshbench.results.ResultsSchema.VERSION + "\"", "\"schemaVersion\" : \"5\"");
    }
    static final Path RUN_V1 = Path.of("src/test/resources/runs/mtls-v1/run.json");
    static final Path RESULTS_V1 = Path.of("src/test/resources/runs/mtls-v1/results.json");
    static final Path RUN_V2 = Path.of("src/test/resources/edge/run-v2.json");
    static final Path RUN_V3 = Path.of("src/test/resources/edge/run-v3.json");
    static final Path RUN_V4 = Path.of("src/test/resources/edge/run-v4.json");
    static final Path RUN_K8S = Path.of("src/test/resources/runs/sni-k8s-1/run.json");
    static final DataPlaneInfo ENVOY = new DataPlaneInfo("envoy", Map.of("sidecar", "envoy 1.40.0",
            "egress-gateway", "envoy 1.40.0", "sni-proxy", "nginx 1.22.1"), 2, true, true, "BoringSSL");

    @TempDir
    Path tmp;

    static RunInputs starting() {
        return RunInputs.starting("r1", "mtls", TargetKind.LOCAL, List.of(1, 5), 300, 60, 0, 100,
                new KitVersions("0.1.0", "17.0.15", "5.6.3"), new Machine(2, 1L << 34, "Linux"),
                Instant.parse("2026-11-20T09:00:00Z"));
    }

    @Test
    @DisplayName("lets the orchestrator fill run.json step by step and read it back unchanged")
    void orchestratorFlow() throws IOException {
        Path file = tmp.resolve("run.json");
        RunInputs inputs = starting();
        assertNull(inputs.dataPlane(), "not recorded until the case is deployed");
        ResultsJson.writeRunInputs(file, inputs);
        assertEquals(inputs, ResultsJson.readRunInputs(file));
        inputs = inputs.withDataPlane(ENVOY);
        ResultsJson.writeRunInputs(file, inputs);
        assertEquals(inputs, ResultsJson.readRunInputs(file));
        inputs = inputs.withStep(inputs.step(1).started(1000)).withStep(inputs.step(1).started(1000).ended(301_000));
        assertEquals(ENVOY, inputs.dataPlane(), "withStep keeps the data plane");
        assertEquals(ENVOY, inputs.passed().dataPlane(), "passed keeps the data plane");
        inputs = inputs.failed("step of 5 clients: JMeter exited with code 1");
        ResultsJson.writeRunInputs(file, inputs);
        RunInputs back = ResultsJson.readRunInputs(file);
        assertEquals(inputs, back);
        assertEquals(RunStatus.FAILED, back.status());
        assertEquals(new StepWindow(1, 1000L, 301_000L), back.step(1));
        assertEquals(StepWindow.planned(5), back.step(5));
        assertEquals(ENVOY, back.dataPlane(), "failed keeps the data plane");
        assertTrue(Files.readString(file).contains("\"failureReason\" : \"step of 5 clients: JMeter exited"));
    }

    @Test
    @DisplayName("records how CPU was measured in the measurement, read back unchanged; a run that recorded none reads as null")
    void cpuMethod() throws IOException {
        Path file = tmp.resolve("run.json");
        RunInputs inputs = starting().withMeasurement(dev.meshbench.results.MeasurementInfo.DEFAULT
                .withRun(1, 2, Map.of("meshbench.cpuLimits", "sidecar=0.5")).withCpuMethod("cgroup v1 cpuacct (ns)"));
        ResultsJson.writeRunInputs(file, inputs);
        assertTrue(Files.readString(file).contains("\"cpuMethod\" : \"cgroup v1 cpuacct (ns)\""), Files.readString(file));
        RunInputs back = ResultsJson.readRunInputs(file);
        assertEquals(inputs, back);
        assertEquals("cgroup v1 cpuacct (ns)", back.measurement().withWarmup(null).cpuMethod(), "withWarmup keeps it");
        assertNull(dev.meshbench.results.MeasurementInfo.DEFAULT.cpuMethod());
        ResultsJson.writeRunInputs(file, starting().withMeasurement(dev.meshbench.results.MeasurementInfo.DEFAULT));
        assertTrue(!Files.readString(file).contains("cpuMethod"), "absent when not recorded");
        assertEquals("measurement.cpuMethod (\" \") must not be blank", assertThrows(IllegalArgumentException.class,
                () -> dev.meshbench.results.MeasurementInfo.DEFAULT.withCpuMethod(" ")).getMessage());
    }

    @Test
    @DisplayName("labels a data plane by its name, the Netty relays' TLS provider, whether sidecars talk without mTLS and whether the load bypassed the ingress")
    void dataPlaneLabels() {
        assertEquals("envoy", ENVOY.label());
        assertEquals("netty (JDK TLS, no sidecar mTLS, no ingress)", DataPlaneInfo.unknownNetty().label());
        assertEquals("netty (BoringSSL TLS)", new DataPlaneInfo("netty", Map.of(), 2, true, true, "BoringSSL").label());
        assertEquals("netty (no sidecar mTLS)", new DataPlaneInfo("netty", Map.of(), 2, false, true, null).label());
        assertEquals("envoy (no ingress)", ENVOY.withIngress(false).label());
        assertEquals("through the ingress gateway", ENVOY.entry());
        assertEquals("straight to the sidecars", ENVOY.withIngress(false).entry());
        assertEquals("sidecar=envoy 1.40.0, egress-gateway=envoy 1.40.0, sni-proxy=nginx 1.22.1",
                ENVOY.versionsText());
        assertEquals("versions not recorded", DataPlaneInfo.unknownNetty().versionsText());
        assertNull(DataPlaneInfo.unknownNetty().workers(), "workers were not recorded before schema version 2");
        assertTrue(DataPlaneInfo.unknownNetty().versions().isEmpty());
    }

    @Test
    @DisplayName("rejects a data plane that breaks the rules, naming field, value and rule")
    void dataPlaneValidation() {
        Map<String, String> v = Map.of("sidecar", "envoy 1.40.0");
        assertEquals("dataPlane.name (\"Envoy\") must be a lower-case id such as netty or envoy",
                invalid(() -> new DataPlaneInfo("Envoy", v, 2, true, true, null)));
        assertEquals("dataPlane.name (null) must not be blank",
                invalid(() -> new DataPlaneInfo(null, v, 2, true, true, null)));
        assertEquals("dataPlane.versions is missing", invalid(() -> new DataPlaneInfo("envoy", null, 2, true, true, null)));
        assertEquals("dataPlane.versions key (\"Sidecar\") must be a lower-case component kind such as sidecar, "
                + "egress-gateway or sni-proxy",
                invalid(() -> new DataPlaneInfo("envoy", Map.of("Sidecar", "envoy 1.40.0"), 2, true, true, null)));
        assertEquals("dataPlane.versions.sidecar (\" \") must not be blank",
                invalid(() -> new DataPlaneInfo("envoy", Map.of("sidecar", " "), 2, true, true, null)));
        assertEquals("dataPlane.workers (0) must be positive", invalid(() -> new DataPlaneInfo("envoy", v, 0, true, true,
                null)));
        assertEquals("dataPlane.tlsProvider (\"\") must not be blank",
                invalid(() -> new DataPlaneInfo("envoy", v, 2, true, true, "")));
        assertEquals("dataPlane is missing", invalid(() -> starting().withDataPlane(null)));
    }

    private static String invalid(org.junit.jupiter.api.function.Executable e) {
        return assertThrows(IllegalArgumentException.class, e).getMessage();
    }

    @Test
    @DisplayName("says a truncated results.json is truncated, with file and position")
    void truncated() throws IOException {
        String json = goldenV5();
        Path f = write("results.json", json.substring(0, json.length() / 2));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(f));
        assertEquals(f, e.file());
        assertTrue(e.getMessage().startsWith(f + ": truncated JSON: input ends at line "), e.getMessage());
    }

    @Test
    @DisplayName("refuses an unknown schema version before reading anything else")
    void unknownVersion() throws IOException {
        Path f = write("results.json", goldenV5().replaceFirst("\"schemaVersion\" : \"5\"",
                "\"schemaVersion\" : \"8\""));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(f));
        assertEquals(f + ": unknown schemaVersion \"8\" (this build reads schema versions \"1\", \"2\", \"3\", \"4\", "
                + "\"5\", \"6\" and \"7\"; convert the run again or use a matching kit)", e.getMessage());
        Path none = write("run.json", runV5().replace("  \"schemaVersion\" : \"5\",\n", ""));
        assertEquals(none + ": missing field 'schemaVersion' (this build reads schema versions \"1\", \"2\", \"3\", "
                + "\"4\", \"5\", \"6\" and \"7\")",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(none)).getMessage());
    }

    @Test
    @DisplayName("names a missing field by its path")
    void missingField() throws IOException {
        Path f = write("run.json", runV5().replace("  \"stepSeconds\" : 4,\n", ""));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f));
        assertEquals(f + ": missing field 'stepSeconds'", e.getMessage());
    }

    @Test
    @DisplayName("names a missing nested field by its path")
    void missingNestedField() throws IOException {
        Path f = write("results.json", goldenV5().replaceFirst("\"p99\" : \\d+,\n\\s*", ""));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(f));
        assertEquals(f + ": missing field 'steps[0].latencyMs.p99'", e.getMessage());
    }

    @Test
    @DisplayName("names an unknown field by its path")
    void unknownField() throws IOException {
        Path f = write("run.json", runV5().replace("\"customers\" : 200,",
                "\"customers\" : 200, \"rampSeconds\" : 3,"));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f));
        assertEquals(f + ": unknown field 'rampSeconds' (not part of schema version 5)", e.getMessage());
        Path plane = write("run2.json", runV5().replace("\"workers\" : 2,",
                "\"workers\" : 2, \"colour\" : \"blue\","));
        assertEquals(plane + ": unknown field 'dataPlane.colour' (not part of schema version 5)",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(plane)).getMessage());
    }

    @Test
    @DisplayName("names the version of the file in an unknown field of a version 1 file")
    void unknownFieldOfVersion1() throws IOException {
        Path f = write("run.json", Files.readString(RUN_V1).replace("\"customers\" : 200,",
                "\"customers\" : 200, \"rampSeconds\" : 3,"));
        assertEquals(f + ": unknown field 'rampSeconds' (not part of schema version 1)",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f)).getMessage());
    }

    @Test
    @DisplayName("refuses a version 1 file that has a dataPlane: only version 2 knows that field")
    void dataPlaneInVersion1() throws IOException {
        String v5 = goldenV5();
        Path f = write("results.json", v5.replace("\"schemaVersion\" : \"5\"", "\"schemaVersion\" : \"1\""));
        assertEquals(f + ": unknown field 'inputs.dataPlane' (not part of schema version 1; a file with a dataPlane "
                + "must say schemaVersion \"2\")",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(f)).getMessage());
        Path mixed = write("mixed.json", Files.readString(RESULTS_V1).replaceFirst("\"schemaVersion\" : \"1\"",
                "\"schemaVersion\" : \"2\""));
        assertEquals(mixed + ": inputs.schemaVersion \"1\" differs from the file's schemaVersion \"2\"",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(mixed)).getMessage());
    }

    @Test
    @DisplayName("refuses a file before version 4 that has a cluster: only version 4 knows that field")
    void clusterBeforeVersion4() throws IOException {
        String v3 = Files.readString(RUN_V3).replace("\"target\" : \"local\"", "\"target\" : \"kubernetes\"")
                .replace("\"rewardsAsync\" : false\n  }", "\"rewardsAsync\" : false\n  },\n  \"cluster\" : null");
        Path f = write("run.json", v3);
        assertEquals(f + ": unknown field 'cluster' (not part of schema version 3; a file with a cluster must say "
                + "schemaVersion \"4\")",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f)).getMessage());
        Path v2 = write("run2.json", Files.readString(RUN_V2).replace("\"tlsProvider\" : \"JDK\"\n  }",
                "\"tlsProvider\" : \"JDK\"\n  },\n  \"cluster\" : null"));
        assertEquals(v2 + ": unknown field 'cluster' (not part of schema version 2; a file with a cluster must say "
                + "schemaVersion \"4\")",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(v2)).getMessage());
        Path results = write("results.json", goldenV5().replace("\"schemaVersion\" : \"5\"",
                "\"schemaVersion\" : \"3\""));
        assertEquals(results + ": unknown field 'inputs.cluster' (not part of schema version 3; a file with a cluster "
                + "must say schemaVersion \"4\")",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(results)).getMessage());
        Path mixed = write("mixed.json", goldenV5().replaceFirst("\"schemaVersion\" : \"5\"",
                "\"schemaVersion\" : \"3\"").replace(",\n    \"cluster\" : null", "")
                .replace("\n      \"ingress\" : true,", ""));
        assertEquals(mixed + ": inputs.schemaVersion \"5\" differs from the file's schemaVersion \"3\"",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(mixed)).getMessage());
    }

    @Test
    @DisplayName("refuses a file before version 5 whose data plane says ingress: only version 5 knows that field")
    void ingressBeforeVersion5() throws IOException {
        Path f = write("run.json", Files.readString(RUN_V4).replace("\"sidecarMtls\" : true,",
                "\"sidecarMtls\" : true,\n    \"ingress\" : false,"));
        assertEquals(f + ": unknown field 'dataPlane.ingress' (not part of schema version 4; a file with an ingress "
                + "must say schemaVersion \"5\")",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f)).getMessage());
        Path results = write("results.json", goldenV5().replace("\"schemaVersion\" : \"5\"",
                "\"schemaVersion\" : \"4\""));
        assertEquals(results + ": unknown field 'inputs.dataPlane.ingress' (not part of schema version 4; a file with "
                + "an ingress must say schemaVersion \"5\")",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(results)).getMessage());
    }

    @Test
    @DisplayName("refuses a local run with a cluster, and names the cluster's invalid fields by path and rule")
    void invalidCluster() throws IOException {
        String k8s = Files.readString(RUN_K8S);
        Path local = write("a.json", k8s.replace("\"target\" : \"kubernetes\"", "\"target\" : \"local\""));
        assertEquals(local + ": cluster is only allowed when target is kubernetes, not local (the local target runs "
                + "on no cluster)",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(local)).getMessage());
        Path noNodes = write("b.json", k8s.replaceFirst("(?s)\"nodes\" : \\[.*\n    ]", "\"nodes\" : [ ]"));
        assertEquals(noNodes + ": in 'cluster': cluster.nodes must list at least one node",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(noNodes)).getMessage());
        Path noMemory = write("c.json", k8s.replaceFirst("\\s*\"allocatableMemoryBytes\" : \\d+,", ""));
        assertEquals(noMemory + ": missing field 'cluster.nodes[0].allocatableMemoryBytes'",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(noMemory)).getMessage());
        Path zero = write("d.json", k8s.replaceFirst("\"allocatableCpuCores\" : 7.91", "\"allocatableCpuCores\" : 0"));
        assertEquals(zero + ": in 'cluster.nodes[0]': cluster.nodes[ip-10-0-1-17.ec2.internal].allocatableCpuCores "
                + "(0.0) must be a finite number > 0",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(zero)).getMessage());
        Path noIstio = write("e.json", k8s.replace("\"istioVersion\" : \"1.28.0\"", "\"istioVersion\" : null"));
        assertNull(ResultsJson.readRunInputs(noIstio).cluster().istioVersion(), "Istio's version may be unknown");
    }

    @Test
    @DisplayName("reads a version 2 run.json without a data plane: not recorded yet, reported as unknown netty")
    void version2WithoutDataPlane() throws IOException {
        Path f = write("run.json", runV5().replaceFirst("(?s),\n  \"dataPlane\" : \\{.*?\n  }",
                ",\n  \"dataPlane\" : null"));
        RunInputs in = ResultsJson.readRunInputs(f);
        assertNull(in.dataPlane());
        assertEquals(DataPlaneInfo.unknownNetty(), in.dataPlaneOrUnknown());
        Path missing = write("run2.json", Files.readString(f).replace(",\n  \"dataPlane\" : null", ""));
        assertEquals(in, ResultsJson.readRunInputs(missing), "a missing dataPlane reads as null");
    }

    @Test
    @DisplayName("names a missing or invalid field of the data plane by its path and rule")
    void invalidDataPlane() throws IOException {
        Path noName = write("a.json", runV5().replace("    \"name\" : \"netty\",\n", ""));
        assertEquals(noName + ": missing field 'dataPlane.name'",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(noName)).getMessage());
        Path zero = write("b.json", runV5().replace("\"workers\" : 2", "\"workers\" : 0"));
        assertEquals(zero + ": in 'dataPlane': dataPlane.workers (0) must be positive",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(zero)).getMessage());
        Path mtls = write("c.json", runV5().replace("\"sidecarMtls\" : true", "\"sidecarMtls\" : null"));
        assertTrue(assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(mtls)).getMessage()
                .startsWith(mtls + ": field 'dataPlane.sidecarMtls': "));
    }

    @Test
    @DisplayName("passes on the rule a value breaks")
    void invalidValue() throws IOException {
        Path f = write("run.json", runV5().replace("\"warmupSeconds\" : 1", "\"warmupSeconds\" : 4"));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f));
        assertEquals(f + ": warmupSeconds (4) must be shorter than stepSeconds (4)", e.getMessage());
    }

    @Test
    @DisplayName("lists the allowed values of an unknown status")
    void unknownStatus() throws IOException {
        Path f = write("run.json", runV5().replace("\"passed\"", "\"done\""));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f));
        assertEquals(f + ": in 'status': status \"done\" is not one of running|passed|failed", e.getMessage());
    }

    @Test
    @DisplayName("says an empty file is empty and a non-object is not an object")
    void emptyAndNonObject() throws IOException {
        Path empty = write("a.json", "");
        assertEquals(empty + ": file is empty",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(empty)).getMessage());
        Path array = write("b.json", "[1, 2]");
        assertEquals(array + ": expected a JSON object, found array",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(array)).getMessage());
        Path missing = tmp.resolve("none.json");
        assertEquals(missing + ": file not found",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(missing)).getMessage());
    }

    @Test
    @DisplayName("rejects inputs that break the rules, naming value and rule")
    void validation() {
        RunInputs ok = starting();
        IllegalArgumentException dup = assertThrows(IllegalArgumentException.class, () -> RunInputs.starting("r1",
                "mtls", TargetKind.LOCAL, List.of(5, 5), 300, 60, 0, 100, ok.versions(), ok.machine(),
                ok.startTime()));
        assertEquals("steps: 5 clients appears twice; every step needs its own client count (it identifies the "
                + "step in the JTL)", dup.getMessage());
        IllegalArgumentException runId = assertThrows(IllegalArgumentException.class, () -> RunInputs.starting(
                "a/b", "mtls", TargetKind.LOCAL, List.of(5), 300, 60, 0, 100, ok.versions(), ok.machine(),
                ok.startTime()));
        assertEquals("runId (\"a/b\") must be usable as a folder name (letters, digits, . _ -)", runId.getMessage());
        assertEquals("failureReason of a failed run (null) must not be blank",
                assertThrows(IllegalArgumentException.class, () -> ok.failed(null)).getMessage());
        assertEquals("step of 3 clients: endEpochMs (10) must be after startEpochMs (10)",
                assertThrows(IllegalArgumentException.class, () -> new StepWindow(3, 10L, 10L)).getMessage());
    }

    private Path write(String name, String content) throws IOException {
        Path f = tmp.resolve(name);
        Files.writeString(f, content);
        return f;
    }
}
