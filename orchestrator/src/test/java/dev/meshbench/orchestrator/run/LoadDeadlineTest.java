package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** When a load that runs far past its plan is stopped, and what the run's failure then says. */
class LoadDeadlineTest {
    @Test
    @DisplayName("a 40-s load may run twice its plan plus 90 s; one millisecond more and it is stopped")
    void limit() {
        LoadDeadline d = new LoadDeadline(40);
        assertEquals(170, d.limitSeconds());
        assertEquals(Optional.empty(), d.exceeded(0, ""));
        assertEquals(Optional.empty(), d.exceeded(169_999, "step 1/4 (1 clients)"));
        assertEquals(Optional.empty(), d.exceeded(170_000, "step 1/4 (1 clients)"));
        assertTrue(d.exceeded(170_001, "step 1/4 (1 clients)").isPresent());
    }

    @Test
    @DisplayName("the issue's run: 100000 clients, 4 steps of 10 s, still in step 2 after 9.5 minutes: stopped with a named reason")
    void grossOverrunReason() {
        assertEquals("the load ran 9m30s, more than twice its planned 40s plus 1m30s: stopped at step 2/4 (100000 clients); "
                        + "too many clients for this machine, or answers far slower than the steps",
                new LoadDeadline(40).exceeded(570_000, "step 2/4 (100000 clients)").orElseThrow());
        assertEquals("the load ran 5m00s, more than twice its planned 1m20s plus 1m30s: stopped; too many clients for this "
                + "machine, or answers far slower than the steps", new LoadDeadline(80).exceeded(300_000, "").orElseThrow());
    }

    @Test
    @DisplayName("the study's plan (8 steps of 300 s) is not stopped at 1.5 times its length")
    void longPlans() {
        LoadDeadline study = new LoadDeadline(2400);
        assertEquals(Optional.empty(), study.exceeded(3600_000, "step 8/8 (60 clients)"));
        assertTrue(study.exceeded(4891_000, "step 8/8 (60 clients)").isPresent());
        assertThrows(IllegalArgumentException.class, () -> new LoadDeadline(0));
    }
}
