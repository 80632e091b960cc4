package dev.meshbench.charts.load;

import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunResults;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * A run that goes into the report.
 *
 * @param file    its results.json
 * @param results what it contains
 */
public record LoadedRun(Path file, RunResults results) {
    /**
     * The order of groups in a report: data plane (netty, envoy, then other names alphabetically; a name's labels
     * alphabetically), then case (study order, then other ids alphabetically).
     */
    public static final Comparator<LoadedRun> GROUP_ORDER = Comparator
            .comparingInt((LoadedRun r) -> ResultsSchema.dataPlaneOrder(r.dataPlane().name()))
            .thenComparing(r -> r.dataPlane().name())
            .thenComparing(LoadedRun::dataPlaneLabel)
            .thenComparingInt(r -> ResultsSchema.caseOrder(r.caseId()))
            .thenComparing(LoadedRun::caseId);
    /** {@link #GROUP_ORDER}, then run id: the order of runs everywhere in a report. */
    public static final Comparator<LoadedRun> REPORT_ORDER = GROUP_ORDER.thenComparing(LoadedRun::runId);

    /** The run's id. */
    public String runId() {
        return results.inputs().runId();
    }

    /** The run's case. */
    public String caseId() {
        return results.inputs().caseId();
    }

    /** The run's data plane; {@link DataPlaneInfo#unknownNetty()} when the run did not record one. */
    public DataPlaneInfo dataPlane() {
        return results.inputs().dataPlaneOrUnknown();
    }

    /**
     * The label the report groups the run by: the data plane's ({@code "envoy"}, {@code "netty (no sidecar mTLS)"})
     * plus how the workload differs from the original's ({@link dev.meshbench.results.RunInputs#seriesLabel()}), so
     * runs of different workloads are never mixed in one figure.
     */
    public String dataPlaneLabel() {
        return results.inputs().seriesLabel();
    }
}
