package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.meshbench.jmeter.workload.WorkloadProperties;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * jmeter-plans depends on no kit module, so it keeps its own defaults for JMeter run without the kit (the GUI, plain
 * {@code jmeter}, its {@code load} profile): the study's ramp and dataset, the kit's workload. A kit run passes every
 * one of them explicitly ({@link JMeterLoad#properties}); this test keeps all three copies in jmeter-plans
 * ({@link WorkloadProperties#DEFAULTS}, the plan's {@code __P} defaults, its POM's properties) equal to RunSettings's.
 */
class WorkloadPlanDefaultsTest {
    private static final Path PLANS = Path.of(System.getProperty("basedir", ".")).resolve("../jmeter-plans").normalize();

    /** What each plan property must default to: the study's ramp and customers, the kit's other workload defaults. */
    private static final Map<String, String> EXPECTED = Map.of(
            WorkloadProperties.CLIENTS, RunSettings.STUDY.get(RunSettings.P_CLIENTS),
            WorkloadProperties.STEP_SECONDS, RunSettings.STUDY.get(RunSettings.P_STEP_SECONDS),
            WorkloadProperties.CUSTOMERS, RunSettings.STUDY.get(RunSettings.P_CUSTOMERS),
            WorkloadProperties.THINK_MS, RunSettings.DEFAULTS.get(RunSettings.P_THINK_MS),
            WorkloadProperties.FLIGHT_DAYS, RunSettings.DEFAULTS.get(RunSettings.P_FLIGHT_DAYS),
            WorkloadProperties.REWARDS_PERCENT, RunSettings.DEFAULTS.get(RunSettings.P_REWARDS_PERCENT),
            WorkloadProperties.WORKLOAD, RunSettings.DEFAULTS.get(RunSettings.P_WORKLOAD));

    @Test
    @DisplayName("WorkloadProperties.DEFAULTS equal RunSettings's study ramp and workload defaults")
    void workloadPropertiesDefaults() {
        EXPECTED.forEach((name, value) -> assertEquals(value, WorkloadProperties.DEFAULTS.get(name), "WorkloadProperties default of " + name));
    }

    @Test
    @DisplayName("every ${__P(name,default)} in acmeair.jmx for a workload property defaults to RunSettings's value")
    void planFunctionDefaults() throws IOException {
        String jmx = Files.readString(PLANS.resolve("src/main/jmeter/acmeair.jmx"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\\$\\{__P\\(([^,)]+),([^)]*)\\)\\}").matcher(jmx);
        int checked = 0;
        while (m.find()) {
            if (EXPECTED.containsKey(m.group(1))) {
                assertEquals(EXPECTED.get(m.group(1)), m.group(2), "acmeair.jmx: " + m.group());
                checked++;
            }
        }
        assertFalse(checked == 0, "found no ${__P(...)} default of a workload property in acmeair.jmx");
    }

    @Test
    @DisplayName("jmeter-plans' POM properties (its load profile's defaults) equal RunSettings's")
    void pomProperties() throws IOException {
        String pom = Files.readString(PLANS.resolve("pom.xml"), StandardCharsets.UTF_8);
        for (Map.Entry<String, String> e : EXPECTED.entrySet()) {
            Matcher m = Pattern.compile("<" + Pattern.quote(e.getKey()) + ">([^<]*)</" + Pattern.quote(e.getKey()) + ">").matcher(pom);
            if (m.find()) {
                assertEquals(e.getValue(), m.group(1), "jmeter-plans/pom.xml <" + e.getKey() + ">");
            }
        }
    }
}
