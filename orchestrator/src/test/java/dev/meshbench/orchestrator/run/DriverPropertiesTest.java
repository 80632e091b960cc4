package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.WorkloadProperties;
import dev.meshbench.jmeter.workload.WorkloadSettings;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Setting;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The driver's properties travel as one set from the kit's settings to the JMeter plan: the kit (a {@code meshbench.*}
 * setting, read by {@link EgressRunSettings}) and the plan's plugin ({@link WorkloadSettings}, what the plan's validator
 * runs before any thread starts) accept the same values and refuse the same ones for the same reason.
 */
class DriverPropertiesTest {
    private static final EgressRunSettings.Host HOST = new EgressRunSettings.Host(2, 65_536, "");

    private static EgressRunSettings kit(Map<String, String> given) {
        Map<String, String> m = new HashMap<>(given);
        m.put("meshbench.cases", "sni");
        return EgressRunSettings.fromProperties(m, Path.of("results"), HOST);
    }

    private static Properties jmeter(Map<String, String> given) {
        Properties p = new Properties();
        p.putAll(given);
        return p;
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "meshbench.rewardsPercent|ten", "meshbench.rewardsPercent|101", "meshbench.rewardsPercent|-5",
        "meshbench.rewardsPercent|1e1", "meshbench.rewardsPercent|10%", "meshbench.rewardsPercent|NaN",
        "meshbench.rewardsPercent|5,5", "meshbench.rewardsPercent|''",
        "meshbench.thinkTimeMs|-1", "meshbench.thinkTimeMs|x",
        "meshbench.customers|0", "meshbench.customers|1000001",
        "meshbench.flightDays|1", "meshbench.flightDays|367",
        "meshbench.workload|oneway",
        "meshbench.clients|1,x", "meshbench.clients|0", "meshbench.clients|5,5",
        "meshbench.stepSeconds|0"})
    @DisplayName("a bad driver value is refused by the kit and by the plan, for the same reason, each naming its own property")
    void refusedTheSameWayOnBothSides(String setting, String value) {
        Setting<?> s = Catalogue.byName(setting).orElseThrow();
        String jmeterName = s.jmeterName();

        String kitMessage = assertThrows(IllegalArgumentException.class, () -> kit(Map.of(setting, value))).getMessage();
        InvalidWorkloadPropertyException plan = assertThrows(InvalidWorkloadPropertyException.class,
                () -> WorkloadSettings.fromProperties(jmeter(Map.of(jmeterName, value))));

        String kitPrefix = setting + "=" + value.trim() + ": ";
        String planPrefix = jmeterName + "=" + value.trim() + ": ";
        assertTrue(kitMessage.startsWith(kitPrefix), kitMessage);
        assertTrue(plan.getMessage().startsWith(planPrefix), plan.getMessage());
        assertEquals(jmeterName, plan.property());
        assertEquals(kitMessage.substring(kitPrefix.length()), plan.getMessage().substring(planPrefix.length()));
    }

    @Test
    @DisplayName("a decimal percent given to the kit reaches the plan as the same percent")
    void decimalPercentTravels() {
        EgressRunSettings s = kit(Map.of("meshbench.rewardsPercent", "2.5", "meshbench.thinkTimeMs", "7",
                "meshbench.workload", "roundtrip", "meshbench.flightDays", "9"));
        WorkloadSettings plan = WorkloadSettings.fromProperties(jmeter(s.driver()));
        assertEquals(2.5, plan.rewardsPercent());
        assertEquals(7, plan.thinkMs());
        assertEquals("roundtrip", plan.mix());
        assertEquals(9, plan.flightDays());
        assertTrue(plan.summary().contains("viewRewards in 2.5% of rounds"), plan.summary());
    }

    @Test
    @DisplayName("the kit passes every driver property, and the plan's defaults are the catalogue's, study values first")
    void everyDriverPropertyHasOneHome() {
        Map<String, String> driver = kit(Map.of()).driver();
        List<String> names = Catalogue.DRIVER.stream().map(Setting::jmeterName).toList();
        assertEquals(names, List.copyOf(driver.keySet()));
        for (Setting<?> d : Catalogue.DRIVER) {
            String name = d.jmeterName();
            assertEquals(d.studyValue().or(d::defaultValue).orElseThrow(), WorkloadProperties.DEFAULTS.get(name), name);
            assertEquals(d.defaultValue().orElseThrow(), driver.get(name), name);
        }
        Map<String, String> study = kit(Map.of("meshbench.study", "true")).driver();
        assertEquals("1,5,10,20,30,40,50,60", study.get("clients"));
        assertEquals("10000", study.get("customers"));
    }
}
