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
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.Plot;

/** Reads a results directory and writes the report folder: index.html, four PNGs, four CSVs. */
public final class ReportGenerator {
    /** Every file a report folder holds. */
    public static final List<String> FILES = List.of("index.html", HtmlReportRenderer.THROUGHPUT_PNG,
            HtmlReportRenderer.LATENCY_PNG, HtmlReportRenderer.CPU_PNG, HtmlReportRenderer.LABELS_PNG, HtmlReportRenderer.STEPS_CSV,
            HtmlReportRenderer.LABELS_CSV, HtmlReportRenderer.COMPARISON_CSV, HtmlReportRenderer.ATTRIBUTION_CSV);

    private ReportGenerator() {
    }

    /** Reads {@code resultsDir}, writes the report into {@code outDir}, returns what it showed. */
    public static ReportModel generate(Path resultsDir, Path outDir, int clients, ConversionMode mode, Instant now)
            throws IOException {
        LoadedResults loaded = ResultsDirectoryReader.read(resultsDir, mode);
        ReportModel model = ReportModel.of(loaded, clients);
        write(model, outDir, now);
        return model;
    }

    /** Writes the report of {@code model} into {@code outDir}. */
    public static void write(ReportModel model, Path outDir, Instant now) throws IOException {
        Files.createDirectories(outDir);
        png(ThroughputChartRenderer.chart(model), outDir.resolve(HtmlReportRenderer.THROUGHPUT_PNG));
        png(LatencyChartRenderer.chart(model), outDir.resolve(HtmlReportRenderer.LATENCY_PNG));
        png(CpuChartRenderer.chart(model), outDir.resolve(HtmlReportRenderer.CPU_PNG));
        png(LabelChartRenderer.chart(model), outDir.resolve(HtmlReportRenderer.LABELS_PNG));
        Files.writeString(outDir.resolve(HtmlReportRenderer.STEPS_CSV), CsvReportWriter.steps(model),
                StandardCharsets.UTF_8);
        Files.writeString(outDir.resolve(HtmlReportRenderer.LABELS_CSV), CsvReportWriter.labels(model),
                StandardCharsets.UTF_8);
        Files.writeString(outDir.resolve(HtmlReportRenderer.COMPARISON_CSV), CsvReportWriter.comparison(model),
                StandardCharsets.UTF_8);
        Files.writeString(outDir.resolve(HtmlReportRenderer.ATTRIBUTION_CSV), CsvReportWriter.attribution(model),
                StandardCharsets.UTF_8);
        Files.writeString(outDir.resolve("index.html"), HtmlReportRenderer.render(model, now, outDir), StandardCharsets.UTF_8);
    }

    private static void png(JFreeChart chart, Path file) throws IOException {
        Plot plot = chart.getPlot();
        plot.setNoDataMessage("No usable run: see the report's Skipped section");
        ChartUtils.saveChartAsPNG(file.toFile(), chart, ChartStyle.WIDTH, ChartStyle.HEIGHT);
    }
}
