package dev.meshbench.jmeter.timers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.RampSchedule;
import dev.meshbench.jmeter.workload.StepRates;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StepRatePacerTest {
    private static final long MS = 1_000_000L;

    @Test
    @DisplayName("at 100 req/s requests take slots 10 ms apart; a late request goes at once and the schedule does not catch up")
    void slots() {
        StepRatePacer p = new StepRatePacer(100);
        assertEquals(0, p.waitNanos(1_000 * MS));          // first: its slot is now
        assertEquals(10 * MS, p.waitNanos(1_000 * MS));    // three at once: 0, 10, 20 ms
        assertEquals(20 * MS, p.waitNanos(1_000 * MS));
        assertEquals(5 * MS, p.waitNanos(1_025 * MS));     // next slot 1030, asked at 1025
        assertEquals(0, p.waitNanos(1_100 * MS));          // slot 1040 long past: goes now, no burst to catch up
        assertEquals(10 * MS, p.waitNanos(1_100 * MS));    // and the next slot is 1110
    }

    private static Properties props(String clients, String rate) {
        Properties p = new Properties();
        p.setProperty("clients", clients);
        p.setProperty("step.seconds", "10");
        if (rate != null) {
            p.setProperty("rate", rate);
        }
        return p;
    }

    @Test
    @DisplayName("the rate property: none, one for every step, or one per step; each step finds its own by client count")
    void rates() {
        Properties none = props("1,5", null);
        RampSchedule ramp = RampSchedule.fromProperties(none);
        assertEquals(List.of(), StepRates.fromProperties(none, ramp).perStep());
        assertEquals(List.of(300.0, 300.0), StepRates.fromProperties(props("1,5", "300"), ramp).perStep());
        StepRates two = StepRates.fromProperties(props("1,5", "50, 200.5"), ramp);
        assertEquals(Optional.of(200.5), two.ofStep(ramp, 5));
        assertEquals(Optional.empty(), two.ofStep(ramp, 7));
        assertEquals("fixed rate 50, 200.5 req/s", two.summary());
    }

    @Test
    @DisplayName("a bad rate names the property and the rule")
    void refused() {
        RampSchedule ramp = RampSchedule.fromProperties(props("1,5", null));
        for (String bad : List.of("x", "0", "-3", "1,2,3", "10,")) {
            InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                    () -> StepRates.fromProperties(props("1,5", bad), ramp), bad);
            assertEquals(true, e.getMessage().startsWith("rate=" + bad), e.getMessage());
        }
    }
}
