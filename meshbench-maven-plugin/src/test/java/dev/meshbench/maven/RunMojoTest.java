package dev.meshbench.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * meshbench:run's checks before anything starts: a bad property stops the goal naming the property and the rule, and
 * a missing JMeter installation names the file the configure goal should have written. No process is started here.
 */
class RunMojoTest {
    @TempDir
    Path tmp;

    private RunMojo mojo(Map<String, String> pom, Map<String, String> user) {
        RunMojo m = new RunMojo();
        m.project = Builds.project(pom);
        m.session = Builds.session(Map.of(), user);
        m.caseId = "sni";
        m.projectRoot = tmp.toFile();
        m.progressSeconds = 5;
        m.jmeterVersion = "5.6.3";
        m.jmeterHeapMb = 1024;
        m.plan = tmp.resolve("acmeair.jmx").toFile();
        m.jtlProperties = tmp.resolve("meshbench-jtl.properties").toFile();
        m.jmeterConfig = tmp.resolve("target/config.json").toFile();
        return m;
    }

    @ParameterizedTest(name = "-D{0}={1} stops the run: {2}")
    @CsvSource(delimiter = '|', value = {
        "meshbench.clients|1,x|meshbench.clients=1,x: 'x' is not a whole number; give positive client counts like 1,5,10,20",
        "meshbench.stepSeconds|0|meshbench.stepSeconds=0: must be a positive number of seconds",
        "meshbench.repeats|0|meshbench.repeats=0: must be between 1 and 100 (runs of each case)",
        "meshbench.rewardsPercent|150|meshbench.rewardsPercent=150: must be between 0 and 100 (percent of session rounds)",
        "meshbench.rate|fast|meshbench.rate=fast: 'fast' is not a number; give requests per second, e.g. 300, or one per step like 100,200",
        "meshbench.warmup|soon|meshbench.warmup=soon: give stable (until throughput is stable), a number of seconds, or 0 (none)",
        "meshbench.saturationPercent|120|meshbench.saturationPercent=120: must be at most 100 (percent of all cores)",
        "meshbench.target|k8s|meshbench.target=k8s: must be one of local, kubernetes",
        "meshbench.dataplane|istio|meshbench.dataplane=istio: 'istio' is not a data plane; allowed: netty, envoy",
        "meshbench.cpus.mesh|0-x|meshbench.cpus.mesh=0-x: give CPUs as taskset does, e.g. 0, 2-3 or 0,2-3",
    })
    void badPropertyNamesItself(String key, String value, String message) {
        RunMojo m = mojo(Map.of(), Map.of(key, value));
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertEquals(message, e.getMessage());
        assertNull(m.project.getContextValue(RunMojo.PROBLEMS), "nothing ran, so meshbench:check must not find runs");
        assertFalse(Files.exists(tmp.resolve("results")), "no run folder before the properties are checked");
    }

    @Test
    @DisplayName("a bad value in the POM (a profile) is named the same way as one given with -D")
    void badPomProperty() {
        MojoFailureException e = assertThrows(MojoFailureException.class, () -> mojo(Map.of("meshbench.customers", "many"), Map.of()).execute());
        assertEquals("meshbench.customers=many: must be a whole number", e.getMessage());
    }

    @Test
    @DisplayName("a module with an unknown case id names it and the allowed ids")
    void unknownCase() {
        RunMojo m = mojo(Map.of(), Map.of());
        m.caseId = "istio";
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertEquals("meshbench.cases=istio: 'istio' is not a case; allowed: bypass, sidecar, gateway, mtls, sni, all", e.getMessage());
    }

    @Test
    @DisplayName("on a cluster, a deliberate slowdown is refused: only the local target can slow a service down")
    void slowServiceOnlyLocally() {
        MojoFailureException e = assertThrows(MojoFailureException.class,
                () -> mojo(Map.of(), Map.of("meshbench.target", "kubernetes", "meshbench.slowService", "flight:200")).execute());
        assertEquals("meshbench.slowService=flight:200: only the local target can slow a service down", e.getMessage());
    }

    @Test
    @DisplayName("on a cluster, CPU sets are refused, naming the property")
    void cpuSetsOnlyLocally() {
        MojoFailureException e = assertThrows(MojoFailureException.class,
                () -> mojo(Map.of(), Map.of("meshbench.target", "kubernetes", "meshbench.cpus.mesh", "0")).execute());
        assertEquals("meshbench.cpus.mesh: CPU sets are for the local target (on a cluster, use the pods' resources)", e.getMessage());
    }

    @Test
    @DisplayName("good properties but no JMeter laid out: fails naming config.json and the configure goal, before any run")
    void noJMeterInstall() {
        RunMojo m = mojo(Map.of(), Map.of("meshbench.clients", "1,2"));
        MojoExecutionException e = assertThrows(MojoExecutionException.class, m::execute);
        assertEquals(m.jmeterConfig.toPath() + " does not exist: jmeter-maven-plugin's configure goal (execution 'configuration') "
                + "must run before the load", e.getMessage());
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    @Test
    @DisplayName("a config.json without the 'configuration' execution names the file and the execution")
    void jmeterConfigWithoutExecution() throws Exception {
        RunMojo m = mojo(Map.of(), Map.of());
        Files.createDirectories(m.jmeterConfig.toPath().getParent());
        Files.writeString(m.jmeterConfig.toPath(), "{\"configurations\": [{\"executionID\": \"other\"}]}");
        MojoExecutionException e = assertThrows(MojoExecutionException.class, m::execute);
        assertTrue(e.getMessage().equals(m.jmeterConfig.toPath() + " has no configuration for execution 'configuration'"), e.getMessage());
    }
}
