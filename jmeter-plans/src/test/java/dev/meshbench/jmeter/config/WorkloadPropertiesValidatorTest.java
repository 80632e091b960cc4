package dev.meshbench.jmeter.config;

import static dev.meshbench.jmeter.TestProperties.props;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.WorkloadSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WorkloadPropertiesValidatorTest {

    private final List<InvalidWorkloadPropertyException> reported = new ArrayList<>();

    private WorkloadPropertiesValidator validator() {
        WorkloadPropertiesValidator v = new WorkloadPropertiesValidator();
        v.setOnInvalid(reported::add);
        return v;
    }

    @Test
    @DisplayName("accepts a valid ramp and reports nothing")
    void acceptsValid() {
        WorkloadSettings s = validator().validate(props("clients", "1,2", "step.seconds", "5", "customers", "50"));
        assertNotNull(s);
        assertEquals(List.of(), reported);
    }

    @Test
    @DisplayName("reports an empty client list naming clients")
    void reportsEmptyClients() {
        assertNull(validator().validate(props("clients", "")));
        assertEquals(1, reported.size());
        assertEquals("clients", reported.get(0).property());
    }

    @Test
    @DisplayName("reports a rewards percentage JMeter would misread, naming rewards.percent")
    void reportsBadRewardsPercent() {
        assertNull(validator().validate(props("clients", "1", "rewards.percent", "10%")));
        assertEquals("rewards.percent=10%: is not a percent; give a number from 0 to 100 such as 5 or 2.5 (0 = never)",
                reported.get(0).getMessage());
    }

    @Test
    @DisplayName("reports a negative step duration naming step.seconds")
    void reportsNegativeDuration() {
        assertNull(validator().validate(props("clients", "1", "step.seconds", "-30")));
        assertEquals("step.seconds=-30: must be 1 or more seconds", reported.get(0).getMessage());
    }
}
