package dev.meshbench.charts.latency;

import dev.meshbench.charts.load.SkippedRun;
import java.nio.file.Path;
import java.util.List;

/**
 * What a latency results directory held.
 *
 * @param directory the directory that was read ({@code results/latency/})
 * @param passed    for each data plane and cell, the passed run that started last, in {@link LoadedCell#REPORT_ORDER}
 * @param failed    every failed run, with its {@code failureReason}, in {@link LoadedCell#REPORT_ORDER}
 * @param skipped   files left out, with the reason (unreadable, unfinished, repeated run id, superseded by a later
 *                  passed run of the same cell), sorted by file
 */
public record LoadedLatency(Path directory, List<LoadedCell> passed, List<LoadedCell> failed, List<SkippedRun> skipped) {
    public LoadedLatency {
        passed = List.copyOf(passed);
        failed = List.copyOf(failed);
        skipped = List.copyOf(skipped);
    }
}
