package dev.meshbench.charts.latency;

import dev.meshbench.charts.load.SkippedRun;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.io.ResultsFormatException;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds every {@code latency.json} below a directory ({@code results/latency/<runId>/latency.json}, any depth up to
 * 4) and keeps, for each data plane (by name) and cell, the passed run that started last. Failed runs are kept
 * apart with their reason. A file is left out, with the reason, when it cannot be read (malformed, truncated, an
 * unknown schema version, not a latency cell, invalid values), when its run is still marked running, when its
 * {@code startTime} is not an ISO-8601 instant, when its run id was already read from another file, or when a later
 * passed run of the same cell and data plane supersedes it.
 */
public final class LatencyResultsReader {
    private static final Logger LOG = LoggerFactory.getLogger(LatencyResultsReader.class);
    private static final int MAX_DEPTH = 4;

    private LatencyResultsReader() {
    }

    /** Reads every latency.json below {@code directory}. */
    public static LoadedLatency read(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new NoSuchFileException(directory.toString(), null, "latency results directory does not exist");
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory, MAX_DEPTH)) {
            files = walk.filter(p -> p.getFileName() != null)
                    .filter(p -> p.getFileName().toString().equals(ResultsSchema.LATENCY_FILE))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .toList();
        }
        List<LoadedCell> read = new ArrayList<>();
        List<SkippedRun> skipped = new ArrayList<>();
        for (Path file : files) {
            readCell(file, read, skipped);
        }
        read = SkippedRun.dropDuplicateIds(read, LoadedCell::runId, LoadedCell::file, skipped);
        List<LoadedCell> failed = new ArrayList<>(read.stream().filter(c -> c.results().status() == RunStatus.FAILED)
                .toList());
        List<LoadedCell> passed = latestPassed(read.stream().filter(c -> c.results().status() == RunStatus.PASSED)
                .toList(), skipped);
        passed.sort(LoadedCell.REPORT_ORDER);
        failed.sort(LoadedCell.REPORT_ORDER);
        skipped.sort(Comparator.comparing(SkippedRun::file));
        LOG.debug("{}: {} passed cells shown, {} failed, {} skipped", directory, passed.size(), failed.size(),
                skipped.size());
        return new LoadedLatency(directory, passed, failed, skipped);
    }

    private static void readCell(Path file, List<LoadedCell> read, List<SkippedRun> skipped) {
        LatencyCellResults r;
        try {
            r = ResultsJson.readLatency(file);
        } catch (ResultsFormatException e) {
            skipped.add(new SkippedRun(e.file(), e.problem()));
            return;
        }
        if (r.status() == RunStatus.RUNNING) {
            skipped.add(new SkippedRun(file, "cell " + r.cellId() + " did not finish (status is still running)"));
            return;
        }
        Instant start;
        try {
            start = Instant.parse(r.startTime());
        } catch (DateTimeParseException e) {
            skipped.add(new SkippedRun(file, "startTime \"" + r.startTime() + "\" is not an ISO-8601 instant "
                    + "(e.g. 2026-11-23T06:37:23Z), so the latest run of cell " + r.cellId() + " cannot be told"));
            return;
        }
        read.add(new LoadedCell(file, r, start));
    }


    /** For each data plane and cell, the passed run that started last (ties: the larger run id); skips the others. */
    private static List<LoadedCell> latestPassed(List<LoadedCell> passed, List<SkippedRun> skipped) {
        Comparator<LoadedCell> byStart = Comparator.comparing(LoadedCell::startTime).thenComparing(LoadedCell::runId);
        Map<String, LoadedCell> latest = new LinkedHashMap<>();
        for (LoadedCell c : passed) {
            latest.merge(c.dataPlane() + " " + c.cell().id(), c, (a, b) -> byStart.compare(a, b) >= 0 ? a : b);
        }
        for (LoadedCell c : passed) {
            LoadedCell shown = latest.get(c.dataPlane() + " " + c.cell().id());
            if (shown != c) {
                skipped.add(new SkippedRun(c.file(), "superseded: a later passed run of cell " + c.cell().id() + " on "
                        + c.dataPlane() + " is shown (" + shown.runId() + ", started " + shown.startTime() + ")"));
            }
        }
        return new ArrayList<>(latest.values());
    }
}
