package dev.meshbench.maven;

import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/** Writes the latency study's report (charts' latency report) and prints its table. */
final class LatencyTable {
    private LatencyTable() {
    }

    static void write(Path resultsDir, Log log) throws MojoExecutionException {
        // filled in when the charts module's latency report lands
    }
}
