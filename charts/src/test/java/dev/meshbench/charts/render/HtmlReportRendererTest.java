package dev.meshbench.charts.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.ResultsDirectoryReader;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.model.ReportTables;
import dev.meshbench.charts.study.PublishedFigures;
import io.pebbletemplates.pebble.error.PebbleException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HtmlReportRendererTest {
    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
    private static ReportModel model;

    @BeforeAll
    static void readSamples() throws IOException {
        model = ReportModel.of(ResultsDirectoryReader.read(Path.of("src/test/resources/results"), ConversionMode.NONE),
                20);
    }

    @Test
    @DisplayName("the comparison quotes the study's throughput losses from the data file")
    void studySentenceFromTheDataFile() {
        assertTrue(page(PublishedFigures.load().egress()).contains(" (better). The study reports about -10&nbsp;% "
                + "throughput for mtls and -24&nbsp;% for sni. <i>95&nbsp;% CI</i>"));
    }

    @Test
    @DisplayName("the study's sentence lists every case it gave a loss for, and is left out when it gave none")
    void studySentenceForOtherFigures() {
        PublishedFigures.EgressStudy three = study(List.of(
                new PublishedFigures.CaseFinding("bypass", BigDecimal.ZERO, "baseline"),
                new PublishedFigures.CaseFinding("gateway", new BigDecimal("-2.5"), "g"),
                new PublishedFigures.CaseFinding("mtls", new BigDecimal("-10.0"), "m"),
                new PublishedFigures.CaseFinding("sni", new BigDecimal("-24"), "s")));
        assertTrue(page(three).contains(" The study reports about -2.5&nbsp;% throughput for gateway, -10&nbsp;% for "
                + "mtls and -24&nbsp;% for sni. "));
        String none = page(study(List.of(new PublishedFigures.CaseFinding("sidecar", null, "close"))));
        assertFalse(none.contains("The study reports"), "no sentence without a loss");
        assertTrue(none.contains(" (better). <i>95&nbsp;% CI</i>"), "and nothing in its place");
    }

    @Test
    @DisplayName("a variable the template uses but the renderer did not give fails the page, naming it")
    void strictVariables() {
        Map<String, Object> context = new HashMap<>(HtmlReportRenderer.context(ReportTables.of(model), NOW));
        context.remove("markedChange");
        PebbleException e = assertThrows(PebbleException.class, () -> Templates.render("report", context));
        assertTrue(e.getMessage().contains("[markedChange] does not exist"), e.getMessage());
        assertTrue(e.getMessage().contains("report"), "names the template: " + e.getMessage());
    }

    @Test
    @DisplayName("a value is escaped in text and in attributes; what the template itself wrote is not")
    void escaping() {
        Map<String, Object> context = new HashMap<>(HtmlReportRenderer.context(ReportTables.of(model), NOW));
        context.put("directory", "<b>\"Tom\" & 'Jerry'</b>");
        context.put("files", Map.of("throughput", "a\"b.png", "latency", "l.png", "cpu", "c.png", "steps", "s.csv",
                "labels", "la.csv", "labelsChart", "lp.png", "comparison", "c.csv", "attribution", "a.csv", "answer", "an.csv",
                "sitting", "si.csv"));
        String html = Templates.render("report", context);
        assertTrue(html.contains("read from <code>&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;</code>."), "text");
        assertTrue(html.contains("<img src=\"a&quot;b.png\" width=\"1000\""), "attribute");
        assertTrue(html.contains("<a href=\"#attribution\">Where the cost differs</a>"), "the template's own markup");
        assertEquals(-1, html.indexOf("<b>\"Tom\""));
    }

    private static String page(PublishedFigures.EgressStudy study) {
        return HtmlReportRenderer.render(ReportTables.of(model, study), NOW).replaceAll("\\s+", " ");
    }

    private static PublishedFigures.EgressStudy study(List<PublishedFigures.CaseFinding> cases) {
        return new PublishedFigures.EgressStudy("t", "s", "m", cases);
    }
}
