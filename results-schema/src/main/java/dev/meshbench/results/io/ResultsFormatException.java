package dev.meshbench.results.io;

import java.io.IOException;
import java.nio.file.Path;

/** A results input (run.json, results.json, samples.jtl, cpu-samples.csv) that cannot be used, and why. */
public class ResultsFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String problem;

    public ResultsFormatException(Path file, String problem) {
        this(file, problem, null);
    }

    public ResultsFormatException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
        this.problem = problem;
    }

    /** The file that is wrong. */
    public Path file() {
        return file;
    }

    /** What is wrong with it, without the file name. */
    public String problem() {
        return problem;
    }
}
