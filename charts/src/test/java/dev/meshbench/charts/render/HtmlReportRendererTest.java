package dev.meshbench.charts.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.charts.study.PublishedFigures;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HtmlReportRendererTest {
    @Test
    @DisplayName("the comparison quotes the study's throughput losses from the data file")
    void studySentenceFromTheDataFile() {
        assertEquals(" The study reports about -10\u00a0% throughput for mtls and -24\u00a0% for sni.",
                HtmlReportRenderer.studySentence(PublishedFigures.load().egress()));
    }

    @Test
    @DisplayName("the study's sentence lists every case it gave a loss for, and is empty when it gave none")
    void studySentenceForOtherFigures() {
        PublishedFigures.EgressStudy three = study(List.of(
                new PublishedFigures.CaseFinding("bypass", BigDecimal.ZERO, "baseline"),
                new PublishedFigures.CaseFinding("gateway", new BigDecimal("-2.5"), "g"),
                new PublishedFigures.CaseFinding("mtls", new BigDecimal("-10.0"), "m"),
                new PublishedFigures.CaseFinding("sni", new BigDecimal("-24"), "s")));
        assertEquals(" The study reports about -2.5\u00a0% throughput for gateway, -10\u00a0% for mtls and -24\u00a0% "
                + "for sni.", HtmlReportRenderer.studySentence(three));
        assertEquals("", HtmlReportRenderer.studySentence(study(List.of(
                new PublishedFigures.CaseFinding("sidecar", null, "close")))));
    }

    private static PublishedFigures.EgressStudy study(List<PublishedFigures.CaseFinding> cases) {
        return new PublishedFigures.EgressStudy("t", "s", "m", cases);
    }
}
