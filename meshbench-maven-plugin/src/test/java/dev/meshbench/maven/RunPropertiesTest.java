package dev.meshbench.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.run.RunSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link RunProperties#collect}: the POM's (and profiles') properties, then the JVM's system properties, then the
 * user's {@code -D}, each later source overriding the earlier ones; only {@code meshbench.*} names are kept.
 */
class RunPropertiesTest {
    private static final String KEY = RunSettings.P_STEP_SECONDS;

    private static Map<String, String> collect(Map<String, String> pom, Map<String, String> system, Map<String, String> user) {
        return RunProperties.collect(Builds.project(pom), Builds.session(system, user));
    }

    @Test
    @DisplayName("-D (a user property) wins over a system property and over the POM")
    void userPropertyWinsOverEverything() {
        assertEquals("30", collect(Map.of(KEY, "10"), Map.of(KEY, "20"), Map.of(KEY, "30")).get(KEY));
    }

    @Test
    @DisplayName("a JVM system property (MAVEN_OPTS=-D...) wins over the POM and its profiles, not over -D")
    void systemPropertyWinsOverThePomButNotOverUserProperties() {
        assertEquals("20", collect(Map.of(KEY, "10"), Map.of(KEY, "20"), Map.of()).get(KEY));
        assertEquals("30", collect(Map.of(), Map.of(KEY, "20"), Map.of(KEY, "30")).get(KEY));
    }

    @Test
    @DisplayName("the POM's value (e.g. a profile's meshbench.study) applies when nothing overrides it")
    void pomValueWhenNothingOverrides() {
        assertEquals("10", collect(Map.of(KEY, "10"), Map.of(), Map.of()).get(KEY));
    }

    @Test
    @DisplayName("sources are merged per property: each property takes its own highest source")
    void mergedPerProperty() {
        Map<String, String> p = collect(Map.of(KEY, "10", RunSettings.P_CUSTOMERS, "7"), Map.of(RunSettings.P_FLIGHT_DAYS, "3"),
                Map.of(RunSettings.P_CLIENTS, "1,2"));
        assertEquals(Map.of(KEY, "10", RunSettings.P_CUSTOMERS, "7", RunSettings.P_FLIGHT_DAYS, "3", RunSettings.P_CLIENTS, "1,2"), p);
    }

    @Test
    @DisplayName("only meshbench.* names are collected (not clients, java.home or env.*)")
    void onlyMeshbenchProperties() {
        Map<String, String> p = collect(Map.of("clients", "1", "project.build.sourceEncoding", "UTF-8"),
                Map.of("java.home", "/jdk", "env.PATH", "/bin"), Map.of("step.seconds", "5", "meshbenchx", "1"));
        assertEquals(Map.of(), p);
    }

    @Test
    @DisplayName("a property set nowhere stays absent, so RunSettings's default applies")
    void absentTakesRunConfigDefault() {
        Map<String, String> p = collect(Map.of(), Map.of(), Map.of());
        assertFalse(p.containsKey(KEY));
        RunSettings c = config(p, "sni", Path.of("/checkout"));
        assertEquals(Integer.parseInt(RunSettings.DEFAULTS.get(KEY)), c.stepSeconds());
        assertEquals(Path.of("/checkout", "results"), c.resultsDir());
    }

    @Test
    @DisplayName("a -D that is present but blank is not a request for the default: the run stops naming the property")
    void blankUserPropertyIsAnError() {
        Map<String, String> p = collect(Map.of(), Map.of(), Map.of(KEY, " "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> config(p, "sni", Path.of(".")));
        assertEquals("meshbench.stepSeconds=: must be a whole number of seconds", e.getMessage());
    }

    @Test
    @DisplayName("the module's case wins over -Dmeshbench.cases (a run module measures its own case)")
    void moduleCaseWinsOverCasesProperty() {
        Map<String, String> p = collect(Map.of(), Map.of(), Map.of(RunSettings.P_CASES, "bypass"));
        assertEquals(List.of(EgressCase.SNI), config(p, "sni", Path.of(".")).cases());
    }

    @Test
    @DisplayName("meshbench.study=true (the study profile's POM property) layers the study's ramp; -D values still win")
    void studyFromThePom() {
        Map<String, String> p = collect(Map.of("meshbench.study", "true"), Map.of(), Map.of(KEY, "60"));
        RunSettings c = config(p, "sni", Path.of("."));
        assertEquals(List.of(1, 5, 10, 20, 30, 40, 50, 60), c.clients());
        assertEquals(60, c.stepSeconds());
        RunSettings notStudy = config(collect(Map.of("meshbench.study", "true"), Map.of(), Map.of("meshbench.study", "false")),
                "sni", Path.of("."));
        assertEquals(dev.meshbench.model.settings.Catalogue.CLIENTS.defaultParsed(), notStudy.clients());
    }

    @Test
    @DisplayName("meshbench.resultsDir moves the results out of the checkout")
    void resultsDir() {
        Map<String, String> p = collect(Map.of(), Map.of(), Map.of(RunSettings.P_RESULTS_DIR, "/elsewhere"));
        assertEquals(Path.of("/elsewhere"), config(p, "sni", Path.of("/checkout")).resultsDir());
    }

    @Test
    @DisplayName("plain() prints a number as a person would type it")
    void plain() {
        assertEquals("10", dev.meshbench.model.settings.Parsers.plain(10.0));
        assertEquals("2.5", dev.meshbench.model.settings.Parsers.plain(2.5));
        assertEquals("0.75", dev.meshbench.model.settings.Parsers.plain(0.75));
    }

    /** The settings a run module builds: its case over whatever -Dmeshbench.cases says, results under the checkout. */
    private static RunSettings config(Map<String, String> props, String caseId, Path root) {
        Map<String, String> p = new java.util.HashMap<>(props);
        p.put(RunSettings.P_CASES, caseId);
        return RunSettings.fromProperties(p, dev.meshbench.model.settings.Catalogue.STUDY.value(p), root.resolve(dev.meshbench.model.settings.Catalogue.RESULTS_DIR_DEFAULT));
    }
}
