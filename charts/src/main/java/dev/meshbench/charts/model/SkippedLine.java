package dev.meshbench.charts.model;

import dev.meshbench.charts.load.SkippedRun;
import java.io.File;
import java.nio.file.Path;
import java.util.List;

/**
 * A file a report left out, relative to the results folder when inside it, and why: the egress report's and the
 * latency report's Skipped section.
 */
public record SkippedLine(String file, String reason) {
    /** The lines of {@code skipped}, read from {@code directory}. */
    public static List<SkippedLine> of(Path directory, List<SkippedRun> skipped) {
        return skipped.stream().map(s -> new SkippedLine(relative(directory, s.file()), s.reason())).toList();
    }

    /** {@code file} relative to {@code directory} when inside it, else as it is. */
    public static String relative(Path directory, Path file) {
        String dir = directory.toString() + File.separator;
        String f = file.toString();
        return f.startsWith(dir) ? f.substring(dir.length()) : f;
    }
}
