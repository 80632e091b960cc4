package dev.meshbench.charts.load;

import java.nio.file.Path;
import java.util.List;

/**
 * What a results directory held: the runs a report can compare, the calibration runs that set a sitting's rate, and
 * the files it must leave out.
 *
 * @param directory    the results directory
 * @param runs         usable runs in {@link LoadedRun#REPORT_ORDER}: data plane, case (study order), run id
 * @param skipped      left-out runs and files, with the reason, sorted by file
 * @param calibrations passed calibration runs ({@code measurement.calibrationRun}), sorted by run id: each measured
 *                     bypass's closed-loop maximum to set its sitting's fixed rate. They are no measurement of their
 *                     case, so they are in no comparison, and the report shows them as what they are
 */
public record LoadedResults(Path directory, List<LoadedRun> runs, List<SkippedRun> skipped,
        List<LoadedRun> calibrations) {
    public LoadedResults {
        runs = List.copyOf(runs);
        skipped = List.copyOf(skipped);
        calibrations = List.copyOf(calibrations);
    }
}
