package dev.meshbench.results.smp;

import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.ClusterNode;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.smp.SmpDocument.ApplicationMetadata;
import dev.meshbench.results.smp.SmpDocument.Client;
import dev.meshbench.results.smp.SmpDocument.EnvironmentConfig;
import dev.meshbench.results.smp.SmpDocument.Latency;
import dev.meshbench.results.smp.SmpDocument.Node;
import dev.meshbench.results.smp.SmpDocument.PerformanceTestConfig;
import dev.meshbench.results.smp.SmpDocument.PerformanceTestResult;
import dev.meshbench.results.smp.SmpDocument.ServiceMesh;
import dev.meshbench.results.smp.SmpDocument.ServiceMeshConfig;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exports a run's results in the Service Mesh Performance (SMP) format ({@link SmpDocument}): one performance test
 * config and one result per measured step, since a step (a fixed number of clients for a fixed time) is what a
 * Meshery performance test is; the run's mesh and environment are one message each, named by every result.
 * A pure function of {@code results.json} plus a writer; values the kit does not know are left out.
 */
public final class SmpExporter {
    /** The SMP release whose protos {@link SmpDocument} follows. */
    public static final String SMP_VERSION = "v0.6.1";
    /** Prefix of every label key the kit writes, in the style of Kubernetes label keys. */
    public static final String LABEL_PREFIX = "meshbench.dev/";
    /** The application every run drives. */
    static final String APPLICATION = "acmeair";
    static final String LOAD_GENERATOR = "jmeter";

    private static final Logger LOG = LoggerFactory.getLogger(SmpExporter.class);
    private static final double BYTES_PER_MB = 1024 * 1024;

    private SmpExporter() {
    }

    /** The SMP document of {@code results}. */
    public static SmpDocument export(RunResults results) {
        RunInputs in = results.inputs();
        String envId = in.runId() + "-environment";
        String meshId = in.runId() + "-mesh";
        List<PerformanceTestConfig> configs = new ArrayList<>();
        List<PerformanceTestResult> runs = new ArrayList<>();
        for (StepResult step : results.steps()) {
            String testId = in.runId() + "-" + step.clients() + "-clients";
            configs.add(testConfig(in, step, testId));
            runs.add(testResult(in, step, testId, meshId, envId));
        }
        return new SmpDocument(environment(in, envId), meshConfig(in, meshId), configs, runs);
    }

    /** The text of {@code smp.json} for {@code results}: indented, byte-stable, newline at the end. */
    public static String toJson(RunResults results) {
        return ResultsJson.toJson(export(results));
    }

    /** Writes {@code smp.json} into {@code runDir} (atomically, as {@code results.json} is written). */
    public static Path write(Path runDir, RunResults results) throws IOException {
        Path file = runDir.resolve(ResultsSchema.SMP_FILE);
        ResultsJson.writeJson(file, export(results));
        return file;
    }

    /**
     * Writes {@code smp.json} into {@code runDir}; a failure is logged as a warning, never thrown: the export is a
     * courtesy to other tools and must not fail a run whose {@code results.json} is written.
     *
     * @return whether the file was written
     */
    public static boolean writeOrWarn(Path runDir, RunResults results) {
        try {
            write(runDir, results);
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warn("writing {} of run {} in {} failed: {}", ResultsSchema.SMP_FILE, results.inputs().runId(),
                    runDir, e.toString());
            return false;
        }
    }

    private static EnvironmentConfig environment(RunInputs in, String id) {
        Map<String, String> labels = labels();
        labels.put(LABEL_PREFIX + "target", in.target().id());
        return switch (in.target()) {
            case LOCAL -> {
                // the one machine that ran every component and the load
                Machine m = in.machine();
                labels.put(LABEL_PREFIX + "os", m.os());
                yield new EnvironmentConfig(SMP_VERSION, id, labels, null,
                        List.of(new Node(null, m.cores(), megabytes(m.memoryBytes()))));
            }
            case KUBERNETES -> {
                ClusterInfo cluster = in.cluster();
                if (cluster == null) {
                    yield new EnvironmentConfig(SMP_VERSION, id, labels, null, List.of());
                }
                labels.put(LABEL_PREFIX + "cluster", cluster.summary());
                List<Node> nodes = new ArrayList<>();
                for (ClusterNode n : cluster.nodes()) {
                    nodes.add(new Node(n.instanceType(), wholeCores(n.allocatableCpuCores()),
                            megabytes(n.allocatableMemoryBytes())));
                }
                yield new EnvironmentConfig(SMP_VERSION, id, labels, cluster.kubernetesVersion(), nodes);
            }
        };
    }

    private static ServiceMeshConfig meshConfig(RunInputs in, String id) {
        Map<String, String> labels = labels();
        labels.put(LABEL_PREFIX + "egress-case", in.caseId());
        DataPlaneInfo plane = in.dataPlane();
        Map<String, String> meshLabels = labels();
        if (plane != null) {
            labels.put(LABEL_PREFIX + "data-plane", plane.name());
            meshLabels.put(LABEL_PREFIX + "data-plane", plane.name());
            plane.versions().forEach((kind, version) -> labels.put(LABEL_PREFIX + kind + "-version", version));
            // SMP has no field for whether the load came through the ingress gateway (its profile ingress_only names
            // a test of the gateway alone): a label, like the TLS provider
            labels.put(LABEL_PREFIX + "ingress", Boolean.toString(plane.ingress()));
            if (plane.tlsProvider() != null) {
                labels.put(LABEL_PREFIX + "tls-provider", plane.tlsProvider());
            }
        }
        if (in.workload() != null) {
            labels.put(LABEL_PREFIX + "workload", in.workload().mix());
        }
        String istio = in.cluster() == null ? null : in.cluster().istioVersion();
        ServiceMesh mesh = switch (in.target()) {
            case KUBERNETES -> new ServiceMesh("ISTIO", istio, meshLabels);
            // The local data planes are no mesh of ServiceMesh.Type (no control plane): the type stays unset
            // (INVALID_MESH, proto3's default), the labels name the data plane.
            case LOCAL -> new ServiceMesh(null, null, meshLabels);
        };
        return new ServiceMeshConfig(SMP_VERSION, id, labels,
                plane == null ? null : plane.sidecarMtls(),
                plane == null ? null : plane.workers(),
                istio,
                plane == null ? null : plane.versions().get("sidecar"),
                mesh,
                new ApplicationMetadata(APPLICATION, in.versions().kit(), "PROTOCOL_HTTP"));
    }

    private static PerformanceTestConfig testConfig(RunInputs in, StepResult step, String id) {
        Map<String, String> labels = common(in);
        labels.put(LABEL_PREFIX + "warmup-seconds", Integer.toString(in.warmupSeconds()));
        labels.put(LABEL_PREFIX + "think-time-ms", Integer.toString(in.thinkTimeMs()));
        labels.put(LABEL_PREFIX + "jmeter-version", in.versions().jmeter());
        return new PerformanceTestConfig(SMP_VERSION, id, in.runId() + ": " + step.clients() + " clients", labels,
                List.of(new Client(LOAD_GENERATOR, "PROTOCOL_HTTP", step.clients(),
                        // SMP's rps is whole requests per second: a fixed-rate step's target, none for a closed loop
                        step.rate() == null ? null : Math.round(step.rate().targetPerSecond()))), in.stepSeconds() + "s");
    }

    private static PerformanceTestResult testResult(RunInputs in, StepResult step, String testId, String meshId,
            String envId) {
        Map<String, String> labels = common(in);
        labels.put(LABEL_PREFIX + "run-status", in.status().id());
        labels.put(LABEL_PREFIX + "clients", Integer.toString(step.clients()));
        labels.put(LABEL_PREFIX + "transactions", Long.toString(step.transactions()));
        labels.put(LABEL_PREFIX + "errors", Long.toString(step.errors()));
        LatencyStats l = step.latencyMs();
        Latency latency = null;
        if (l != null) {
            latency = new Latency(l.min(), l.avg(), l.median(), l.p90(), l.p99(), l.max());
            labels.put(LABEL_PREFIX + "latency-p95-ms", Long.toString(l.p95()));
        }
        if (step.cpu() != null) {
            perTransaction(labels, "mesh", step.cpu().mesh());
            perTransaction(labels, "app", step.cpu().app());
        }
        if (step.host() != null) {
            labels.put(LABEL_PREFIX + "host-busy-percent", plain(step.host().busyPercent()));
            labels.put(LABEL_PREFIX + "saturated", Boolean.toString(step.host().saturated()));
        }
        if (step.drift() != null) {
            labels.put(LABEL_PREFIX + "steady", Boolean.toString(step.drift().steady()));
        }
        return new PerformanceTestResult(SMP_VERSION, testId + "-result", labels,
                timestamp(step.windowStartEpochMs()), timestamp(step.windowEndEpochMs()), latency,
                step.throughputPerSecond(), testId, meshId, envId);
    }

    /** Labels every test config and result carries, so each reads alone: run, case, data plane, target. */
    private static Map<String, String> common(RunInputs in) {
        Map<String, String> labels = labels();
        labels.put(LABEL_PREFIX + "run-id", in.runId());
        labels.put(LABEL_PREFIX + "egress-case", in.caseId());
        if (in.dataPlane() != null) {
            labels.put(LABEL_PREFIX + "data-plane", in.dataPlane().name());
        }
        labels.put(LABEL_PREFIX + "target", in.target().id());
        return labels;
    }

    private static void perTransaction(Map<String, String> labels, String role, RoleCpu cpu) {
        if (cpu != null && cpu.cpuMsPerTransaction() != null) {
            labels.put(LABEL_PREFIX + role + "-cpu-ms-per-tx", plain(cpu.cpuMsPerTransaction()));
        }
    }

    private static Map<String, String> labels() {
        return new LinkedHashMap<>();
    }

    /** RFC 3339 in UTC, as the proto3 JSON mapping writes a {@code google.protobuf.Timestamp}. */
    static String timestamp(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }

    /** SMP's {@code mem_mb}, read as mebibytes (2^20 bytes), rounded to the nearest. */
    static long megabytes(long bytes) {
        return Math.round(bytes / BYTES_PER_MB);
    }

    /** SMP's {@code cores} is a whole number: a node's allocatable CPU only when it is one, else unknown. */
    static Integer wholeCores(double cores) {
        return cores == Math.rint(cores) && cores <= Integer.MAX_VALUE ? (int) cores : null;
    }

    /** A number as label text, the same on every machine and locale: {@code 2.1431}, {@code 97}, {@code 0.5}. */
    static String plain(double value) {
        BigDecimal d = BigDecimal.valueOf(value).stripTrailingZeros();
        return d.signum() == 0 ? "0" : d.toPlainString();
    }
}
