package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.WorkloadInfo;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.samples.SampleRunGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

public class ResultsConverterGoldenTest {
    static final Path RUNS = Path.of("src/test/resources/runs");
    static final List<String> LOCALES = List.of("en-US", "ru-RU", "de-DE", "fr-FR", "ar-EG", "hi-IN-u-nu-deva");
    /**
     * Every case on netty, sni on envoy (locally and on Kubernetes), and a run folder written by a kit of schema
     * version 1.
     */
    static final List<String> GOLDEN_RUNS = List.of("bypass-1", "sidecar-1", "gateway-1", "mtls-1", "sni-1",
            "sni-envoy-1", "sni-k8s-1", "mtls-v1");

    static Stream<Arguments> runsAndLocales() {
        List<Arguments> all = new ArrayList<>();
        for (String run : GOLDEN_RUNS) {
            for (String l : LOCALES) {
                all.add(Arguments.of(run, l));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("runsAndLocales")
    @DisplayName("converts each sample run to exactly its golden results.json, whatever the default locale")
    void matchesGoldenUnderLocale(String run, String locale) throws IOException {
        Path dir = RUNS.resolve(run);
        String json = WithLocale.call(Locale.forLanguageTag(locale), () ->
                ResultsJson.toJson(ResultsConverter.compute(dir)));
        if (Boolean.getBoolean("meshbench.regenerateGolden")) { // after a deliberate change: review the diff
            Files.writeString(dir.resolve("results.golden.json"), json);
        }
        assertEquals(Files.readString(dir.resolve("results.golden.json")), json);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bypass-1", "sidecar-1", "gateway-1", "mtls-1", "sni-1", "sni-envoy-1", "sni-k8s-1"})
    @DisplayName("reads and rewrites each committed run.json of the current schema version byte for byte")
    void runJsonRoundTrips(String run) throws IOException {
        Path file = RUNS.resolve(run).resolve("run.json");
        assertEquals(Files.readString(file), ResultsJson.toJson(ResultsJson.readRunInputs(file)));
    }

    @Test
    @DisplayName("records the data plane of each sample run: netty relays, or envoy with nginx as SNI proxy")
    void sampleDataPlanes() throws IOException {
        DataPlaneInfo netty = ResultsJson.readRunInputs(RUNS.resolve("sni-1/run.json")).dataPlane();
        assertEquals(new DataPlaneInfo("netty", Map.of("sidecar", "meshbench-netty 0.1.0-SNAPSHOT (JDK TLS)",
                "egress-gateway", "meshbench-netty 0.1.0-SNAPSHOT (JDK TLS)",
                "sni-proxy", "meshbench-netty 0.1.0-SNAPSHOT (JDK TLS)"), 2, true, true, "JDK"), netty);
        DataPlaneInfo envoy = ResultsJson.readRunInputs(RUNS.resolve("sni-envoy-1/run.json")).dataPlane();
        assertEquals(new DataPlaneInfo("envoy", Map.of("sidecar", "envoy 1.40.0", "egress-gateway", "envoy 1.40.0",
                "sni-proxy", "nginx 1.22.1"), 2, true, true, "BoringSSL"), envoy);
        assertEquals(List.of("sidecar", "egress-gateway", "sni-proxy"), List.copyOf(envoy.versions().keySet()),
                "versions in traffic order");
        assertTrue(Files.readString(RUNS.resolve("sni-envoy-1/results.golden.json")).contains("""
                    "dataPlane" : {
                      "name" : "envoy",
                      "versions" : {
                        "sidecar" : "envoy 1.40.0",
                        "egress-gateway" : "envoy 1.40.0",
                        "sni-proxy" : "nginx 1.22.1"
                      },
                      "workers" : 2,
                      "sidecarMtls" : true,
                      "ingress" : true,
                      "tlsProvider" : "BoringSSL"
                    },
                    "workload" : {
                """), "dataPlane is followed by the workload");
        assertTrue(Files.readString(RUNS.resolve("sni-envoy-1/results.golden.json")).contains("""
                      "rewardsAsync" : false
                    },
                    "cluster" : null
                  },
                """), "a local run has no cluster, the last field of inputs");
    }

    @Test
    @DisplayName("records the cluster of the Kubernetes sample run as the last field of inputs, nodes by name")
    void sampleCluster() throws IOException {
        RunInputs in = ResultsJson.readRunInputs(RUNS.resolve("sni-k8s-1/run.json"));
        assertEquals(TargetKind.KUBERNETES, in.target());
        assertEquals(SampleRunGenerator.CLUSTER, in.cluster());
        assertEquals("Kubernetes v1.31.4-eks-2d5f260, Istio 1.28.0, 3 nodes (3 × 7.91 CPU / 30.9 GiB)",
                in.cluster().summary());
        assertTrue(Files.readString(RUNS.resolve("sni-k8s-1/results.golden.json")).contains("""
                      "rewardsAsync" : false
                    },
                    "cluster" : {
                      "kubernetesVersion" : "v1.31.4-eks-2d5f260",
                      "istioVersion" : "1.28.0",
                      "nodes" : [
                        {
                          "name" : "ip-10-0-1-17.ec2.internal",
                          "allocatableCpuCores" : 7.91,
                          "allocatableMemoryBytes" : 33176207360,
                          "instanceType" : "m6i.2xlarge"
                        },
                """), "cluster is the last field of inputs, then the nodes' fields in order");
    }

    @Test
    @DisplayName("upgrades a version 1 run.json as it reads it: the current version, the unknown netty data plane (no ingress), "
            + "the first workload, no cluster")
    void readsVersion1RunJson() throws IOException {
        Path file = RUNS.resolve("mtls-v1/run.json");
        String v1 = Files.readString(file);
        assertTrue(v1.contains("\"schemaVersion\" : \"1\""), "the fixture is a version 1 file");
        RunInputs in = ResultsJson.readRunInputs(file);
        assertEquals(ResultsSchema.VERSION, in.schemaVersion());
        assertEquals(DataPlaneInfo.unknownNetty(), in.dataPlane());
        assertEquals("netty (JDK TLS, no sidecar mTLS, no ingress)", in.dataPlane().label());
        String upgraded = v1.replace("\"schemaVersion\" : \"1\"", "\"schemaVersion\" : \"" + ResultsSchema.VERSION + "\"")
                .replace("  \"failureReason\" : null\n}\n", """
                          "failureReason" : null,
                          "dataPlane" : {
                            "name" : "netty",
                            "versions" : { },
                            "workers" : null,
                            "sidecarMtls" : false,
                            "ingress" : false,
                            "tlsProvider" : "JDK"
                          },
                          "workload" : {
                            "mix" : "roundtrip",
                            "flightCache" : false,
                            "rewardsAsync" : false
                          },
                          "cluster" : null
                        }
                        """);
        assertEquals(upgraded, ResultsJson.toJson(in));
    }

    @Test
    @DisplayName("upgrades a version 2 run.json as it reads it: version 5, the first workload, no ingress, nothing "
            + "else changed")
    void readsVersion2RunJson() throws IOException {
        Path v2 = Path.of("src/test/resources/edge/run-v2.json");
        assertTrue(Files.readString(v2).contains("\"schemaVersion\" : \"2\""), "the fixture is a version 2 file");
        RunInputs in = ResultsJson.readRunInputs(v2);
        assertEquals(WorkloadInfo.FIRST_VERSION, in.workload());
        assertEquals("netty (JDK TLS, no ingress) · roundtrip mix, no flight cache, sync rewards", in.seriesLabel());
        assertNull(in.cluster());
        // the same run, written as version 5, is the committed sni-1 run.json without the ingress
        assertEquals(sni1WithoutIngress(), ResultsJson.toJson(in));
    }

    /** The committed sni-1 run.json as a run before version 5 reads: the load went straight to the sidecars. */
    private static String sni1WithoutIngress() throws IOException {
        String v5 = Files.readString(RUNS.resolve("sni-1/run.json"));
        assertTrue(v5.contains("\"ingress\" : true,"), "the committed sample came through the ingress gateway");
        return v5.replace("\"ingress\" : true,", "\"ingress\" : false,");
    }

    @Test
    @DisplayName("upgrades a version 3 run.json as it reads it: version 5 without a cluster, no ingress, nothing "
            + "else changed")
    void readsVersion3RunJson() throws IOException {
        Path v3 = Path.of("src/test/resources/edge/run-v3.json");
        assertTrue(Files.readString(v3).contains("\"schemaVersion\" : \"3\""), "the fixture is a version 3 file");
        RunInputs in = ResultsJson.readRunInputs(v3);
        assertEquals(ResultsSchema.VERSION, in.schemaVersion());
        assertNull(in.cluster());
        assertEquals(sni1WithoutIngress(), ResultsJson.toJson(in));
    }

    @Test
    @DisplayName("upgrades a version 4 run.json as it reads it: version 5, the load straight to the sidecars (no "
            + "ingress), nothing else changed")
    void readsVersion4RunJson() throws IOException {
        Path v4 = Path.of("src/test/resources/edge/run-v4.json");
        String text = Files.readString(v4);
        assertTrue(text.contains("\"schemaVersion\" : \"4\"") && !text.contains("ingress"),
                "the fixture is a version 4 file, which has no ingress");
        RunInputs in = ResultsJson.readRunInputs(v4);
        assertEquals(ResultsSchema.VERSION, in.schemaVersion());
        assertFalse(in.dataPlane().ingress());
        assertEquals("netty (JDK TLS, no ingress)", in.dataPlane().label());
        assertEquals("straight to the sidecars", in.dataPlane().entry());
        assertEquals(sni1WithoutIngress(), ResultsJson.toJson(in));
    }

    @Test
    @DisplayName("reads a version 3 results.json exactly as converting its run folder again gives, without the "
            + "ingress")
    void readsVersion3Results() throws IOException {
        Path dir = RUNS.resolve("sni-1");
        String v3 = withoutLabels(Files.readString(dir.resolve("results.golden.json")))
                .replace("\"schemaVersion\" : \"" + ResultsSchema.VERSION + "\"", "\"schemaVersion\" : \"3\"")
                .replace("    },\n    \"cluster\" : null\n  },", "    }\n  },")
                .replace("\n      \"ingress\" : true,", "");
        assertTrue(!v3.contains("cluster") && !v3.contains("\"ingress\"") && v3.contains("\"schemaVersion\" : \"3\""),
                "a version 3 results.json");
        RunResults old = ResultsJson.fromJson(dir.resolve("results.json"), v3, RunResults.class);
        assertEquals(withoutLabels(withoutIngress(ResultsConverter.compute(dir))), old);
        assertNull(old.inputs().cluster());
    }

    @Test
    @DisplayName("reads a version 4 results.json exactly as converting its run folder again gives, without the "
            + "ingress")
    void readsVersion4Results() throws IOException {
        Path dir = RUNS.resolve("sni-1");
        String v4 = withoutLabels(Files.readString(dir.resolve("results.golden.json")))
                .replace("\"schemaVersion\" : \"" + ResultsSchema.VERSION + "\"", "\"schemaVersion\" : \"4\"")
                .replace("\n      \"ingress\" : true,", "");
        assertTrue(!v4.contains("\"ingress\"") && v4.contains("\"schemaVersion\" : \"4\""), "a version 4 results.json");
        RunResults old = ResultsJson.fromJson(dir.resolve("results.json"), v4, RunResults.class);
        assertEquals(withoutLabels(withoutIngress(ResultsConverter.compute(dir))), old);
        assertEquals("netty (JDK TLS, no ingress) · roundtrip mix, no flight cache, sync rewards",
                old.inputs().seriesLabel());
    }

    /** A results.json text without its steps' {@code labels}, as files before schema version 6 are. */
    public static String withoutLabels(String json) throws IOException {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(json);
        tree.withArray("steps").forEach(step -> ((com.fasterxml.jackson.databind.node.ObjectNode) step).remove("labels"));
        String out = ResultsJson.toJson(tree);
        assertFalse(out.contains("\"labels\""), "labels left");
        return out;
    }

    /** {@code r} as a run before schema version 6 reads: steps without figures per request type. */
    static RunResults withoutLabels(RunResults r) {
        return new RunResults(r.schemaVersion(), r.inputs(), r.conversion(), r.steps().stream()
                .map(s -> new dev.meshbench.results.StepResult(s.clients(), s.windowStartEpochMs(), s.windowEndEpochMs(),
                        s.measuredSeconds(), s.samples(), s.warmupSamplesSkipped(), s.lateSamplesSkipped(), s.transactions(),
                        s.errors(), s.throughputPerSecond(), s.latencyMs(), s.cpu(), s.work(), s.host(), s.drift(), s.rate()))
                .toList(), r.notes());
    }

    /** {@code r} as a run before schema version 5 reads: its data plane without the ingress. */
    private static RunResults withoutIngress(RunResults r) {
        return new RunResults(r.schemaVersion(), r.inputs().withDataPlane(r.inputs().dataPlane().withIngress(false)),
                r.conversion(), r.steps(), r.notes());
    }

    @Test
    @DisplayName("reads a version 1 results.json exactly as converting its run folder again gives")
    void readsVersion1Results() throws IOException {
        Path dir = RUNS.resolve("mtls-v1");
        assertTrue(Files.readString(dir.resolve("results.json")).startsWith("{\n  \"schemaVersion\" : \"1\""));
        RunResults old = ResultsJson.readResults(dir.resolve("results.json"));
        // A version-1 file predates the drift check: equal to today's conversion without it.
        RunResults now = ResultsConverter.compute(dir);
        RunResults nowWithoutDrift = new RunResults(now.schemaVersion(), now.inputs(), now.conversion(),
                now.steps().stream().map(s -> new dev.meshbench.results.StepResult(s.clients(), s.windowStartEpochMs(),
                        s.windowEndEpochMs(), s.measuredSeconds(), s.samples(), s.warmupSamplesSkipped(),
                        s.lateSamplesSkipped(), s.transactions(), s.errors(), s.throughputPerSecond(), s.latencyMs(),
                        s.cpu(), s.work(), s.host(), null)).toList(),
                now.notes().stream().filter(n -> !n.contains(": not steady: ")).toList());
        assertEquals(nowWithoutDrift, old);
        assertEquals(DataPlaneInfo.unknownNetty(), old.inputs().dataPlane());
        assertNull(old.inputs().cluster());
        assertEquals(ResultsSchema.VERSION, old.schemaVersion());
    }

    @Test
    @DisplayName("writes results.json into the run folder and reads back the same results")
    void convertWritesResultsFile(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("sni-1");
        Files.createDirectories(dir);
        for (String f : List.of("run.json", "samples.jtl", "cpu-samples.csv")) {
            Files.copy(RUNS.resolve("sni-1").resolve(f), dir.resolve(f));
        }
        RunResults written = ResultsConverter.convert(dir);
        assertEquals(written, ResultsJson.readResults(dir.resolve("results.json")));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(4, files.count(), "no temporary file is left behind");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bypass-1", "sidecar-1", "gateway-1", "mtls-1", "sni-1", "sni-envoy-1", "sni-k8s-1"})
    @DisplayName("recovers the generator's mesh and app CPU per transaction within 15%")
    void cpuPerTransactionMatchesModel(String run) throws IOException {
        RunResults r = ResultsConverter.compute(RUNS.resolve(run));
        SampleRunGenerator.CaseModel model = SampleRunGenerator.model(r.inputs().caseId(),
                r.inputs().dataPlane().name());
        StepResult s = r.step(20).orElseThrow();
        double tps = s.throughputPerSecond();
        double mesh = expected(model, ComponentRole.MESH, tps);
        double app = expected(model, ComponentRole.APP, tps);
        assertEquals(mesh, s.cpu().mesh().cpuMsPerTransaction(), mesh * 0.15, "mesh CPU ms per transaction");
        assertEquals(app, s.cpu().app().cpuMsPerTransaction(), app * 0.15, "app CPU ms per transaction");
    }

    @Test
    @DisplayName("shows the study's ordering: sni costs clearly more mesh CPU per transaction than bypass")
    void sniCostsMoreThanBypass() throws IOException {
        double bypass = ResultsConverter.compute(RUNS.resolve("bypass-1")).step(20).orElseThrow()
                .cpu().mesh().cpuMsPerTransaction();
        double sni = ResultsConverter.compute(RUNS.resolve("sni-1")).step(20).orElseThrow()
                .cpu().mesh().cpuMsPerTransaction();
        assertTrue(sni > 2 * bypass, "sni " + sni + " vs bypass " + bypass);
    }

    private static double expected(SampleRunGenerator.CaseModel model, ComponentRole role, double tps) {
        return model.components().stream().filter(c -> c.role() == role)
                .mapToDouble(c -> c.msPerTx() + c.idleMsPerSecond() / tps).sum();
    }
}
