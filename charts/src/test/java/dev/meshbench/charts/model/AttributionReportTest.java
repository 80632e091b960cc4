package dev.meshbench.charts.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.ReportGenerator;
import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.render.CsvReportWriter;
import dev.meshbench.charts.render.HtmlReportRenderer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's page and attribution.csv show "Where the cost differs" of {@link AttributedSitting}. */
class AttributionReportTest {

    private static Path report(Path dir, int repeats) throws IOException {
        Path results = dir.resolve("results");
        AttributedSitting.write(results, repeats);
        Path out = dir.resolve("report");
        ReportGenerator.generate(results, out, 20, ConversionMode.NONE, Instant.EPOCH);
        return out;
    }

    @Test
    @DisplayName("the page has the table after the headline comparison, which points to it; sni's MongoDB path +30.2 ± 1.5 points")
    void page(@TempDir Path dir) throws IOException {
        String html = Files.readString(report(dir, 2).resolve("index.html")).replaceAll("\\s+", " ");
        int comparison = html.indexOf("id=\"comparison\"");
        int table = html.indexOf("id=\"attribution\"");
        int figures = html.indexOf("id=\"throughput\"");
        assertTrue(comparison >= 0 && comparison < table && table < figures, "order: comparison, attribution, figures");
        assertTrue(html.substring(comparison, table).contains("<a href=\"#attribution\">Where the cost differs</a>"),
                "the headline table says its totals include shared parts and points here");
        String section = html.substring(table, figures);
        for (String header : List.of("MongoDB path (differs between cases)", "shared by every case", "egress gateway",
                "SNI proxy", "sidecars&#39; MongoDB share", "ingress gateway", "sidecars&#39; HTTP share")) {
            assertTrue(section.contains(">" + header + "<"), header);
        }
        // sni's row: the MongoDB path 0.263 ms/tx, its change in points (hand-worked in AttributionTableTest)
        String sni = section.substring(section.indexOf("</span>sni</td>"));
        sni = sni.substring(0, sni.indexOf("</tr>"));
        assertTrue(sni.contains("<td class=\"sum\">0.263"), sni);
        assertTrue(sni.contains("<b>+30.2 \u00b1 1.5&nbsp;pts</b><span class=\"spread\">beyond noise</span>"), sni);
        assertTrue(section.contains("<a href=\"#method-attribution\">"), "the caption points to what a point is");
        assertTrue(section.contains("the shared parts moved 3.0&nbsp;% between repeats"), "noise floor, 3.05% by hand");
        assertTrue(section.contains("smallest difference a 95&nbsp;% interval tells from 0 is 13.1&nbsp;%"));
        assertTrue(section.contains("A 10&nbsp;% difference needs 3 runs per case"));
        assertTrue(section.contains("<a href=\"" + HtmlReportRenderer.ATTRIBUTION_CSV + "\">"));
        // what a point is and the noise floor's formulas are explained below the tables and charts
        String method = html.substring(html.indexOf("id=\"method\""));
        assertTrue(method.contains("percent of bypass's mean mesh CPU per transaction"), "what a point is");
        assertTrue(method.contains("n = 2 (z(0.975) + z(0.8))\u00b2 s\u00b2 / d\u00b2"), "the formula is stated");
        assertTrue(html.indexOf("id=\"method\"") > html.indexOf("id=\"runs\""), "after the last table");
    }

    @Test
    @DisplayName("one run per case: the page says no interval can be given and how many repeats to run")
    void pageWithOneRun(@TempDir Path dir) throws IOException {
        String html = Files.readString(report(dir, 1).resolve("index.html")).replaceAll("\\s+", " ");
        String section = html.substring(html.indexOf("id=\"attribution\""), html.indexOf("id=\"throughput\""));
        assertTrue(section.contains("each case ran once: no interval can be given"), section);
        assertTrue(section.contains("Run at least 2 repeats (meshbench.repeats=2)"), section);
        assertTrue(section.contains("e.g. 6 when the shared parts move 5&nbsp;% between repeats"), "the t-corrected "
                + "count for 5% noise, hand-worked in NoiseFloorTest");
        assertTrue(section.contains("<span class=\"spread\">no interval</span>"), section);
    }

    @Test
    @DisplayName("attribution.csv: a row per case and part, the sides' totals, changes in ms/tx and in points")
    void csv(@TempDir Path dir) throws IOException {
        List<String> lines = Files.readAllLines(report(dir, 2).resolve(HtmlReportRenderer.ATTRIBUTION_CSV));
        assertEquals(String.join(",", CsvReportWriter.ATTRIBUTION_HEADER), lines.get(0));
        assertEquals(1 + 3 * 7, lines.size(), "3 cases x (5 parts + 2 totals)");
        String label = ReportModel.of(dev.meshbench.charts.load.ResultsDirectoryReader.read(dir.resolve("results"),
                ConversionMode.NONE), 20).dataPlanes().get(0);
        // sni's MongoDB path: 0.263 (0.262-0.264, ± t(0.975, 1) · 0.001 = 0.0127), +0.263 ± 0.0127 against bypass's
        // zeros, significant, 30.23 ± 1.46 points of bypass's 0.870 ms/tx
        assertTrue(lines.contains("sni," + label + ",20,2,mongo-path,mongo-path,0.263,0.262,0.264,0.0127,0.263,0.0127,"
                + "significant,30.23,1.46,"), String.join("\n", lines));
        // mtls' ingress gateway: 0.35, -0.01 ± 0.0608 within noise, -1.15 ± 6.99 points (0.010 / 0.870, 0.060849 / 0.870)
        assertTrue(lines.contains("mtls," + label + ",20,2,ingress-gateway,shared,0.35,0.34,0.36,0.1271,-0.01,0.0608,"
                + "within-noise,-1.15,6.99,"), String.join("\n", lines));
        assertTrue(lines.contains("bypass," + label + ",20,2,mongo-path,mongo-path,0,0,0,0,,,,,,"), "bypass: 0, no change");
        // a locale with decimal commas changes nothing
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("ru-RU"));
        try {
            ReportModel m = ReportModel.of(dev.meshbench.charts.load.ResultsDirectoryReader.read(dir.resolve("results"),
                    ConversionMode.NONE), 20);
            assertEquals(String.join("\n", lines) + "\n", CsvReportWriter.attribution(m));
        } finally {
            Locale.setDefault(before);
        }
    }
}
