package dev.meshbench.charts.load;

import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.convert.ResultsConverter;
import dev.meshbench.results.io.ResultsFormatException;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds every run below a results directory ({@code <dir>/<runId>/results.json}, any depth up to 4) and keeps
 * the ones a report can compare. A run is left out, with the reason, when its results.json cannot be read, when
 * it did not pass, when its run id repeats, or when its target or client steps differ from those of most runs
 * (a report compares like with like). Runs of different data planes are kept side by side; the report groups
 * them apart. A passed calibration run ({@code measurement.calibrationRun}) is kept apart: it set its sitting's rate
 * and is shown as that, never compared and never skipped.
 */
public final class ResultsDirectoryReader {
    private static final Logger LOG = LoggerFactory.getLogger(ResultsDirectoryReader.class);
    private static final int MAX_DEPTH = 4;

    private ResultsDirectoryReader() {
    }

    /** Reads {@code directory}, converting run folders first as {@code mode} says. */
    public static LoadedResults read(Path directory, ConversionMode mode) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new NoSuchFileException(directory.toString(), null, "results directory does not exist");
        }
        List<Path> runDirs;
        try (Stream<Path> walk = Files.walk(directory, MAX_DEPTH)) {
            runDirs = walk.filter(p -> p.getFileName() != null)
                    .filter(p -> p.getFileName().toString().equals(ResultsSchema.RESULTS_FILE)
                            || p.getFileName().toString().equals(ResultsSchema.RUN_FILE))
                    .filter(Files::isRegularFile)
                    .map(Path::getParent)
                    .distinct()
                    .sorted()
                    .toList();
        }
        List<LoadedRun> runs = new ArrayList<>();
        List<LoadedRun> calibrations = new ArrayList<>();
        List<SkippedRun> skipped = new ArrayList<>();
        for (Path dir : runDirs) {
            readRun(dir, mode, runs, calibrations, skipped);
        }
        runs = SkippedRun.dropDuplicateIds(runs, LoadedRun::runId, LoadedRun::file, skipped);
        calibrations = new ArrayList<>(SkippedRun.dropDuplicateIds(calibrations, LoadedRun::runId, LoadedRun::file,
                skipped));
        calibrations.sort(java.util.Comparator.comparing(LoadedRun::runId));
        // Runs of both targets stay: a cluster's runs are series of their own (data plane istio), beside the local ones.
        runs = keepMajority(runs, skipped, r -> r.results().clientSteps(), "client steps",
                (value, others) -> "client steps " + value + " differ from " + others + " of the other runs; "
                        + "throughput curves and repeats are compared step by step");
        runs.sort(LoadedRun.REPORT_ORDER);
        skipped.sort(Comparator.comparing(SkippedRun::file));
        return new LoadedResults(directory, runs, skipped, calibrations);
    }

    private static void readRun(Path dir, ConversionMode mode, List<LoadedRun> runs, List<LoadedRun> calibrations,
            List<SkippedRun> skipped) {
        Path results = dir.resolve(ResultsSchema.RESULTS_FILE);
        Path run = dir.resolve(ResultsSchema.RUN_FILE);
        boolean convertible = Files.isRegularFile(run);
        boolean convert = convertible && (mode == ConversionMode.ALL
                || (mode == ConversionMode.MISSING && !Files.exists(results)));
        if (convert) {
            try {
                ResultsConverter.convert(dir);
                LOG.debug("converted {}", dir);
            } catch (ResultsFormatException e) {
                skipped.add(new SkippedRun(e.file(), "cannot convert: " + e.problem()));
                return;
            } catch (IOException e) {
                skipped.add(new SkippedRun(results, "cannot write: " + e.getMessage()));
                return;
            }
        }
        if (!Files.exists(results)) {
            skipped.add(new SkippedRun(run, notConvertedReason(run)));
            return;
        }
        RunResults r;
        try {
            r = ResultsJson.readResults(results);
        } catch (ResultsFormatException e) {
            skipped.add(new SkippedRun(e.file(), e.problem()));
            return;
        }
        RunInputs in = r.inputs();
        if (in.status() == RunStatus.FAILED) {
            skipped.add(new SkippedRun(results, "run failed: " + in.failureReason()));
        } else if (in.status() == RunStatus.RUNNING) {
            skipped.add(new SkippedRun(results, unfinished(dir)));
        } else if (in.measurementOrDefault().calibrationOnly()) {
            calibrations.add(new LoadedRun(results, r));
        } else if (r.steps().isEmpty()) {
            skipped.add(new SkippedRun(results, "no measured step"));
        } else {
            runs.add(new LoadedRun(results, r));
        }
    }

    /**
     * Why a run still marked running is not shown: abandoned when the process that ran it is gone (killed before it
     * could say so), still going when it is alive, or unknown when the folder does not say who ran it.
     */
    static String unfinished(Path runDir) {
        java.util.Optional<dev.meshbench.results.RunOwner> owner = dev.meshbench.results.RunOwner.readFrom(runDir);
        if (owner.isEmpty()) {
            return "run did not finish (status is still running)";
        }
        return switch (owner.get().state()) {
            case GONE -> "run abandoned: the process that ran it (" + owner.get().describe() + ") ended before the run "
                    + "finished (killed?)";
            case ALIVE -> "run still going (" + owner.get().describe() + ")";
            case ELSEWHERE -> "run did not finish (status is still running; it ran on " + owner.get().host() + ")";
        };
    }

    private static String notConvertedReason(Path run) {
        try {
            RunInputs in = ResultsJson.readRunInputs(run);
            if (in.status() == RunStatus.RUNNING) {
                return unfinished(run.getParent()) + " and has no results.json";
            }
            if (in.status() == RunStatus.FAILED) {
                return "run failed: " + in.failureReason();
            }
        } catch (ResultsFormatException e) {
            return e.problem();
        }
        return "no results.json next to it (convert with --convert-missing)";
    }


    /** Keeps the runs whose {@code key} is the most common one (ties: the first run's); skips the rest. */
    private static <K> List<LoadedRun> keepMajority(List<LoadedRun> runs, List<SkippedRun> skipped,
            Function<LoadedRun, K> key, String what, Reason<K> reason) {
        if (runs.isEmpty()) {
            return runs;
        }
        Map<K, Long> counts = runs.stream().collect(Collectors.groupingBy(key, LinkedHashMap::new,
                Collectors.counting()));
        Map<K, Integer> firstSeen = new HashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            firstSeen.putIfAbsent(key.apply(runs.get(i)), i);
        }
        K chosen = counts.entrySet().stream()
                .max(Comparator.comparingLong((Map.Entry<K, Long> e) -> e.getValue())
                        .thenComparing(e -> -firstSeen.get(e.getKey())))
                .orElseThrow().getKey();
        List<LoadedRun> kept = new ArrayList<>();
        for (LoadedRun r : runs) {
            K k = key.apply(r);
            if (k.equals(chosen)) {
                kept.add(r);
            } else {
                skipped.add(new SkippedRun(r.file(), reason.describe(k, chosen)));
            }
        }
        LOG.debug("{}: kept {} of {} runs", what, kept.size(), runs.size());
        return kept;
    }

    @FunctionalInterface
    private interface Reason<K> {
        String describe(K value, K others);
    }
}
