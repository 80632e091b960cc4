package dev.meshbench.charts.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.ReportGenerator;
import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.LoadedResults;
import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.charts.load.ResultsDirectoryReader;
import dev.meshbench.charts.render.CsvReportWriter;
import dev.meshbench.charts.render.HtmlReportRenderer;
import dev.meshbench.charts.render.ThroughputChartRenderer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report of a switched sitting ({@link SwitchedSitting}): the answer first, the sitting, no throughput chart. */
class SittingReportTest {
    private static final String S = SwitchedSitting.SITTING;

    private static Path report(Path dir) throws IOException {
        Path results = dir.resolve("results");
        SwitchedSitting.write(results, S, SwitchedSitting.ORDER, 3);
        Path out = dir.resolve("report");
        ReportGenerator.generate(results, out, 20, ConversionMode.NONE, Instant.EPOCH);
        return out;
    }

    private static String page(Path out) throws IOException {
        return Files.readString(out.resolve("index.html")).replaceAll("\\s+", " ");
    }

    @Test
    @DisplayName("the calibration run is read as the calibration: kept apart from the runs, not skipped, not compared")
    void calibrationIsNotSkipped(@TempDir Path dir) throws IOException {
        Path results = dir.resolve("results");
        SwitchedSitting.write(results, S, SwitchedSitting.ORDER, 3);
        LoadedResults loaded = ResultsDirectoryReader.read(results, ConversionMode.NONE);
        assertEquals(List.of(), loaded.skipped());
        assertEquals(List.of(S + "-calibration"), loaded.calibrations().stream().map(LoadedRun::runId).toList());
        assertEquals(9, loaded.runs().size(), "3 rounds of 3 cases");
        assertEquals(3, ReportModel.of(loaded, 20).baseline("envoy").runs().size(), "bypass: its 3 windows only");
        String html = page(report(dir));
        assertTrue(html.contains("Nothing was skipped."), "the calibration is not among the skipped files");
        assertFalse(html.contains("files were skipped"), html);
        assertTrue(html.contains("Calibration: " + S + "-calibration (sitting " + S + "): bypass&#39;s "
                + "closed-loop maximum 160.0 tx/s at 20 clients, steady; set the fixed rate 120 req/s (0.75 of it) for 9 "
                + "runs. It measured no case's cost, so it is in no comparison."), html);
    }

    @Test
    @DisplayName("a window whose JVMs were still compiling says which one and how much in its cell, with what that means")
    void jitBusyWindow(@TempDir Path dir) throws IOException {
        Path results = dir.resolve("results");
        SwitchedSitting.write(results, S, SwitchedSitting.ORDER, 3);
        // 1130 ms in the 10-s window: above the quiet level of 300 ms per 10 s; customer's 20 ms is not
        SwitchedSitting.withJit(results, S + "-sni-r1", java.util.Map.of("auth", 1130.0, "customer", 20.0));
        SwitchedSitting.withJit(results, S + "-sni-r2", java.util.Map.of("customer", 20.0));
        Path out = dir.resolve("report");
        ReportGenerator.generate(results, out, 20, ConversionMode.NONE, Instant.EPOCH);
        String html = page(out);
        String table = html.substring(html.indexOf("id=\"sitting\""), html.indexOf("id=\"comparison\""));
        assertEquals(1, table.split("JIT busy: ", -1).length - 1, "one window: " + table);
        assertTrue(table.contains("#3 " + S + "-sni-r1"), table);
        String cell = table.substring(table.indexOf("#3 " + S + "-sni-r1"));
        cell = cell.substring(0, cell.indexOf("</td>"));
        assertTrue(cell.contains("title=\"a JVM of the deployment was still compiling") && cell.contains(">JIT busy: auth 1130\u00a0ms</span>"),
                cell);
        // the answer says how many of the windows it rests on were busy: sni's 3 and their 3 bypass windows, 1 busy
        String answer = html.substring(html.indexOf("id=\"answer\""), html.indexOf("class=\"lead\""));
        assertTrue(answer.contains("from 3 rounds; 1 of the 6 windows compared had a JVM still compiling (JIT busy).</li>"), answer);
        assertEquals(1, answer.split("JIT busy", -1).length - 1, "sidecar's windows were quiet: " + answer);
    }

    @Test
    @DisplayName("a sitting whose warm-up set the rate says so in its own table, with no calibration run and nothing missing")
    void calibratedByTheWarmUp(@TempDir Path dir) throws IOException {
        Path results = dir.resolve("results");
        SwitchedSitting.write(results, S, SwitchedSitting.ORDER, 3, true);
        LoadedResults loaded = ResultsDirectoryReader.read(results, ConversionMode.NONE);
        assertEquals(List.of(), loaded.calibrations());
        assertEquals(9, loaded.runs().size());
        Path out = dir.resolve("report");
        ReportGenerator.generate(results, out, 20, ConversionMode.NONE, Instant.EPOCH);
        String html = page(out);
        String table = html.substring(html.indexOf("id=\"sitting\""), html.indexOf("id=\"comparison\""));
        assertTrue(table.contains("Calibration: sitting " + S + "&#39;s warm-up, its last 40 s: bypass&#39;s closed-loop "
                + "maximum 160.0 tx/s at 20 clients, judged flat; set the fixed rate 120 req/s (0.75 of it) for 9 runs. It "
                + "measured no case's cost"), table);
        assertFalse(html.contains("Other calibrations"), "shown once, in its sitting's table");
        assertFalse(html.contains("not in this folder"), "no calibration run is missing: there was none");
    }

    @Test
    @DisplayName("no throughput chart at a fixed rate: no series, no file (an earlier report's deleted), no image, no column")
    void noThroughputChartAtAFixedRate(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report");
        Files.createDirectories(out);
        Files.writeString(out.resolve(HtmlReportRenderer.THROUGHPUT_PNG), "an earlier report's chart");
        report(dir);
        ReportModel m = ReportModel.of(ResultsDirectoryReader.read(dir.resolve("results"), ConversionMode.NONE), 20);
        assertFalse(m.hasClosedLoop());
        assertEquals(0, ThroughputChartRenderer.dataset(m).getSeriesCount());
        assertFalse(ReportGenerator.files(m).contains(HtmlReportRenderer.THROUGHPUT_PNG));
        assertFalse(Files.exists(out.resolve(HtmlReportRenderer.THROUGHPUT_PNG)), "the stale chart is gone");
        for (String f : ReportGenerator.files(m)) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        String html = page(out);
        assertFalse(html.contains("throughput.png"), "no image and no link");
        assertFalse(html.contains("id=\"throughput\""));
        assertFalse(html.contains("<th>throughput<br>tx/s</th>"), "the comparison has no throughput column");
        assertTrue(html.contains("Every run ran at a fixed rate, so throughput, the rate offered, is not compared."));
        assertTrue(html.contains("<img src=\"latency.png\"") && html.contains("<img src=\"cpu-per-tx.png\""),
                "the response-time and CPU charts stay");
        assertTrue(html.contains("id=\"attribution\""), "the MongoDB-path table stays");
    }

    @Test
    @DisplayName("the page opens with the answer, then the tables and charts, and explains the method below them")
    void orderOfSections(@TempDir Path dir) throws IOException {
        String html = page(report(dir));
        List<String> order = List.of("id=\"answer\"", "class=\"lead\"", "id=\"sitting\"", "id=\"comparison\"",
                "id=\"attribution\"", "id=\"latency\"", "id=\"cpu\"", "id=\"steps\"", "id=\"runs\"", "id=\"method\"",
                "id=\"skipped\"");
        int previous = -1;
        for (String id : order) {
            int at = html.indexOf(id);
            assertTrue(at > previous, id + " after the one before it");
            previous = at;
        }
        assertTrue(html.indexOf("id=\"answer\"") < html.indexOf("<h2"), "the answer before any section");
        // the answer: its heading and the sentences, escaped
        String answer = html.substring(html.indexOf("id=\"answer\""), html.indexOf("class=\"lead\""));
        assertTrue(answer.contains("<b>envoy, fixed rate 120 req/s (calibrated), 20 clients, switched sitting " + S
                + " (3 rounds)</b>, against bypass:"), answer);
        assertTrue(answer.contains("<b>sni</b>: +0.260 \u00b1 0.025 ms of mesh CPU per transaction on the MongoDB path "
                + "(+29.8 \u00b1 2.8 points of bypass&#39;s mesh CPU per transaction), P99 +2.3 \u00b1 1.4 ms, P50 not "
                + "distinguishable from noise at this sitting&#39;s precision (95 % interval -2.5 to +2.5 ms), from 3 "
                + "rounds.</li>"), answer);
        // the explanation: below every table and chart, with the method's words
        String method = html.substring(html.indexOf("id=\"method\""), html.indexOf("id=\"skipped\""));
        for (String words : List.of("<b>paired by round</b>", "t(0.975, n&nbsp;&minus;&nbsp;1)",
                "<b>points of bypass's mesh CPU per transaction</b>", "A <b>switched</b> sitting",
                "How bypass is switched (the mesh taken off the MongoDB path and put back): services re-pointed straight at "
                        + "MongoDB (PUT /admin/mongo); the sidecars&#39; MongoDB listeners idle.",
                "draws no throughput chart for fixed-rate runs", "<i>95&nbsp;% CI</i>: with repeated runs")) {
            assertTrue(method.contains(words), words);
        }
        String tables = html.substring(html.indexOf("id=\"comparison\""), html.indexOf("id=\"method\""));
        assertFalse(tables.contains("<i>95&nbsp;% CI</i>: with repeated runs"), "the comparison's explanation moved");
        assertFalse(tables.contains("s = √(Σ"), "the noise floor's formula moved");
    }

    @Test
    @DisplayName("the sitting table: rounds by cases, windows in position order with their switch seconds, rate and what switched")
    void sittingTable(@TempDir Path dir) throws IOException {
        Path out = report(dir);
        String html = page(out);
        String table = html.substring(html.indexOf("id=\"sitting\""), html.indexOf("id=\"comparison\""));
        assertTrue(table.contains("<tr><th>round</th><th><span class=\"swatch\""), table);
        Matcher m = Pattern.compile("#(\\d+) " + Pattern.quote(S) + "-(\\w+)-r(\\d)").matcher(table);
        List<String> windows = new ArrayList<>();
        while (m.find()) {
            windows.add(m.group(1) + " " + m.group(2) + " " + m.group(3));
        }
        assertEquals(List.of("1 bypass 1", "2 sidecar 1", "3 sni 1", "4 bypass 2", "5 sidecar 2", "6 sni 2", "7 bypass 3",
                "8 sidecar 3", "9 sni 3"), windows, "rows are rounds, columns the order, positions increase");
        assertTrue(table.contains("#1 " + S + "-bypass-r1<span class=\"spread\">opened the sitting</span>"), table);
        // switch seconds 1.5 + position / 10 (SwitchedSitting); what the switch changed, escaped, in the title
        assertTrue(table.contains("<td class=\"l\" title=\"switched to sni &lt;&amp;&gt;\">#6 " + S + "-sni-r2<span "
                + "class=\"spread\">switched in 2.1&nbsp;s</span><span class=\"spread\">120.0 of 120.0 req/s</span></td>"),
                table);
        List<String> csv = Files.readAllLines(out.resolve(HtmlReportRenderer.SITTING_CSV));
        assertEquals(String.join(",", CsvReportWriter.SITTING_HEADER), csv.get(0));
        assertEquals(S + ",switched,0,1,bypass," + S + "-calibration,envoy,true,,,,,160,", csv.get(1));
        assertEquals(S + ",switched,1,1,bypass," + S + "-bypass-r1,envoy,false,,120,120,true,120,", csv.get(2));
        assertEquals(S + ",switched,2,1,sidecar," + S + "-sidecar-r1,envoy,false,1.7,120,120,true,120,switched to "
                + "sidecar <&>", csv.get(3));
        assertEquals(11, csv.size(), "header, calibration, 9 windows");
    }

    @Test
    @DisplayName("answer.csv: what each sentence says as numbers, and the sentence")
    void answerCsv(@TempDir Path dir) throws IOException {
        List<String> csv = Files.readAllLines(report(dir).resolve(HtmlReportRenderer.ANSWER_CSV));
        assertEquals(String.join(",", CsvReportWriter.ANSWER_HEADER), csv.get(0));
        assertEquals(3, csv.size(), "sidecar and sni; bypass is the baseline");
        // hand-worked in AnswerTest: 0.26 ± 0.02484, 29.771 ± 2.8444 points, P99 2.3333 ± 1.4342, P50 0 ± 2.4841
        assertEquals("envoy,sni,20,120,switched," + S + ",round,3,3,3,0.26,0.0248,29.77,2.84,significant,2.333,1.434,"
                + "significant,0,2.484,within-noise,\"sni: +0.260 \u00b1 0.025 ms of mesh CPU per transaction on the MongoDB "
                + "path (+29.8 \u00b1 2.8 points of bypass's mesh CPU per transaction), P99 +2.3 \u00b1 1.4 ms, P50 not "
                + "distinguishable from noise at this sitting's precision (95 % interval -2.5 to +2.5 ms), from 3 rounds.\"",
                csv.get(2));
    }
}
