package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.meshbench.model.EgressCase;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SwitchedSittingTest {
    @Test
    @DisplayName("the first round runs bypass first, then the other cases in the study's order")
    void order() {
        assertEquals(List.of(EgressCase.BYPASS, EgressCase.SNI), SwitchedSitting.order(List.of(EgressCase.SNI)));
        assertEquals(List.of(EgressCase.BYPASS, EgressCase.GATEWAY, EgressCase.SNI),
                SwitchedSitting.order(List.of(EgressCase.SNI, EgressCase.BYPASS, EgressCase.GATEWAY)));
        assertEquals(List.of(EgressCase.values()), SwitchedSitting.order(List.of(EgressCase.values())));
    }

    @Test
    @DisplayName("every second round runs the other way round, so a steady drift falls on every case alike over two rounds")
    void alternatingRounds() {
        List<EgressCase> order = List.of(EgressCase.BYPASS, EgressCase.SIDECAR, EgressCase.SNI);
        assertEquals(order, SwitchedSitting.roundOrder(order, 1));
        assertEquals(List.of(EgressCase.SNI, EgressCase.SIDECAR, EgressCase.BYPASS), SwitchedSitting.roundOrder(order, 2));
        assertEquals(order, SwitchedSitting.roundOrder(order, 3));
        // a linear drift d per window: over rounds 1 and 2 every case's windows sit at the same mean place
        for (EgressCase c : order) {
            int places = SwitchedSitting.roundOrder(order, 1).indexOf(c) + order.size() + SwitchedSitting.roundOrder(order, 2).indexOf(c);
            assertEquals(2 * order.size() - 1, places, c.id());
        }
        assertThrows(IllegalArgumentException.class, () -> SwitchedSitting.roundOrder(order, 0));
    }

    @Test
    @DisplayName("each window's samples carry its case and round as their phase")
    void phase() {
        assertEquals("mtls-3", SwitchedSitting.phase(EgressCase.MTLS, 3));
    }
}
