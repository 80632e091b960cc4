package dev.meshbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.model.CaseIds;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ResultsSchemaCaseOrderTest {
    @Test
    @DisplayName("the baseline is the first case, and unknown ids sort after every known one")
    void baselineFirstUnknownLast() {
        assertEquals(CaseIds.ALL.get(0), ResultsSchema.BASELINE_CASE);
        for (String id : CaseIds.ALL) {
            assertEquals(CaseIds.ALL.indexOf(id), ResultsSchema.caseOrder(id), id);
        }
        assertEquals(CaseIds.ALL.size(), ResultsSchema.caseOrder("istio"));
    }
}
