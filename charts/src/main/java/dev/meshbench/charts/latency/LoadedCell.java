package dev.meshbench.charts.latency;

import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.ResultsSchema;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;

/**
 * A latency cell the report read.
 *
 * @param file      its latency.json
 * @param results   what it contains
 * @param startTime {@link LatencyCellResults#startTime()}, parsed
 */
public record LoadedCell(Path file, LatencyCellResults results, Instant startTime) {
    /** Data plane (netty, envoy, then others alphabetically), cell in the gist's order, start time, run id. */
    public static final Comparator<LoadedCell> REPORT_ORDER = Comparator
            .comparingInt((LoadedCell c) -> ResultsSchema.dataPlaneOrder(c.dataPlane()))
            .thenComparing(LoadedCell::dataPlane)
            .thenComparing(LoadedCell::cell, CellId.GIST_ORDER)
            .thenComparing(LoadedCell::startTime)
            .thenComparing(LoadedCell::runId);

    /** The run's id. */
    public String runId() {
        return results.runId();
    }

    /** The data plane's name ({@code netty}, {@code envoy}): what the report groups cells by. */
    public String dataPlane() {
        return results.dataPlane().name();
    }

    /** The cell it measured. */
    public CellId cell() {
        return CellId.of(results);
    }
}
