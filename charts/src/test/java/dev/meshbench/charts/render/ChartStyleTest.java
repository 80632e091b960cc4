package dev.meshbench.charts.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.model.CaseIds;
import java.awt.Paint;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ChartStyleTest {
    @Test
    @DisplayName("every case of CaseIds has a color of its own, and no other id has one")
    void oneColorPerCase() {
        assertEquals(Set.copyOf(CaseIds.ALL), ChartStyle.coloredCases(),
                "ChartStyle's CASE_COLORS must name exactly the cases of CaseIds.ALL");
        List<Paint> colors = CaseIds.ALL.stream().map(ChartStyle::caseColor).toList();
        assertEquals(CaseIds.ALL.size(), Set.copyOf(colors).size(), "two cases share a color: " + colors);
    }

    @Test
    @DisplayName("an unknown case id still gets a color, the same every time")
    void unknownCaseGetsAStableColor() {
        assertEquals(ChartStyle.caseColor("istio"), ChartStyle.caseColor("istio"));
    }
}
