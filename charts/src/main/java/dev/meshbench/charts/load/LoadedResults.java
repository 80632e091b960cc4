package dev.meshbench.charts.load;

import java.nio.file.Path;
import java.util.List;

/**
 * What a results directory held: the runs a report can compare and the ones it must leave out.
 *
 * @param directory the results directory
 * @param runs      usable runs in {@link LoadedRun#REPORT_ORDER}: data plane, case (study order), run id
 * @param skipped   left-out runs and files, with the reason, sorted by file
 */
public record LoadedResults(Path directory, List<LoadedRun> runs, List<SkippedRun> skipped) {
    public LoadedResults {
        runs = List.copyOf(runs);
        skipped = List.copyOf(skipped);
    }
}
