package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.orchestrator.latency.GraphFiles;
import dev.meshbench.orchestrator.latency.LatencyCell;
import dev.meshbench.orchestrator.latency.LatencyPlanner;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.results.WorkloadInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The latency study's cells switched underneath one running deployment of the {@code double} graph, as real processes
 * on loopback: after each switch every request through the cell's client targets answers, the replicas, sidecars and
 * ingress are exactly the cell's, components the cell leaves as they were are the same processes (warm), a caller
 * whose callees moved is a new one, and the cell's results can say what changed.
 */
class SwitchedCellsIT {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final List<LatencyCell> CELLS = List.of(new LatencyCell("double", 1, false, false),
            new LatencyCell("double", 1, false, true), new LatencyCell("double", 1, true, true), new LatencyCell("double", 5, true, true),
            new LatencyCell("double", 5, true, false), new LatencyCell("double", 1, false, false));

    @TempDir
    Path logs;

    @AfterEach
    void nothingLeftRunning() throws InterruptedException {
        ChildProcesses.assertNoneLeft();
    }

    private static Map<String, Long> pids(LocalDeployment d) {
        return d.sampleResources().stream().collect(Collectors.toMap(s -> s.component().name(), ResourceSample::pid, (a, b) -> a, TreeMap::new));
    }

    @ParameterizedTest(name = "{0}: latency cells applied to one running deployment, unchanged components kept warm")
    @EnumSource(DataPlane.class)
    void cellsSwitchUnderneathOneDeployment(DataPlane plane) throws Exception {
        LocalDataPlane dp = DataPlanes.of(plane, true);
        PlanOptions mesh = dp.options();
        GraphFiles.Graph g = GraphFiles.resolve("double", ROOT);
        List<TopologyPlan> plans = CELLS.stream().distinct().map(c -> LatencyPlanner.plan(c, g.shape(), mesh)).toList();
        LocalTargetSettings settings = new LocalTargetSettings(ComponentJars.inBuildTree(ROOT), Duration.ofSeconds(90), 1, 1, dp,
                WorkloadInfo.ORIGINAL);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        try (LocalDeployment d = LocalDeployment.startCells(plans, new LocalDeployment.GraphNodes(g.shape(), g.file()), settings, logs)) {
            assertTrue(d.appliedOver().isEmpty(), "the first cell was deployed for itself");
            LatencyCell previous = CELLS.get(0);
            Map<String, Long> before = pids(d);
            for (LatencyCell cell : CELLS.subList(1, CELLS.size())) {
                LocalDeployment.Changes ch = d.applyCell(cell.id());
                Map<String, Long> now = pids(d);
                // exactly the cell's components run
                TopologyPlan plan = LatencyPlanner.plan(cell, g.shape(), mesh);
                assertEquals(plan.components().stream().map(c -> c.name()).sorted().toList(), List.copyOf(now.keySet()), cell.id());
                assertEquals(cell.ingress(), now.keySet().stream().anyMatch(n -> n.startsWith("ingress-gateway-")), cell.id() + ": " + now.keySet());
                assertEquals(cell.sidecar(), now.keySet().stream().anyMatch(n -> n.startsWith("sidecar-")), cell.id() + ": " + now.keySet());
                // what the cell left as it was is the same process; what it restarted is not
                for (Map.Entry<String, Long> e : now.entrySet()) {
                    if (!before.containsKey(e.getKey())) {
                        continue;
                    }
                    boolean restarted = ch.done().stream().anyMatch(x -> x.startsWith("restarted " + e.getKey() + " "));
                    if (restarted) {
                        assertNotEquals(before.get(e.getKey()), e.getValue(), cell.id() + ": " + e.getKey() + " restarted: " + ch.done());
                    } else {
                        assertEquals(before.get(e.getKey()), e.getValue(), cell.id() + ": " + e.getKey() + " kept: " + ch.done());
                    }
                }
                // the callee has no calls: no cell restarts it; the caller is restarted when the addresses it calls move: when
                // sidecars come or go, or when the callee's replicas change without a sidecar (with one, the caller calls its own
                // sidecar, which takes the new replicas live)
                assertEquals(before.get("go-sample-dependency-1"), now.get("go-sample-dependency-1"), cell.id() + ": " + ch.done());
                boolean calleesMoved = previous.sidecar() != cell.sidecar() || !cell.sidecar() && previous.scale() != cell.scale();
                assertEquals(calleesMoved, ch.done().contains("restarted go-sample-1 (its callees changed)"), cell.id() + ": " + ch.done());
                assertEquals(calleesMoved, ch.cold().contains("go-sample-1"), cell.id() + ": " + ch.cold());
                assertTrue(d.appliedOver().orElseThrow().startsWith("applied to the deployment that ran cell " + previous.id()),
                        d.appliedOver().toString());
                // every client target answers through the whole path
                List<URI> targets = d.targets();
                assertEquals(cell.scale(), targets.size(), cell.id() + ": " + targets);
                for (URI t : targets) {
                    for (int i = 0; i < 5; i++) {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(t).timeout(Duration.ofSeconds(5)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        assertEquals(200, r.statusCode(), cell.id() + " " + t + ": " + r.body());
                    }
                }
                previous = cell;
                before = now;
            }
            assertThrows(IllegalArgumentException.class, () -> d.applyCell("single/1/none/none"),
                    "a cell the deployment was not prepared for is refused");
            assertThrows(IllegalStateException.class, () -> d.apply(dev.meshbench.model.EgressCase.SNI),
                    "a graph's deployment has no egress case");
        }
    }
}
