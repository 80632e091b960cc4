package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.ComponentCpu;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.io.ResultsFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hand-written run in {@code src/test/resources/edge}, with every expected value worked out by hand. */
class ResultsConverterEdgeTest {
    static final Path EDGE = Path.of("src/test/resources/edge");
    static RunResults results;

    @BeforeAll
    static void convert() throws IOException {
        results = ResultsConverter.compute(EDGE);
    }

    @Test
    @DisplayName("measures only the steps that ran, in run order")
    void measuresStepsThatRan() {
        assertEquals(List.of(2, 4), results.clientSteps());
        assertTrue(results.notes().contains("step 8 clients: did not run (no start and end time in run.json)"));
    }

    @Test
    @DisplayName("counts warm-up, late, failed and successful samples of a step separately")
    void countsSamples() {
        StepResult s = results.step(2).orElseThrow();
        assertEquals(1_002_000, s.windowStartEpochMs());
        assertEquals(1_010_000, s.windowEndEpochMs());
        assertEquals(8.0, s.measuredSeconds());
        assertEquals(2, s.warmupSamplesSkipped(), "the samples at 1001000 and 1001999 start in the warm-up");
        assertEquals(1, s.lateSamplesSkipped(), "the sample at 1010000 starts at the step's end");
        assertEquals(6, s.transactions());
        assertEquals(2, s.errors(), "rows with success=false, including quoted multi-line failure messages");
        assertEquals(8, s.samples());
        assertEquals(0.75, s.throughputPerSecond(), "6 transactions in 8 s");
    }

    @Test
    @DisplayName("takes latency from successful samples only, percentiles by nearest rank")
    void latencyOfSuccessfulSamples() {
        LatencyStats l = results.step(2).orElseThrow().latencyMs();
        assertEquals(new LatencyStats(6, 10, 41.667, 30, 100, 100, 100, 100), l,
                "the failed 1 ms and 5000 ms samples are not in the statistics");
    }

    @Test
    @DisplayName("repeats the run's data plane from run.json in the results")
    void carriesDataPlane() {
        DataPlaneInfo plane = results.inputs().dataPlane();
        assertEquals("envoy", plane.name());
        assertEquals(Map.of("sidecar", "envoy 1.40.0", "egress-gateway", "envoy 1.40.0"), plane.versions());
        assertEquals(1, plane.workers());
        assertEquals("BoringSSL", plane.tlsProvider());
        assertEquals("envoy", plane.label());
    }

    @Test
    @DisplayName("reports a step with no samples with zero throughput, no latency and a note")
    void stepWithoutSamples() {
        StepResult s = results.step(4).orElseThrow();
        assertEquals(0, s.samples());
        assertEquals(0.0, s.throughputPerSecond());
        assertNull(s.latencyMs());
        assertNull(s.cpu().mesh().cpuMsPerTransaction(), "no transactions, so no CPU per transaction");
        assertTrue(results.notes().contains("step 4 clients: no samples after warm-up"));
    }

    @Test
    @DisplayName("notes samples without a step and samples of a step that is not measured")
    void notesUnattributedSamples() {
        assertTrue(results.notes().contains("samples.jtl: 1 samples have an empty step column and were skipped "
                + "(setup or teardown samplers?)"), results.notes().toString());
        assertTrue(results.notes().contains("samples.jtl: 1 samples of step 8 clients were skipped: that step is "
                + "not a measured step in run.json"));
        assertTrue(results.notes().contains("samples.jtl: 1 samples of step 16 clients were skipped: that step is "
                + "not a measured step in run.json"));
    }

    @Test
    @DisplayName("sums CPU over a restart, interpolating at the window edges and counting coverage")
    void cpuAcrossRestart() {
        ComponentCpu gw = component(2, "gw");
        assertEquals(ComponentRole.MESH, gw.role());
        assertEquals(700.0, gw.cpuMillis(), "pid 100: 1600 - 1200 (interpolated at 1002000); pid 200: 600 - 300");
        assertEquals(0.875, gw.coverage(), "7 of 8 seconds sampled: the gap between the two processes is not");
        assertEquals(2, gw.processes());
        assertEquals(0.0875, gw.cores());
        assertEquals(116.6667, gw.cpuMsPerTransaction());
        assertNull(gw.maxRssBytes(), "the fixture has no rssBytes column");
        assertTrue(results.notes().contains("step 2 clients: gw restarted (2 processes); CPU summed over them, "
                + "excluding what each used before its first sample"));
        assertTrue(results.notes().contains("step 2 clients: CPU samples of gw cover 88% of the measured window; "
                + "its CPU is undercounted"));
        assertEquals(800.0, component(4, "gw").cpuMillis());
        assertEquals(1.0, component(4, "gw").coverage());
    }

    @Test
    @DisplayName("counts a component that appears late only where it was sampled")
    void componentAppearingLate() {
        ComponentCpu before = component(2, "jmeter");
        assertEquals(0.0, before.cpuMillis());
        assertEquals(0, before.processes());
        assertEquals(0.0, before.coverage());
        ComponentCpu during = component(4, "jmeter");
        assertEquals(600.0, during.cpuMillis());
        assertEquals(0.75, during.coverage());
    }

    @Test
    @DisplayName("adds up CPU per role and divides by the step's transactions")
    void roleTotals() {
        StepResult s = results.step(2).orElseThrow();
        assertEquals(700.0, s.cpu().mesh().cpuMillis());
        assertEquals(1, s.cpu().mesh().components());
        assertEquals(800.0, s.cpu().app().cpuMillis(), "auth runs at 100 ms/s for 8 s");
        assertEquals(133.3333, s.cpu().app().cpuMsPerTransaction());
        assertNull(s.cpu().database(), "no database component was sampled");
        assertEquals(List.of("gw", "auth", "jmeter"),
                s.cpu().components().stream().map(ComponentCpu::component).toList(), "sorted by role (mesh, app, database, load), then name");
    }

    @Test
    @DisplayName("converts a failed run without samples.jtl into results with no steps and a note")
    void failedRunWithoutJtl(@TempDir Path tmp) throws IOException {
        Files.copy(EDGE.resolve("run.json"), tmp.resolve("run.json"));
        RunResults r = ResultsConverter.compute(tmp);
        assertTrue(r.steps().isEmpty());
        assertTrue(r.notes().contains("samples.jtl not found (run failed); no step measured"));
        assertTrue(r.notes().contains("cpu-samples.csv not found; no CPU figures"));
        assertFalse(r.conversion().cpuSamples());
    }

    @Test
    @DisplayName("refuses a passed run without samples.jtl, naming the file")
    void passedRunNeedsJtl(@TempDir Path tmp) throws IOException {
        Files.writeString(tmp.resolve("run.json"), Files.readString(EDGE.resolve("run.json"))
                .replace("\"status\" : \"failed\"", "\"status\" : \"passed\"")
                .replace("\"step of 8 clients: booking did not answer within 30 s\"", "null"));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsConverter.compute(tmp));
        assertEquals(tmp.resolve("samples.jtl") + ": file not found", e.getMessage());
    }

    private static ComponentCpu component(int clients, String name) {
        return results.step(clients).orElseThrow().cpu().components().stream()
                .filter(c -> c.component().equals(name)).findFirst().orElseThrow();
    }
}
