package dev.meshbench.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.RunResults;
import dev.meshbench.results.stats.RegressionGate.Key;
import dev.meshbench.results.stats.RegressionGate.Metric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate's input read from results files: the golden fixtures of results-schema/src/test/resources/runs. */
class GateCellsTest {
    private static final Path RUNS = Path.of("src/test/resources/runs");

    @TempDir
    Path dir;

    /** A Jenkins-like artifact folder: baseline/results/(run)/results.json, a few levels down. */
    private Path copy(String run, String as, boolean failed) throws IOException {
        Path to = Files.createDirectories(dir.resolve("baseline/results").resolve(as)).resolve("results.json");
        String json = Files.readString(RUNS.resolve(run).resolve("results.golden.json"));
        if (failed) {
            json = json.replace("\"status\" : \"passed\"", "\"status\" : \"failed\"")
                    .replace("\"failureReason\" : null", "\"failureReason\" : \"component died\"");
        }
        return Files.writeString(to, json);
    }

    @Test
    @DisplayName("one value per passed run for throughput, p99 and mesh CPU per transaction; failed runs add none")
    void cells() throws IOException {
        copy("sni-1", "a-sni", false);
        copy("sni-1", "b-sni", false);
        copy("sni-1", "c-sni", true);
        copy("bypass-1", "d-bypass", false);
        List<RunResults> runs = GateCells.read(dir.resolve("baseline"), "meshbench.baseline");
        assertEquals(4, runs.size());
        Map<Key, List<Double>> cells = GateCells.of(runs);
        // sni-1 at 20 clients: 66.578 tx/s, p99 97 ms, mesh 3.8254 ms/tx; twice (the failed copy is left out)
        assertEquals(List.of(66.578, 66.578), cells.get(new Key("sni", 20, Metric.THROUGHPUT)));
        assertEquals(List.of(97.0, 97.0), cells.get(new Key("sni", 20, Metric.P99)));
        assertEquals(List.of(3.8254, 3.8254), cells.get(new Key("sni", 20, Metric.MESH_CPU_PER_TX)));
        assertEquals(List.of(74.394), cells.get(new Key("bypass", 20, Metric.THROUGHPUT)));
        // 5 steps x 3 metrics x 2 cases
        assertEquals(30, cells.size());
    }

    @Test
    @DisplayName("pointed at one request type: its throughput and P99 (sni-1's queryflight at 20 clients), the step's mesh CPU")
    void oneLabel() throws IOException {
        copy("sni-1", "a-sni", false);
        copy("sni-1", "b-sni", false);
        List<RunResults> runs = GateCells.read(dir.resolve("baseline"), "meshbench.baseline");
        Map<Key, List<Double>> cells = GateCells.of(runs, java.util.Optional.of("queryflight"));
        assertEquals(List.of(28.296, 28.296), cells.get(new Key("sni", 20, Metric.THROUGHPUT)));
        assertEquals(List.of(353.0, 353.0), cells.get(new Key("sni", 20, Metric.P99)));
        assertEquals(List.of(3.8254, 3.8254), cells.get(new Key("sni", 20, Metric.MESH_CPU_PER_TX)));
        Map<Key, List<Double>> none = GateCells.of(runs, java.util.Optional.of("nosuchrequest"));
        assertEquals(null, none.get(new Key("sni", 20, Metric.P99)), "a label no step has gives no latency cell");
        assertEquals(List.of(3.8254, 3.8254), none.get(new Key("sni", 20, Metric.MESH_CPU_PER_TX)));
    }

    @Test
    @DisplayName("a calibration run (it set a sitting's rate) adds no cell: its bypass is a closed loop, not the case's measurement")
    void calibrationRunsAreLeftOut() throws IOException {
        Path calibration = copy("bypass-1", "e-calibration-bypass", false);
        Files.writeString(calibration, Files.readString(calibration).replace("\"status\" : \"passed\"",
                "\"measurement\" : {\"saturationThresholdPercent\" : 90, \"calibrationRun\" : true}, \"status\" : \"passed\""));
        copy("bypass-1", "f-bypass", false);
        Map<Key, List<Double>> cells = GateCells.of(GateCells.read(dir.resolve("baseline"), "meshbench.baseline"));
        assertEquals(List.of(74.394), cells.get(new Key("bypass", 20, Metric.THROUGHPUT)), "the measured bypass only");
    }

    @Test
    @DisplayName("runs are comparable by target, data plane and workload")
    void comparable() throws IOException {
        RunResults netty = GateCells.read(copy("sni-1", "x", false), "p").get(0);
        RunResults envoy = GateCells.read(copy("sni-envoy-1", "y", false), "p").get(0);
        assertTrue(GateCells.comparableAs(netty).startsWith("local / netty"), GateCells.comparableAs(netty));
        assertFalse(GateCells.comparableAs(netty).equals(GateCells.comparableAs(envoy)));
    }

    @Test
    @DisplayName("a missing path, a folder without results and a file that is not results are refused, naming the property")
    void refused() throws IOException {
        String missing = assertThrows(IllegalArgumentException.class,
                () -> GateCells.read(dir.resolve("nope"), "meshbench.baseline")).getMessage();
        assertTrue(missing.startsWith("meshbench.baseline=") && missing.endsWith("no such file or folder"), missing);
        Files.createDirectories(dir.resolve("empty"));
        String empty = assertThrows(IllegalArgumentException.class,
                () -> GateCells.read(dir.resolve("empty"), "meshbench.baseline")).getMessage();
        assertTrue(empty.contains("holds no results.json"), empty);
        Path bad = Files.writeString(Files.createDirectories(dir.resolve("bad/run")).resolve("results.json"), "{\"x\": 1}");
        String notResults = assertThrows(IllegalArgumentException.class,
                () -> GateCells.read(dir.resolve("bad"), "meshbench.baseline")).getMessage();
        assertTrue(notResults.contains(bad + " is not a results file"), notResults);
    }
}
