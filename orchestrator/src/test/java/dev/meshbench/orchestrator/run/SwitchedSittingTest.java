package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.model.EgressCase;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SwitchedSittingTest {
    @Test
    @DisplayName("a round runs bypass first, always, then the other cases in the study's order")
    void roundOrder() {
        assertEquals(List.of(EgressCase.BYPASS, EgressCase.SNI), SwitchedSitting.order(List.of(EgressCase.SNI)));
        assertEquals(List.of(EgressCase.BYPASS, EgressCase.GATEWAY, EgressCase.SNI),
                SwitchedSitting.order(List.of(EgressCase.SNI, EgressCase.BYPASS, EgressCase.GATEWAY)));
        assertEquals(List.of(EgressCase.values()), SwitchedSitting.order(List.of(EgressCase.values())));
    }

    @Test
    @DisplayName("each window's samples carry its case and round as their phase")
    void phase() {
        assertEquals("mtls-3", SwitchedSitting.phase(EgressCase.MTLS, 3));
    }
}
