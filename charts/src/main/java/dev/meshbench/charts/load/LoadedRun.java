package dev.meshbench.charts.load;

import dev.meshbench.results.RunResults;
import java.nio.file.Path;

/**
 * A run that goes into the report.
 *
 * @param file    its results.json
 * @param results what it contains
 */
public record LoadedRun(Path file, RunResults results) {
    /** The run's id. */
    public String runId() {
        return results.inputs().runId();
    }

    /** The run's case. */
    public String caseId() {
        return results.inputs().caseId();
    }
}
