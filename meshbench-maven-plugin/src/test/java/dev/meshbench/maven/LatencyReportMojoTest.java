package dev.meshbench.maven;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.TargetKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** meshbench:latency-report: a report when there are cells, and the verdict on this build's cells. */
class LatencyReportMojoTest {
    @TempDir
    Path tmp;

    private LatencyReportMojo mojo(List<LatencyCellResults> cells) {
        LatencyReportMojo m = new LatencyReportMojo();
        m.project = Builds.project(Map.of());
        if (cells != null) {
            m.project.setContextValue(LatencyMojo.CELLS, cells);
        }
        m.results = tmp.resolve("results").toFile();
        return m;
    }

    private static LatencyCellResults failed(String graph, String reason) {
        String id = graph + "/1/none/sidecar";
        return new LatencyCellResults(ResultsSchema.VERSION, ResultsSchema.LATENCY_KIND, "r-" + graph, id, graph, 1, false, true,
                TargetKind.LOCAL, new DataPlaneInfo("netty", Map.of(), 2, true, false, null), new Machine(2, 1L << 34, "Linux"), "0.1.0", "17",
                "meshbench-load", "2026-11-23T06:00:00Z", RunStatus.FAILED, reason, Map.of(), null, 0.75, null, Map.of(), List.of());
    }

    @Test
    @DisplayName("no latency cells anywhere and none run in this build: nothing to report, the build passes")
    void nothingToReport() {
        assertDoesNotThrow(() -> mojo(null).execute());
        assertFalse(Files.exists(tmp.resolve("results/latency-report")));
    }

    @Test
    @DisplayName("cells of this build that failed fail the build, each named with its data plane, run and reason")
    void failedCellsNamed() {
        MojoFailureException e = assertThrows(MojoFailureException.class,
                () -> mojo(List.of(failed("single", "sidecar did not start"), failed("double", "max rate 0"))).execute());
        assertEquals("latency cells failed:\n  single/1/none/sidecar on netty (r-single): sidecar did not start"
                + "\n  double/1/none/sidecar on netty (r-double): max rate 0", e.getMessage());
    }
}
