package dev.meshbench.charts.load;

import java.nio.file.Path;

/**
 * A run (or a file that looked like one) left out of the report.
 *
 * @param file   the file that was read or would have been
 * @param reason what is wrong, for a person
 */
public record SkippedRun(Path file, String reason) {
    @Override
    public String toString() {
        return file + ": " + reason;
    }
}
