package dev.meshbench.charts.latency;

import dev.meshbench.charts.render.ChartStyle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;

/**
 * The latency study's report: reads every {@code latency.json} below a folder ({@code results/latency/}), sets the
 * latest passed run of each data plane and cell beside the gist's published figures, and writes
 * {@value #HTML}, {@value #CSV} and {@value #PNG} into a report folder ({@code results/latency-report/}).
 */
public final class LatencyReport {
    /** The page. */
    public static final String HTML = "index.html";
    /** One row per data plane and cell. */
    public static final String CSV = "latency.csv";
    /** The added-latency chart. */
    public static final String PNG = "added-latency.png";
    /** Every file a report folder holds. */
    public static final List<String> FILES = List.of(HTML, CSV, PNG);

    private LatencyReport() {
    }

    /** Reads {@code latencyResultsDir}, writes the report into {@code outDir}, returns what it shows. */
    public static LatencyReportModel generate(Path latencyResultsDir, Path outDir) throws IOException {
        return generate(latencyResultsDir, outDir, Instant.now());
    }

    /** As {@link #generate(Path, Path)}, the page saying it was generated at {@code now}. */
    public static LatencyReportModel generate(Path latencyResultsDir, Path outDir, Instant now) throws IOException {
        LatencyReportModel model = model(latencyResultsDir);
        write(model, outDir, now);
        return model;
    }

    /** What the report of {@code latencyResultsDir} shows, without writing anything. */
    public static LatencyReportModel model(Path latencyResultsDir) throws IOException {
        return LatencyReportModel.of(LatencyResultsReader.read(latencyResultsDir), GistTable.load());
    }

    /** Writes the report of {@code model} into {@code outDir}. */
    public static void write(LatencyReportModel model, Path outDir, Instant now) throws IOException {
        Files.createDirectories(outDir);
        JFreeChart chart = AddedLatencyChartRenderer.chart(model);
        ChartUtils.saveChartAsPNG(outDir.resolve(PNG).toFile(), chart, ChartStyle.WIDTH, AddedLatencyChartRenderer.HEIGHT);
        Files.writeString(outDir.resolve(CSV), LatencyCsvWriter.csv(model), StandardCharsets.UTF_8);
        Files.writeString(outDir.resolve(HTML), LatencyHtmlRenderer.render(model, now), StandardCharsets.UTF_8);
    }

    /**
     * The plain-text table for the console: per data plane
     * {@code Svc Scale Ingress Sidecar P99 P50 MaxQPS | gist P99 P50 MaxQPS}, flags at the end of a line (fell behind,
     * errors, failed, not run), then failed cells and skipped files with their reasons.
     */
    public static String consoleTable(LatencyReportModel model) {
        return LatencyTextRenderer.table(model);
    }
}
