package dev.meshbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.io.ResultsFormatException;
import dev.meshbench.results.io.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyCellResultsTest {
    static LoadPhase phase(Double target, double rate, boolean behind) {
        return new LoadPhase(64, 30, (long) (rate * 30), Map.of("http-503", 2L), target, rate, 0.6, 1.1, 2.7, 5.0, 9.5, 0.7,
                behind ? 120 : 0, behind ? 210.5 : 0.4, 0, behind, behind ? "120 of 48000 requests sent late" : null,
                target == null ? null : new LoadPhase.ServiceTime(0.5, 0.9, 2.1, 4.2), null);
    }

    static LatencyCellResults cell(String id, RunStatus status, LoadPhase max, LoadPhase fixed) {
        String[] p = id.split("/");
        return new LatencyCellResults(ResultsSchema.VERSION, ResultsSchema.LATENCY_KIND, "20261123T060000-" + id.replace('/', '-') + "-netty", id,
                p[0], Integer.parseInt(p[1]), p[2].equals("gateway"), p[3].equals("sidecar"), TargetKind.LOCAL,
                DataPlaneInfo.unknownNetty().withIngress(p[2].equals("gateway")),
                new Machine(2, 1L << 34, "Linux"), "0.1.0", "17", "meshbench open-loop generator", "2026-11-23T06:00:00Z", status,
                status == RunStatus.FAILED ? "sidecar-a-1 exited with 1" : null, Map.of("meshbench.dataplane", "netty"), max, 0.75, fixed,
                Map.of("mesh", 0.4, "app", 0.9), List.of());
    }

    @Test
    void roundTripsThroughJson(@TempDir Path dir) throws Exception {
        LatencyCellResults r = cell("single/1/none/sidecar", RunStatus.PASSED, phase(null, 6400, false), phase(4800.0, 4790, true));
        Path file = dir.resolve(ResultsSchema.LATENCY_FILE);
        ResultsJson.writeJson(file, r);
        String json = Files.readString(file);
        assertTrue(json.contains("\"kind\" : \"latency-cell\""), json);
        assertTrue(json.contains("\"fellBehindReason\" : \"120 of 48000 requests sent late\""), json);
        assertEquals(r, ResultsJson.readLatency(file));
        assertEquals(2, r.atFraction().errorCount());
        assertTrue(r.atFraction().openLoop());
        assertEquals(new LoadPhase.ServiceTime(0.5, 0.9, 2.1, 4.2), ResultsJson.readLatency(file).atFraction().serviceTime());
        assertEquals(1, json.split("\"serviceTime\"", -1).length - 1, "only the open loop has a service time: " + json);
    }

    @Test
    void aFileWrittenBeforeServiceTimesStillReads(@TempDir Path dir) throws Exception {
        LatencyCellResults r = cell("single/1/none/none", RunStatus.PASSED, phase(null, 6400, false), phase(4800.0, 4790, false));
        Path file = dir.resolve(ResultsSchema.LATENCY_FILE);
        ResultsJson.writeJson(file, r);
        String older = Files.readString(file).replaceAll("(?s),\\s*\"serviceTime\" : \\{[^}]*\\}", "");
        assertTrue(!older.contains("serviceTime"), older);
        Files.writeString(file, older);

        LatencyCellResults read = ResultsJson.readLatency(file);

        assertEquals(null, read.atFraction().serviceTime());
        assertEquals(r.atFraction().p99(), read.atFraction().p99());
    }

    @Test
    @DisplayName("reads a version 4 latency.json with the cell's own ingress in its data plane")
    void aVersion4FileReadsWithTheCellsIngress(@TempDir Path dir) throws Exception {
        LatencyCellResults r = cell("single/1/gateway/sidecar", RunStatus.PASSED, phase(null, 6400, false), phase(4800.0, 4790, false));
        Path file = dir.resolve(ResultsSchema.LATENCY_FILE);
        ResultsJson.writeJson(file, r);
        String v5 = Files.readString(file);
        String v4 = v5.replace("\"schemaVersion\" : \"" + ResultsSchema.VERSION + "\"", "\"schemaVersion\" : \"4\"")
                .replace("\n    \"ingress\" : true,", "");
        assertTrue(v4.contains("\"schemaVersion\" : \"4\"") && v4.split("\"ingress\"", -1).length == 2,
                "a version 4 file: the cell's ingress only, none in the data plane: " + v4);
        Files.writeString(file, v4);

        LatencyCellResults read = ResultsJson.readLatency(file);

        assertTrue(read.dataPlane().ingress(), "the gateway cell's data plane had the ingress gateway");
        assertEquals(r, read);
    }

    @Test
    void refusesInconsistentDocuments() {
        LoadPhase max = phase(null, 100, false);
        assertThrows(IllegalArgumentException.class, () -> new LatencyCellResults(ResultsSchema.VERSION, "run", "r", "single/1/none/none", "single",
                1, false, false, TargetKind.LOCAL, DataPlaneInfo.unknownNetty(), new Machine(2, 1, "L"), "k", "17", "g", "t", RunStatus.PASSED,
                null, Map.of(), max, 0.75, max, Map.of(), List.of()), "another kind");
        IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class, () -> new LatencyCellResults(ResultsSchema.VERSION,
                ResultsSchema.LATENCY_KIND, "r", "single/1/none/none", "single", 5, false, false, TargetKind.LOCAL, DataPlaneInfo.unknownNetty(),
                new Machine(2, 1, "L"), "k", "17", "g", "t", RunStatus.PASSED, null, Map.of(), max, 0.75, max, Map.of(), List.of()));
        assertTrue(mismatch.getMessage().contains("disagrees"), mismatch.getMessage());
        assertThrows(IllegalArgumentException.class, () -> cell("single/1/none/none", RunStatus.PASSED, max, null), "a passed cell has both phases");
        IllegalArgumentException ingress = assertThrows(IllegalArgumentException.class, () -> new LatencyCellResults(ResultsSchema.VERSION,
                ResultsSchema.LATENCY_KIND, "r", "single/1/gateway/none", "single", 1, true, false, TargetKind.LOCAL, DataPlaneInfo.unknownNetty(),
                new Machine(2, 1, "L"), "k", "17", "g", "t", RunStatus.PASSED, null, Map.of(), max, 0.75, max, Map.of(), List.of()));
        assertEquals("dataPlane.ingress (false) disagrees with the cell's ingress (true)", ingress.getMessage());
        assertEquals("sidecar-a-1 exited with 1", cell("single/1/none/none", RunStatus.FAILED, null, null).failureReason());
        assertThrows(IllegalArgumentException.class, () -> new LoadPhase(1, 1, 1, Map.of(), 10.0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, true, " ", null, null),
                "fell behind without a reason");
    }

    @Test
    void aBrokenFileIsReportedWithItsPath(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ResultsSchema.LATENCY_FILE);
        Files.writeString(file, "{\"schemaVersion\":\"4\",\"kind\":\"latency-cell\"}");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readLatency(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }
}
