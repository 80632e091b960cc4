package dev.meshbench.charts.study;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.ResultsSchema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PublishedFiguresTest {
    @Test
    @DisplayName("the egress study: bypass 0, sidecar and gateway close to it, mtls -10 %, sni -24 % of throughput")
    void egress() {
        PublishedFigures.EgressStudy egress = PublishedFigures.load().egress();
        assertEquals(List.of("bypass", "sidecar", "gateway", "mtls", "sni"),
                egress.cases().stream().map(PublishedFigures.CaseFinding::caseId).toList());
        assertEquals(0, egress.finding(ResultsSchema.BASELINE_CASE).orElseThrow().throughputChangePercent().signum());
        assertNull(egress.finding("sidecar").orElseThrow().throughputChangePercent());
        assertNull(egress.finding("gateway").orElseThrow().throughputChangePercent());
        assertEquals(new BigDecimal("-10"), egress.finding("mtls").orElseThrow().throughputChangePercent());
        assertEquals(new BigDecimal("-24"), egress.finding("sni").orElseThrow().throughputChangePercent());
        assertEquals(List.of("mtls", "sni"), egress.throughputLosses().stream()
                .map(PublishedFigures.CaseFinding::caseId).toList());
        assertTrue(egress.source().startsWith("https://istio.io/"), egress.source());
    }

    @Test
    @DisplayName("the latency gist: 16 rows as published, in seconds, with its address")
    void latencyGist() {
        PublishedFigures.LatencyGist gist = PublishedFigures.load().latencyGist();
        assertEquals(16, gist.rows().size());
        assertEquals("https://gist.github.com/therealmitchconnors/9a0a8230a5f4c5d5738917d6e836983e", gist.source());
        PublishedFigures.GistRecord first = gist.rows().get(0);
        assertEquals(new PublishedFigures.GistRecord("single", 1, "No", "No", new BigDecimal("0.002662"),
                new BigDecimal("0.000612"), new BigDecimal("64000")), first);
    }

    @Test
    @DisplayName("a data file with an unknown field or a missing figure is refused, naming the file")
    void refused() {
        IllegalStateException unknown = assertThrows(IllegalStateException.class, () -> PublishedFigures.parse("f.json",
                "{\"about\":[],\"egress\":{},\"latencyGist\":{},\"extra\":1}".getBytes(StandardCharsets.UTF_8)));
        assertTrue(unknown.getMessage().startsWith("f.json: "), unknown.getMessage());
        IllegalStateException missing = assertThrows(IllegalStateException.class, () -> PublishedFigures.parse("f.json",
                ("{\"about\":[],\"egress\":{\"title\":\"t\",\"source\":\"s\",\"method\":\"m\",\"cases\":[{\"caseId\":"
                        + "\"sni\",\"throughputChangePercent\":-24}]},\"latencyGist\":{}}").getBytes(StandardCharsets.UTF_8)));
        assertTrue(missing.getMessage().startsWith("f.json: ") && missing.getMessage().contains("finding"),
                missing.getMessage());
    }
}
