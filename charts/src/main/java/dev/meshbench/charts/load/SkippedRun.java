package dev.meshbench.charts.load;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A run (or a file that looked like one) left out of the report.
 *
 * @param file   the file that was read or would have been
 * @param reason what is wrong, for a person
 */
public record SkippedRun(Path file, String reason) {
    /**
     * The runs in order without those whose id was already read; each one dropped is added to {@code skipped},
     * naming the file it was first read from.
     */
    public static <T> List<T> dropDuplicateIds(List<T> runs, Function<T, String> runId, Function<T, Path> file,
            List<SkippedRun> skipped) {
        Map<String, T> first = new LinkedHashMap<>();
        List<T> kept = new ArrayList<>();
        for (T r : runs) {
            T earlier = first.putIfAbsent(runId.apply(r), r);
            if (earlier == null) {
                kept.add(r);
            } else {
                skipped.add(new SkippedRun(file.apply(r), "run id " + runId.apply(r) + " was already read from "
                        + file.apply(earlier)));
            }
        }
        return kept;
    }

    @Override
    public String toString() {
        return file + ": " + reason;
    }
}
