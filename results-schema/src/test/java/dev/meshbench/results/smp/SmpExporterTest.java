package dev.meshbench.results.smp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.ClusterNode;
import dev.meshbench.results.ConversionMethod;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepCpu;
import dev.meshbench.results.StepDrift;
import dev.meshbench.results.StepHost;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.WorkloadInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmpExporterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DataPlaneInfo ENVOY = new DataPlaneInfo("envoy", Map.of("sidecar", "envoy 1.40.0",
            "egress-gateway", "envoy 1.40.0", "sni-proxy", "nginx 1.22.1"), 2, true, true, "BoringSSL");

    /**
     * Two steps of a local sni run on envoy: 5 clients that only failed, then 20 clients whose measured window is
     * [1_700_000_000_000, 1_700_000_015_250) epoch ms, 150 transactions, 2 errors, host and drift recorded.
     */
    static RunResults localRun() {
        RunInputs in = RunInputs.starting("r1", "sni", TargetKind.LOCAL, List.of(5, 20), 300, 60, 0, 1000,
                        new KitVersions("0.1.0-SNAPSHOT", "17.0.15", "5.6.3"),
                        new Machine(2, 25_769_803_776L, "Linux 6.1.0-28-amd64 amd64"),
                        Instant.parse("2023-11-14T22:00:00Z"))
                .withDataPlane(ENVOY)
                .withWorkload(WorkloadInfo.ORIGINAL)
                .withStep(new StepWindow(5, 1_699_999_640_000L, 1_699_999_940_000L))
                .withStep(new StepWindow(20, 1_699_999_940_000L, 1_700_000_015_250L))
                .passed();
        StepResult failing = new StepResult(5, 1_699_999_700_000L, 1_699_999_940_000L, 240, 3, 0, 0, 0, 3, 0,
                null, null, null);
        StepCpu cpu = new StepCpu(new RoleCpu(321.465, 0.0211, 2.1431, 6), new RoleCpu(75, 0.0049, 0.5, 4), null,
                null, List.of());
        StepResult twenty = new StepResult(20, 1_700_000_000_000L, 1_700_000_015_250L, 15.25, 152, 10, 0, 150, 2,
                9.836, new LatencyStats(150, 3, 12.5, 10, 20, 30, 40, 55), cpu, null,
                new StepHost(97.0, 3.5, 2, 26.0, true), new StepDrift(10, 9, -10.0, true));
        return new RunResults(ResultsSchema.VERSION, in, ConversionMethod.current(true), List.of(failing, twenty),
                List.of());
    }

    /** One step of a Kubernetes run whose cluster has a whole-numbered node and a fractional one. */
    static RunResults clusterRun(DataPlaneInfo plane) {
        RunInputs in = RunInputs.starting("k1", "mtls", TargetKind.KUBERNETES, List.of(10), 120, 30, 250, 200,
                        new KitVersions("0.1.0-SNAPSHOT", "17.0.15", "5.6.3"),
                        new Machine(4, 8_589_934_592L, "Linux 6.1.0-28-amd64 amd64"),
                        Instant.parse("2023-11-14T22:00:00Z"))
                .withCluster(new ClusterInfo("v1.31.4", "1.28.0", List.of(
                        new ClusterNode("a", 8.0, 8_590_721_024L, null),
                        new ClusterNode("b", 7.91, 33_176_207_360L, "m6i.2xlarge"))))
                .withStep(new StepWindow(10, 1_699_999_970_000L, 1_700_000_090_000L))
                .failed("step of 10 clients: JMeter exited with code 1");
        if (plane != null) {
            in = in.withDataPlane(plane);
        }
        StepResult ten = new StepResult(10, 1_700_000_000_000L, 1_700_000_090_000L, 90, 900, 30, 1, 900, 0, 10.0,
                new LatencyStats(900, 41, 100.25, 97, 150, 170, 230, 1500), null, null);
        return new RunResults(ResultsSchema.VERSION, in, ConversionMethod.current(false), List.of(ten), List.of());
    }

    static JsonNode tree(RunResults results) throws IOException {
        return JSON.readTree(SmpExporter.toJson(results));
    }

    @Test
    @DisplayName("writes one test config and one result per measured step, linked by ids to one mesh config and "
            + "one environment")
    void oneResultPerStep() throws IOException {
        JsonNode smp = tree(localRun());
        assertEquals(List.of("environment_config", "service_mesh_config", "performance_test_configs",
                "performance_test_results"), names(smp));
        assertEquals("r1-environment", smp.at("/environment_config/id").asText());
        assertEquals("r1-mesh", smp.at("/service_mesh_config/id").asText());
        assertEquals(2, smp.get("performance_test_configs").size());
        assertEquals(2, smp.get("performance_test_results").size());
        for (int i = 0; i < 2; i++) {
            JsonNode config = smp.get("performance_test_configs").get(i);
            JsonNode result = smp.get("performance_test_results").get(i);
            assertEquals(config.get("id").asText(), result.get("test_id").asText());
            assertEquals(config.get("id").asText() + "-result", result.get("id").asText());
            assertEquals("r1-mesh", result.get("mesh_config_id").asText());
            assertEquals("r1-environment", result.get("env_id").asText());
            assertEquals("v0.6.1", result.get("smp_version").asText());
            assertEquals("v0.6.1", config.get("smp_version").asText());
        }
        assertEquals("r1-5-clients", smp.at("/performance_test_configs/0/id").asText());
        assertEquals("r1-20-clients", smp.at("/performance_test_configs/1/id").asText());
        assertEquals("r1: 20 clients", smp.at("/performance_test_configs/1/name").asText());
        assertEquals("v0.6.1", smp.at("/environment_config/smp_version").asText());
        assertEquals("v0.6.1", smp.at("/service_mesh_config/smp_version").asText());
    }

    @Test
    @DisplayName("maps a step's window, latency, throughput and load into SMP's fields and units")
    void stepMapping() throws IOException {
        JsonNode result = tree(localRun()).at("/performance_test_results/1");
        // 1_700_000_000 s = 19_675 days + 80_000 s; 80_000 s = 22 h 13 min 20 s. Day 19_675 after 1970-01-01:
        // 2023-01-01 is day 53 * 365 + 13 leap days = 19_358, so 19_675 is day 318 of 2023 = November 14
        // (Jan..Oct hold 304 days). The end is 15.250 s later.
        assertEquals("2023-11-14T22:13:20Z", result.get("start_time").asText());
        assertEquals("2023-11-14T22:13:35.250Z", result.get("end_time").asText());
        // latencies_ms are milliseconds, as ours: copied, not divided (Meshery's fortio results hold seconds there)
        JsonNode l = result.get("latencies_ms");
        assertEquals(List.of("min", "average", "p50", "p90", "p99", "max"), names(l));
        assertEquals(3.0, l.get("min").doubleValue());
        assertEquals(12.5, l.get("average").doubleValue());
        assertEquals(10.0, l.get("p50").doubleValue(), "p50 is our median");
        assertEquals(20.0, l.get("p90").doubleValue());
        assertEquals(40.0, l.get("p99").doubleValue());
        assertEquals(55.0, l.get("max").doubleValue());
        assertEquals(9.836, result.get("actual_qps").doubleValue(), "successful transactions per second");
        JsonNode config = tree(localRun()).at("/performance_test_configs/1");
        assertEquals("300s", config.get("duration").asText(), "the planned step, warm-up included, Go notation");
        JsonNode client = config.at("/clients/0");
        assertEquals(List.of("load_generator", "protocol", "connections"), names(client),
                "no rps: a closed loop of clients requests no rate; internal and endpoints unknown");
        assertEquals("jmeter", client.get("load_generator").asText());
        assertEquals("PROTOCOL_HTTP", client.get("protocol").asText());
        assertEquals(20, client.get("connections").intValue());
    }

    @Test
    @DisplayName("a fixed-rate step gives its target as SMP's whole rps; the document stays valid")
    void fixedRate() throws IOException {
        RunResults closed = localRun();
        StepResult s = closed.steps().get(1);
        StepResult atRate = new StepResult(s.clients(), s.windowStartEpochMs(), s.windowEndEpochMs(), s.measuredSeconds(),
                s.samples(), s.warmupSamplesSkipped(), s.lateSamplesSkipped(), s.transactions(), s.errors(),
                s.throughputPerSecond(), s.latencyMs(), s.cpu(), s.work(), s.host(), s.drift(),
                new dev.meshbench.results.StepRate(10.6, 9.967, true));
        RunResults run = new RunResults(closed.schemaVersion(), closed.inputs(), closed.conversion(),
                List.of(closed.steps().get(0), atRate), closed.notes());
        JsonNode smp = tree(run);
        // 10.6 req/s rounds to 11 (SMP's rps is an int64); the closed-loop step has none
        assertEquals(11, smp.at("/performance_test_configs/1/clients/0/rps").longValue());
        assertTrue(smp.at("/performance_test_configs/0/clients/0/rps").isMissingNode());
        assertEquals(List.of(), SmpSchema.problems(smp));
    }

    @Test
    @DisplayName("labels each result with the egress case, data plane, and what SMP has no field for")
    void resultLabels() throws IOException {
        JsonNode labels = tree(localRun()).at("/performance_test_results/1/labels");
        assertEquals(Map.ofEntries(
                Map.entry("meshbench.dev/run-id", "r1"),
                Map.entry("meshbench.dev/egress-case", "sni"),
                Map.entry("meshbench.dev/data-plane", "envoy"),
                Map.entry("meshbench.dev/target", "local"),
                Map.entry("meshbench.dev/run-status", "passed"),
                Map.entry("meshbench.dev/clients", "20"),
                Map.entry("meshbench.dev/transactions", "150"),
                Map.entry("meshbench.dev/errors", "2"),
                Map.entry("meshbench.dev/latency-p95-ms", "30"),
                Map.entry("meshbench.dev/mesh-cpu-ms-per-tx", "2.1431"),
                Map.entry("meshbench.dev/app-cpu-ms-per-tx", "0.5"),
                Map.entry("meshbench.dev/host-busy-percent", "97"),
                Map.entry("meshbench.dev/saturated", "true"),
                Map.entry("meshbench.dev/steady", "true")), JSON.convertValue(labels, Map.class));
        JsonNode config = tree(localRun()).at("/performance_test_configs/1/labels");
        assertEquals("60", config.get("meshbench.dev/warmup-seconds").asText());
        assertEquals("0", config.get("meshbench.dev/think-time-ms").asText());
        assertEquals("5.6.3", config.get("meshbench.dev/jmeter-version").asText());
        assertEquals("sni", config.get("meshbench.dev/egress-case").asText());
    }

    @Test
    @DisplayName("leaves out what a step did not measure: latencies without transactions, CPU, host and drift")
    void leavesOutUnmeasured() throws IOException {
        JsonNode failing = tree(localRun()).at("/performance_test_results/0");
        assertTrue(failing.path("latencies_ms").isMissingNode());
        assertEquals(0.0, failing.get("actual_qps").doubleValue());
        assertEquals("3", failing.at("/labels/meshbench.dev~1errors").asText());
        for (String absent : List.of("latency-p95-ms", "mesh-cpu-ms-per-tx", "app-cpu-ms-per-tx",
                "host-busy-percent", "saturated", "steady")) {
            assertTrue(failing.get("labels").path("meshbench.dev/" + absent).isMissingNode(), absent);
        }
    }

    @Test
    @DisplayName("describes the local data plane in the mesh config: no mesh type, mTLS, workers, proxy build, "
            + "versions and the case in labels")
    void localMeshConfig() throws IOException {
        JsonNode mesh = tree(localRun()).get("service_mesh_config");
        assertEquals(List.of("smp_version", "id", "labels", "mtls_enabled", "proxy_concurrency", "proxy_build",
                "mesh_type", "application_metadata"), names(mesh), "no mesh_build: no Istio locally");
        assertTrue(mesh.get("mtls_enabled").booleanValue());
        assertEquals(2, mesh.get("proxy_concurrency").intValue());
        assertEquals("envoy 1.40.0", mesh.get("proxy_build").asText());
        assertTrue(mesh.at("/mesh_type/type").isMissingNode(), "no ServiceMesh.Type fits a local data plane");
        assertEquals("envoy", mesh.at("/mesh_type/labels/meshbench.dev~1data-plane").asText());
        assertEquals(Map.of("meshbench.dev/egress-case", "sni", "meshbench.dev/data-plane", "envoy",
                "meshbench.dev/sidecar-version", "envoy 1.40.0", "meshbench.dev/egress-gateway-version", "envoy 1.40.0",
                "meshbench.dev/sni-proxy-version", "nginx 1.22.1", "meshbench.dev/ingress", "true",
                "meshbench.dev/tls-provider", "BoringSSL", "meshbench.dev/workload", "original"),
                JSON.convertValue(mesh.get("labels"), Map.class));
        assertEquals("acmeair", mesh.at("/application_metadata/application_name").asText());
        assertEquals("0.1.0-SNAPSHOT", mesh.at("/application_metadata/application_version").asText());
        assertEquals("PROTOCOL_HTTP", mesh.at("/application_metadata/application_protocol").asText());
    }

    @Test
    @DisplayName("writes mtls_enabled false as false, not as an absent field, and a run without the ingress as its "
            + "label false")
    void mtlsOff() throws IOException {
        DataPlaneInfo plain = new DataPlaneInfo("netty", Map.of(), null, false, false, "JDK");
        JsonNode mesh = tree(clusterRun(plain)).get("service_mesh_config");
        assertFalse(mesh.get("mtls_enabled").booleanValue());
        assertEquals("false", mesh.at("/labels/meshbench.dev~1ingress").asText());
        assertTrue(mesh.path("proxy_concurrency").isMissingNode(), "workers not recorded");
        assertTrue(mesh.path("proxy_build").isMissingNode(), "no sidecar version recorded");
    }

    @Test
    @DisplayName("describes the local machine as the environment's one node: cores and memory in MB (2^20 bytes)")
    void localEnvironment() throws IOException {
        JsonNode env = tree(localRun()).get("environment_config");
        assertTrue(env.path("kubernetes_version").isMissingNode());
        // 25_769_803_776 bytes = 24 * 2^30 = 24 * 1024 MiB = 24_576
        assertEquals(JSON.readTree("[{\"cores\": 2, \"mem_mb\": 24576}]"), env.get("nodes"));
        assertEquals("local", env.at("/labels/meshbench.dev~1target").asText());
        assertEquals("Linux 6.1.0-28-amd64 amd64", env.at("/labels/meshbench.dev~1os").asText());
    }

    @Test
    @DisplayName("describes a Kubernetes run: Istio with its version, the cluster's nodes, cores only when whole")
    void clusterEnvironmentAndMesh() throws IOException {
        JsonNode smp = tree(clusterRun(ENVOY));
        JsonNode env = smp.get("environment_config");
        assertEquals("v1.31.4", env.get("kubernetes_version").asText());
        // node a: 8_590_721_024 bytes = 8 * 2^30 + 786_432 = 8192 MiB + 0.75 MiB -> 8193 (nearest)
        // node b: 33_176_207_360 bytes = 31_639 * 2^20 + 311_296 = 31_639.297 MiB -> 31_639; 7.91 cores is no
        //         whole number of cores: left out
        assertEquals(JSON.readTree("[{\"cores\": 8, \"mem_mb\": 8193},"
                + " {\"type\": \"m6i.2xlarge\", \"mem_mb\": 31639}]"), env.get("nodes"));
        assertEquals("Kubernetes v1.31.4, Istio 1.28.0, 2 nodes (1 × 8 CPU / 8 GiB, 1 × 7.91 CPU / 30.9 GiB)",
                env.at("/labels/meshbench.dev~1cluster").asText());
        JsonNode mesh = smp.get("service_mesh_config");
        assertEquals("ISTIO", mesh.at("/mesh_type/type").asText());
        assertEquals("1.28.0", mesh.at("/mesh_type/version").asText());
        assertEquals("1.28.0", mesh.get("mesh_build").asText());
        assertEquals("mtls", mesh.at("/labels/meshbench.dev~1egress-case").asText());
        JsonNode result = smp.at("/performance_test_results/0");
        assertEquals("failed", result.at("/labels/meshbench.dev~1run-status").asText());
        assertEquals("kubernetes", result.at("/labels/meshbench.dev~1target").asText());
        assertEquals(100.25, result.at("/latencies_ms/average").doubleValue());
        assertEquals(1500.0, result.at("/latencies_ms/max").doubleValue());
        assertEquals("120s", smp.at("/performance_test_configs/0/duration").asText());
    }

    @Test
    @DisplayName("leaves the data plane's fields out when the run recorded none")
    void noDataPlane() throws IOException {
        JsonNode smp = tree(clusterRun(null));
        JsonNode mesh = smp.get("service_mesh_config");
        for (String absent : List.of("mtls_enabled", "proxy_concurrency", "proxy_build")) {
            assertTrue(mesh.path(absent).isMissingNode(), absent);
        }
        assertEquals(Map.of("meshbench.dev/egress-case", "mtls"), JSON.convertValue(mesh.get("labels"), Map.class));
        assertEquals(List.of("type", "version"), names(mesh.get("mesh_type")), "Istio, no data plane label");
        assertTrue(smp.at("/performance_test_results/0/labels").path("meshbench.dev/data-plane").isMissingNode());
    }

    @Test
    @DisplayName("leaves out the nodes and Kubernetes version of a Kubernetes run whose cluster was not recorded")
    void clusterNotRecorded() throws IOException {
        RunResults r = clusterRun(ENVOY);
        RunInputs in = r.inputs();
        RunInputs noCluster = new RunInputs(in.schemaVersion(), in.runId(), in.caseId(), in.target(), in.steps(),
                in.stepSeconds(), in.warmupSeconds(), in.thinkTimeMs(), in.customers(), in.versions(), in.machine(),
                in.startTime(), in.status(), in.failureReason(), in.dataPlane(), in.workload(), null);
        JsonNode smp = tree(new RunResults(r.schemaVersion(), noCluster, r.conversion(), r.steps(), r.notes()));
        assertEquals(List.of("smp_version", "id", "labels"), names(smp.get("environment_config")));
        assertEquals(List.of("type", "labels"), names(smp.at("/service_mesh_config/mesh_type")),
                "Istio, version unknown");
        assertTrue(smp.at("/service_mesh_config/mesh_build").isMissingNode());
    }

    @Test
    @DisplayName("writes smp.json into the run folder and leaves no temporary file")
    void writesFile(@TempDir Path dir) throws IOException {
        Path file = SmpExporter.write(dir, localRun());
        assertEquals(dir.resolve("smp.json"), file);
        assertEquals(SmpExporter.toJson(localRun()), Files.readString(file));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
    }

    @Test
    @DisplayName("reports a failed write as false and a warning, without throwing")
    void failureIsOnlyAWarning(@TempDir Path dir) throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("results.json"), "{}");
        assertFalse(SmpExporter.writeOrWarn(notADirectory, localRun()));
        assertTrue(SmpExporter.writeOrWarn(dir, localRun()));
        assertTrue(Files.isRegularFile(dir.resolve("smp.json")));
    }

    @Test
    @DisplayName("formats label numbers the same on every machine: no exponent, no trailing zeros")
    void plainNumbers() {
        assertEquals("97", SmpExporter.plain(97.0));
        assertEquals("0.0001", SmpExporter.plain(0.0001));
        assertEquals("2.1431", SmpExporter.plain(2.1431));
        assertEquals("0", SmpExporter.plain(0.0));
        assertEquals("12000", SmpExporter.plain(1.2e4));
        assertNull(SmpExporter.wholeCores(7.91));
        assertEquals(8, SmpExporter.wholeCores(8.0));
        assertEquals(0, SmpExporter.megabytes(524_287), "just under half a MiB rounds down");
        assertEquals(1, SmpExporter.megabytes(524_288), "half a MiB rounds up");
    }

    static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
