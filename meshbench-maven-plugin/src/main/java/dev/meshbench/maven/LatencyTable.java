package dev.meshbench.maven;

import dev.meshbench.charts.latency.LatencyReport;
import dev.meshbench.charts.latency.LatencyReportModel;
import dev.meshbench.orchestrator.latency.LatencyRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/** Writes the latency study's report ({@code <results>/latency-report/}) and prints its table. */
final class LatencyTable {
    /** The report folder, next to the egress study's {@code report/}. */
    static final String REPORT_DIR = "latency-report";

    private LatencyTable() {
    }

    static void write(Path resultsDir, Log log) throws MojoExecutionException {
        System.setProperty("java.awt.headless", "true");
        Path cells = LatencyRunner.latencyDir(resultsDir);
        if (!Files.isDirectory(cells)) {
            log.info("no latency cells under " + cells + ": no latency report");
            return;
        }
        Path out = resultsDir.resolve(REPORT_DIR);
        try {
            LatencyReportModel model = LatencyReport.generate(cells, out);
            System.out.println(LatencyReport.consoleTable(model));
            log.info("meshbench latency report: " + out.resolve(LatencyReport.HTML));
        } catch (IOException | RuntimeException e) {
            throw new MojoExecutionException("building the latency report from " + cells + " into " + out + " failed: " + e.getMessage(), e);
        }
    }
}
