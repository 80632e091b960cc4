package dev.meshbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterInfoTest {
    static final long GIB = 1L << 30;
    static final ClusterNode BIG_A = new ClusterNode("worker-a", 8, 32 * GIB, "m6i.2xlarge");
    static final ClusterNode BIG_B = new ClusterNode("worker-b", 8, 32 * GIB, "m6i.2xlarge");
    static final ClusterNode SMALL = new ClusterNode("control-plane", 3.9, 7_800_000_000L, null);
    static final ClusterInfo CLUSTER = new ClusterInfo("v1.31.4", "1.28.0", List.of(BIG_B, SMALL, BIG_A));

    static RunInputs starting(TargetKind target) {
        return RunInputs.starting("r1", "sni", target, List.of(1, 5), 300, 60, 0, 100,
                new KitVersions("0.1.0", "17.0.15", "5.6.3"), new Machine(2, 1L << 34, "Linux"),
                Instant.parse("2026-11-20T09:00:00Z"));
    }

    @Test
    @DisplayName("summarises a cluster in one line: versions, then the nodes grouped by size, most numerous first")
    void summary() {
        assertEquals("Kubernetes v1.31.4, Istio 1.28.0, 3 nodes (2 × 8 CPU / 32 GiB, 1 × 3.9 CPU / 7.3 GiB)",
                CLUSTER.summary());
        assertEquals("Kubernetes v1.30.5+k3s1, Istio not recorded, 1 node (1 × 3.9 CPU / 7.3 GiB)",
                new ClusterInfo("v1.30.5+k3s1", null, List.of(SMALL)).summary());
        assertEquals("Kubernetes v1.31.4, Istio 1.28.0, 3 nodes (3 × 8 CPU / 32 GiB)",
                new ClusterInfo("v1.31.4", "1.28.0", List.of(BIG_A, BIG_B,
                        new ClusterNode("worker-c", 8, 32 * GIB, null))).summary());
        assertEquals("7.91 CPU / 30.9 GiB", new ClusterNode("n", 7.91, 33_176_207_360L, null).sizeText());
    }

    @Test
    @DisplayName("writes sizes with decimal points whatever the default locale")
    void summaryIgnoresLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("de-DE"));
            assertEquals("3.9 CPU / 7.3 GiB", SMALL.sizeText());
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    @DisplayName("keeps the nodes sorted by name, whatever order the API listed them in")
    void nodesSortedByName() {
        assertEquals(List.of("control-plane", "worker-a", "worker-b"),
                CLUSTER.nodes().stream().map(ClusterNode::name).toList());
    }

    @Test
    @DisplayName("rejects a cluster or node that breaks the rules, naming field, value and rule")
    void validation() {
        List<ClusterNode> nodes = List.of(BIG_A);
        assertEquals("cluster.kubernetesVersion (\"1.31.4\") must be the API server's version, such as v1.31.4",
                invalid(() -> new ClusterInfo("1.31.4", "1.28.0", nodes)));
        assertEquals("cluster.kubernetesVersion (null) must not be blank",
                invalid(() -> new ClusterInfo(null, "1.28.0", nodes)));
        assertEquals("cluster.istioVersion (\" \") must not be blank",
                invalid(() -> new ClusterInfo("v1.31.4", " ", nodes)));
        assertEquals("cluster.nodes is missing", invalid(() -> new ClusterInfo("v1.31.4", "1.28.0", null)));
        assertEquals("cluster.nodes must list at least one node",
                invalid(() -> new ClusterInfo("v1.31.4", "1.28.0", List.of())));
        assertEquals("cluster.nodes: node \"worker-a\" appears twice",
                invalid(() -> new ClusterInfo("v1.31.4", "1.28.0", List.of(BIG_A, BIG_A))));
        assertEquals("cluster.nodes[].name (\"\") must not be blank", invalid(() -> new ClusterNode("", 8, GIB, null)));
        assertEquals("cluster.nodes[n].allocatableCpuCores (0.0) must be a finite number > 0",
                invalid(() -> new ClusterNode("n", 0, GIB, null)));
        assertEquals("cluster.nodes[n].allocatableCpuCores (NaN) must be a finite number > 0",
                invalid(() -> new ClusterNode("n", Double.NaN, GIB, null)));
        assertEquals("cluster.nodes[n].allocatableMemoryBytes (0) must be positive",
                invalid(() -> new ClusterNode("n", 8, 0, null)));
        assertEquals("cluster.nodes[n].instanceType (\"\") must not be blank",
                invalid(() -> new ClusterNode("n", 8, GIB, "")));
    }

    @Test
    @DisplayName("allows a cluster only on the kubernetes target, and says so")
    void clusterOnlyOnKubernetes() {
        assertNull(starting(TargetKind.KUBERNETES).cluster(), "not recorded until the orchestrator reads it");
        assertEquals("cluster is only allowed when target is kubernetes, not local (the local target runs on no "
                + "cluster)", invalid(() -> starting(TargetKind.LOCAL).withCluster(CLUSTER)));
        assertEquals("cluster is missing", invalid(() -> starting(TargetKind.KUBERNETES).withCluster(null)));
    }

    @Test
    @DisplayName("keeps the cluster through every later change of the inputs, and reads it back from run.json")
    void everyChangeKeepsTheCluster(@TempDir Path tmp) throws IOException {
        RunInputs in = starting(TargetKind.KUBERNETES).withCluster(CLUSTER);
        assertEquals(CLUSTER, in.withDataPlane(DataPlaneInfo.unknownNetty()).cluster(), "withDataPlane");
        assertEquals(CLUSTER, in.withWorkload(WorkloadInfo.ORIGINAL).cluster(), "withWorkload");
        assertEquals(CLUSTER, in.withStep(in.step(1).started(1000)).cluster(), "withStep");
        assertEquals(CLUSTER, in.passed().cluster(), "passed");
        assertEquals(CLUSTER, in.failed("step of 5 clients: JMeter exited with code 1").cluster(), "failed");
        Path file = tmp.resolve("run.json");
        ResultsJson.writeRunInputs(file, in);
        assertEquals(in, ResultsJson.readRunInputs(file));
    }

    private static String invalid(org.junit.jupiter.api.function.Executable e) {
        return assertThrows(IllegalArgumentException.class, e).getMessage();
    }
}
