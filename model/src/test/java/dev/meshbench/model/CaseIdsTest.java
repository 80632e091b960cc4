package dev.meshbench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CaseIdsTest {
    @Test
    @DisplayName("case ids are distinct lower-case words, usable in a profile id, a folder name and .ci/run's [a-z]* pattern")
    void idsAreDistinctWords() {
        assertEquals(CaseIds.ALL.size(), Set.copyOf(CaseIds.ALL).size(), "duplicate case id in " + CaseIds.ALL);
        for (String id : CaseIds.ALL) {
            assertTrue(id.matches("[a-z]+"), "case id '" + id + "' is not a lower-case word");
        }
    }

    @Test
    @DisplayName("the baseline (bypass) is the first case")
    void baselineFirst() {
        assertEquals(CaseIds.BYPASS, CaseIds.ALL.get(0));
        assertEquals(EgressCase.BYPASS, EgressCase.values()[0]);
    }
}
