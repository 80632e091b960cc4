package dev.meshbench.charts;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.LoadedResults;
import dev.meshbench.charts.load.ResultsDirectoryReader;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.render.ChartStyle;
import dev.meshbench.charts.render.CpuChartRenderer;
import dev.meshbench.charts.render.CsvReportWriter;
import dev.meshbench.charts.render.HtmlReportRenderer;
import dev.meshbench.charts.render.LabelChartRenderer;
import dev.meshbench.charts.render.LatencyChartRenderer;
import dev.meshbench.charts.render.ThroughputChartRenderer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.Plot;

/**
 * Reads a results directory and writes the report folder: index.html, the PNGs (the throughput chart only when some
 * run ran a closed loop), six CSVs.
 */
public final class ReportGenerator {
    private ReportGenerator() {
    }

    /**
     * Every file the report folder of {@code model} holds, {@code index.html} first. {@code throughput.png} only when
     * some run ran a closed loop: at a fixed rate throughput is the rate offered, an input, not a result.
     */
    public static List<String> files(ReportModel model) {
        List<String> files = new ArrayList<>(List.of("index.html"));
        if (model.hasClosedLoop()) {
            files.add(HtmlReportRenderer.THROUGHPUT_PNG);
        }
        files.addAll(List.of(HtmlReportRenderer.LATENCY_PNG, HtmlReportRenderer.CPU_PNG, HtmlReportRenderer.LABELS_PNG,
                HtmlReportRenderer.ANSWER_CSV, HtmlReportRenderer.SITTING_CSV, HtmlReportRenderer.STEPS_CSV,
                HtmlReportRenderer.LABELS_CSV, HtmlReportRenderer.COMPARISON_CSV, HtmlReportRenderer.ATTRIBUTION_CSV));
        return files;
    }

    /** Reads {@code resultsDir}, writes the report into {@code outDir}, returns what it showed. */
    public static ReportModel generate(Path resultsDir, Path outDir, int clients, ConversionMode mode, Instant now)
            throws IOException {
        LoadedResults loaded = ResultsDirectoryReader.read(resultsDir, mode);
        ReportModel model = ReportModel.of(loaded, clients);
        write(model, outDir, now);
        return model;
    }

    /**
     * Writes the report of {@code model} into {@code outDir}. A {@code throughput.png} left there by an earlier report
     * is deleted when this one has none, so the folder never holds a chart of other runs.
     */
    public static void write(ReportModel model, Path outDir, Instant now) throws IOException {
        Files.createDirectories(outDir);
        Path throughput = outDir.resolve(HtmlReportRenderer.THROUGHPUT_PNG);
        if (model.hasClosedLoop()) {
            png(ThroughputChartRenderer.chart(model), throughput);
        } else {
            Files.deleteIfExists(throughput);
        }
        png(LatencyChartRenderer.chart(model), outDir.resolve(HtmlReportRenderer.LATENCY_PNG));
        png(CpuChartRenderer.chart(model), outDir.resolve(HtmlReportRenderer.CPU_PNG));
        png(LabelChartRenderer.chart(model), outDir.resolve(HtmlReportRenderer.LABELS_PNG));
        csv(outDir, HtmlReportRenderer.ANSWER_CSV, CsvReportWriter.answer(model));
        csv(outDir, HtmlReportRenderer.SITTING_CSV, CsvReportWriter.sitting(model));
        csv(outDir, HtmlReportRenderer.STEPS_CSV, CsvReportWriter.steps(model));
        csv(outDir, HtmlReportRenderer.LABELS_CSV, CsvReportWriter.labels(model));
        csv(outDir, HtmlReportRenderer.COMPARISON_CSV, CsvReportWriter.comparison(model));
        csv(outDir, HtmlReportRenderer.ATTRIBUTION_CSV, CsvReportWriter.attribution(model));
        Files.writeString(outDir.resolve("index.html"), HtmlReportRenderer.render(model, now, outDir), StandardCharsets.UTF_8);
    }

    private static void csv(Path outDir, String name, String content) throws IOException {
        Files.writeString(outDir.resolve(name), content, StandardCharsets.UTF_8);
    }

    private static void png(JFreeChart chart, Path file) throws IOException {
        Plot plot = chart.getPlot();
        plot.setNoDataMessage("No usable run: see the report's Skipped section");
        ChartUtils.saveChartAsPNG(file.toFile(), chart, ChartStyle.WIDTH, ChartStyle.HEIGHT);
    }
}
