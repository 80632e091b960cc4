package dev.meshbench.jmeter.workload;

import static dev.meshbench.jmeter.TestProperties.props;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RampScheduleTest {

    @Test
    @DisplayName("reads the client steps and step length, spaces allowed")
    void readsStepsAndLength() {
        RampSchedule ramp = RampSchedule.fromProperties(props("clients", " 1, 5 ,10", "step.seconds", "30"));
        assertEquals(List.of(1, 5, 10), ramp.clients());
        assertEquals(30, ramp.stepSeconds());
        assertEquals(90, ramp.totalSeconds());
    }

    @Test
    @DisplayName("gives each of the 12 thread groups its step's clients, 0 past the end of the ramp")
    void clientsPerThreadGroup() {
        RampSchedule ramp = new RampSchedule(List.of(1, 5, 10), 5);
        assertEquals(1, ramp.clientsOfStep(1));
        assertEquals(10, ramp.clientsOfStep(3));
        assertEquals(0, ramp.clientsOfStep(4));
        assertEquals(0, ramp.clientsOfStep(RampSchedule.MAX_STEPS));
        assertThrows(IllegalArgumentException.class, () -> ramp.clientsOfStep(13));
    }

    @Test
    @DisplayName("uses the study's ramp when the properties are absent")
    void studyDefaults() {
        RampSchedule ramp = RampSchedule.fromProperties(new Properties());
        assertEquals(List.of(1, 5, 10, 20, 30, 40, 50, 60), ramp.clients());
        assertEquals(300, ramp.stepSeconds());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "1,,5", "1,five", "abc", "1.5", "1;5"})
    @DisplayName("rejects an empty or non-numeric client list, naming the clients property")
    void rejectsBadClientLists(String value) {
        InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                () -> RampSchedule.fromProperties(props("clients", value)));
        assertEquals("clients", e.property());
        assertTrue(e.getMessage().startsWith("clients="), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1,-5", "1,5,1", "1,2,3,4,5,6,7,8,9,10,11,12,13"})
    @DisplayName("rejects zero, negative, repeated or more than 12 client counts")
    void rejectsBadClientCounts(String value) {
        InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                () -> RampSchedule.fromProperties(props("clients", value)));
        assertEquals("clients", e.property());
    }

    @Test
    @DisplayName("says why a repeated client count is refused")
    void explainsRepeatedCounts() {
        InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                () -> RampSchedule.fromProperties(props("clients", "5,10,5")));
        assertEquals("clients=5,10,5: client counts must be distinct (each one names its step in the results)",
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "0", "", "ten", "2.5"})
    @DisplayName("rejects a negative, zero or non-numeric step length, naming step.seconds")
    void rejectsBadStepLength(String value) {
        InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                () -> RampSchedule.fromProperties(props("clients", "1", "step.seconds", value)));
        assertEquals("step.seconds", e.property());
        assertTrue(e.getMessage().startsWith("step.seconds=" + value + ": "), e.getMessage());
    }
}
