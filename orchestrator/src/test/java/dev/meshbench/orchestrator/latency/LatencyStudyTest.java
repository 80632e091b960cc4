package dev.meshbench.orchestrator.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The latency study checks every property before anything starts ({@link LatencyStudy#prepare}); each bad one is
 * refused naming the property. The graphs are the checkout's shipped ones ({@code istio-config/latency/graphs}). No
 * cell is deployed here.
 */
class LatencyStudyTest {
    /** The checkout: the orchestrator module's parent folder, where surefire runs the tests from the module. */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @TempDir
    Path tmp;

    private String failure(String... kv) {
        Map<String, String> user = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            user.put(kv[i], kv[i + 1]);
        }
        user.put("meshbench.resultsDir", tmp.resolve("results").toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LatencyStudy.prepare(user, ROOT, "test",
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream())));
        assertFalse(Files.exists(tmp.resolve("results")), "nothing written before the properties are checked");
        return e.getMessage();
    }

    @Test
    @DisplayName("an unknown target is named with the allowed ones")
    void badTarget() {
        assertEquals("meshbench.target=k8s: must be one of local, kubernetes", failure("meshbench.target", "k8s"));
    }

    @Test
    @DisplayName("a graph name that is not shipped lists the shipped ones")
    void unknownGraph() {
        assertEquals("meshbench.latency.graphs: no shipped graph named 'triple' (shipped: double, single; or give the path of a .yaml file)",
                failure("meshbench.latency.graphs", "triple"));
    }

    @Test
    @DisplayName("a graph file that does not exist is named")
    void missingGraphFile() {
        Path file = tmp.resolve("mine.yaml");
        assertEquals("meshbench.latency.graphs: no graph file " + file, failure("meshbench.latency.graphs", file.toString()));
    }

    @Test
    @DisplayName("two graphs with one name (a shipped one and a file of that name) are refused")
    void twoGraphsOneName() throws Exception {
        Path copy = Files.createDirectories(tmp.resolve("copy")).resolve("single.yaml");
        Files.copy(ROOT.resolve("istio-config/latency/graphs/single.yaml"), copy);
        String value = "single," + copy;
        assertEquals("meshbench.latency.graphs=" + value + ": two graphs are named single", failure("meshbench.latency.graphs", value));
    }

    @Test
    @DisplayName("a cell selection that is not graph/scale/ingress/sidecar, or matches nothing, names the property")
    void badCells() {
        assertTrue(failure("meshbench.latency.cells", "single/1").startsWith(
                "meshbench.latency.cells=single/1: 'single/1' is not <graph>/<scale>/<ingress>/<sidecar>"));
        assertEquals("meshbench.latency.cells=single/1/edge/*: ingress 'edge' must be none, gateway or *",
                failure("meshbench.latency.cells", "single/1/edge/*"));
        assertTrue(failure("meshbench.latency.cells", "single/99/*/*").startsWith(
                "meshbench.latency.cells=single/99/*/*: 'single/99/*/*' matches no cell; cells are "));
    }

    @Test
    @DisplayName("a load fraction outside (0, 1] is named with an example")
    void badLoadFraction() {
        assertEquals("meshbench.latency.loadFraction=1.5: must be above 0 and at most 1; give a fraction such as 0.75",
                failure("meshbench.latency.loadFraction", "1.5"));
    }

    @Test
    @DisplayName("a stable warm-up whose cap is shorter than the windows its rule needs is refused, naming the cap")
    void stableWarmUpNeedsItsWindows() {
        assertEquals("meshbench.latency.warmupSeconds=10: is the cap of the warm-up with meshbench.latency.warmup=stable, which judges "
                + "4 windows of 10 s: give 40 or more (120 lets a cold JVM warm)", failure("meshbench.latency.warmupSeconds", "10"));
    }

    @Test
    @DisplayName("a method other than switched or fresh is named")
    void badMethod() {
        assertEquals("meshbench.latency.method=warm: must be one of switched, fresh", failure("meshbench.latency.method", "warm"));
    }

    @Test
    @DisplayName("locally, a CPU set for the load generator is refused: the generator runs inside the kit's JVM")
    void loadgenCpuSetRefused() {
        assertTrue(failure("meshbench.cpus.loadgen", "0").startsWith("meshbench.cpus.loadgen=0: the latency study's generator runs "
                + "inside the kit's JVM"));
    }

    @Test
    @DisplayName("locally, a bad data plane or worker count is named")
    void badMeshLocally() {
        assertEquals("meshbench.dataplane=istio: must be one of auto, envoy, netty", failure("meshbench.dataplane", "istio"));
        assertEquals("meshbench.proxyWorkers=0: must be between 1 and 64 worker threads per proxy", failure("meshbench.proxyWorkers", "0"));
    }

    @Test
    @DisplayName("on a cluster, local-only settings (data plane, workers, CPU sets) are refused, naming the property")
    void localOnlySettingsOnACluster() {
        assertTrue(failure("meshbench.target", "kubernetes", "meshbench.dataplane", "envoy")
                .startsWith("meshbench.dataplane=envoy: on a cluster the data plane is Istio's"));
        assertTrue(failure("meshbench.target", "kubernetes", "meshbench.proxyWorkers", "4")
                .startsWith("meshbench.proxyWorkers=4: on a cluster Istio sets its proxies' concurrency"));
        assertTrue(failure("meshbench.target", "kubernetes", "meshbench.cpus.mesh", "0")
                .startsWith("meshbench.cpus.mesh=0: CPU sets are for the local target"));
    }
}
