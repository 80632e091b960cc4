package dev.meshbench.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import dev.meshbench.results.ConversionMethod;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.WorkloadInfo;
import dev.meshbench.results.io.ResultsJson;
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
        m.jmeterVersion = "5.6.3";
        m.plan = tmp.resolve("acmeair.jmx").toFile();
        m.jtlProperties = tmp.resolve("meshbench-jtl.properties").toFile();
        m.jmeterConfig = tmp.resolve("target/config.json").toFile();
        return m;
    }

    @ParameterizedTest(name = "-D{0}={1} stops the run: {2}")
    @CsvSource(delimiter = '|', value = {
        "meshbench.clients|1,x|meshbench.clients=1,x: 'x' is not a whole number; give positive client counts like 1,5,10,20",
        "meshbench.stepSeconds|0|meshbench.stepSeconds=0: must be 1 or more seconds",
        "meshbench.repeats|0|meshbench.repeats=0: must be between 1 and 100 runs of each case",
        "meshbench.rewardsPercent|150|meshbench.rewardsPercent=150: must be between 0 and 100 percent of session rounds",
        "meshbench.rate|fast|meshbench.rate=fast: 'fast' is not a number; give requests per second, e.g. 300, or one per step like 100,200",
        "meshbench.warmup|soon|meshbench.warmup=soon: give stable (until throughput is stable), a number of seconds, or 0 (none)",
        "meshbench.saturationPercent|120|meshbench.saturationPercent=120: must be above 0 and at most 100; give a percent of all cores such as 90",
        "meshbench.target|k8s|meshbench.target=k8s: must be one of local, kubernetes",
        "meshbench.dataplane|istio|meshbench.dataplane=istio: must be one of netty, envoy",
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
        assertEquals("meshbench.customers=many: must be a whole number of customers", e.getMessage());
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
    @DisplayName("clients=100000 is refused before anything is deployed, naming the step, this machine's largest and the rule")
    void oversizedRamp() {
        RunMojo m = mojo(Map.of(), Map.of("meshbench.clients", "1,100000", "meshbench.stepSeconds", "10"));
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        int max = dev.meshbench.orchestrator.run.RunSettings.LoadCapacity.ofThisHost(1024).maxClients();
        assertEquals("meshbench.clients=1,100000: clients 100000 is above the largest this machine can drive in one step, " + max
                + ": " + dev.meshbench.orchestrator.run.RunSettings.LoadCapacity.ofThisHost(1024).rule()
                + "; past it a step does not run as planned", e.getMessage());
        assertNull(m.project.getContextValue(RunMojo.PROBLEMS), "nothing ran");
        assertFalse(Files.exists(tmp.resolve("results")), "no run folder before the properties are checked");
    }

    @Test
    @DisplayName("more than 1,000,000 customers is refused before anything is deployed, not by the loader after")
    void tooManyCustomers() {
        RunMojo m = mojo(Map.of(), Map.of("meshbench.customers", "1000001"));
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertEquals("meshbench.customers=1000001: must be between 1 and 1000000 customers (the most the customer service's "
                + "loader generates)", e.getMessage());
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    @Test
    @DisplayName("meshbench.baseline that does not exist stops the build before any run folder, naming property and path")
    void missingBaseline() {
        RunMojo m = mojo(Map.of(), Map.of());
        m.baseline = new java.io.File("/nonexistent");
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertEquals("meshbench.baseline=/nonexistent: no such file or folder", e.getMessage());
        assertNull(m.project.getContextValue(RunMojo.PROBLEMS));
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    @Test
    @DisplayName("a baseline file that is not JSON stops the build before any run folder, naming the file")
    void nonJsonBaseline() throws Exception {
        Path file = Files.writeString(tmp.resolve("notes.txt"), "not json at all");
        RunMojo m = mojo(Map.of(), Map.of());
        m.baseline = file.toFile();
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertTrue(e.getMessage().startsWith("meshbench.baseline=" + file + ": " + file + " is not a results file: "), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    @Test
    @DisplayName("a baseline folder with no results.json, or one that cannot be read, stops the build before any run folder")
    void emptyOrUnreadableBaseline() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        RunMojo m = mojo(Map.of(), Map.of());
        m.baseline = empty.toFile();
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertTrue(e.getMessage().startsWith("meshbench.baseline=" + empty + ": holds no results.json"), e.getMessage());

        Path locked = Files.createDirectories(tmp.resolve("locked"));
        Files.setPosixFilePermissions(locked, java.util.Set.of());
        try {
            org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(locked), "running as root: every folder is readable");
            RunMojo u = mojo(Map.of(), Map.of());
            u.baseline = locked.toFile();
            MojoFailureException ue = assertThrows(MojoFailureException.class, u::execute);
            assertEquals("meshbench.baseline=" + locked + ": not readable by this user", ue.getMessage());
        } finally {
            Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        }
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    /** A passed run's results.json under {@code base/<id>}: case, data plane name, sidecar mTLS and ingress, steps. */
    private Path baselineRun(String id, String caseId, String plane, List<Integer> clients) throws Exception {
        return baselineRun(id, caseId, TargetKind.LOCAL, plane, clients);
    }

    private Path baselineRun(String id, String caseId, TargetKind target, String plane, List<Integer> clients) throws Exception {
        RunInputs in = RunInputs.starting(id, caseId, target, clients, 20, 5, 0, 1000,
                new KitVersions("0.1.0", "17", "5.6.3"), new Machine(2, 1L << 34, "Linux"), Instant.parse("2026-11-22T06:00:00Z"))
                .withDataPlane(new DataPlaneInfo(plane, Map.of(), 2, true, true, null)).withWorkload(WorkloadInfo.ORIGINAL).passed();
        Path dir = Files.createDirectories(tmp.resolve("base").resolve(id));
        ResultsJson.writeResults(dir.resolve("results.json"), new RunResults(ResultsSchema.VERSION, in, ConversionMethod.current(true),
                List.of(), List.of()));
        return tmp.resolve("base");
    }

    @Test
    @DisplayName("a baseline with no run comparable with this build's stops the build before any run folder, saying what is compared")
    void incomparableBaseline() throws Exception {
        Path base = baselineRun("b1", "bypass", "netty", List.of(1, 5, 10, 20));
        baselineRun("b2", "sni", "envoy", List.of(1, 5, 10, 20));
        baselineRun("b3", "sni", "netty", List.of(30, 40));
        RunMojo m = mojo(Map.of(), Map.of());
        m.baseline = base.toFile();
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertEquals("meshbench.baseline=" + base + ": none of its 3 run(s) can be compared with this build's, so the regression "
                + "gate would have nothing to gate on; it compares passed runs of the same case, target, data plane and workload "
                + "sharing a client step, and this build runs case sni on local, netty, original workload, steps [1, 5, 10, 20]; "
                + "the baseline holds passed case bypass on local, netty, original workload, steps [1, 5, 10, 20]; passed case sni on "
                + "local, envoy, original workload, steps [1, 5, 10, 20]; passed case sni on local, netty, original workload, steps [30, 40]",
                e.getMessage());
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    @Test
    @DisplayName("a comparable baseline passes the check: the goal goes on to its next check (here: no JMeter laid out)")
    void comparableBaseline() throws Exception {
        Path base = baselineRun("b1", "sni", "netty", List.of(1, 5));
        RunMojo m = mojo(Map.of(), Map.of());
        m.baseline = base.toFile();
        MojoExecutionException e = assertThrows(MojoExecutionException.class, m::execute);
        assertTrue(e.getMessage().startsWith(m.jmeterConfig.toPath() + " does not exist"), e.getMessage());
    }

    @Test
    @DisplayName("on a cluster the baseline's runs are Istio's: a cluster run is comparable, a local one is not")
    void clusterBaseline() throws Exception {
        Path base = baselineRun("k1", "sni", TargetKind.KUBERNETES, "istio", List.of(1, 5));
        // The cluster's settings are validated with the rest, before the baseline: an external MongoDB is required.
        Path ca = Files.writeString(tmp.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        RunMojo m = mojo(Map.of(), Map.of("meshbench.target", "kubernetes", "meshbench.mongo.uri",
                "mongodb://mongo.db.example.com:27017/?tls=true", "meshbench.mongo.ca", ca.toString(), "meshbench.mongo.cidr", "10.0.0.5/32"));
        m.baseline = base.toFile();
        MojoExecutionException e = assertThrows(MojoExecutionException.class, m::execute);
        assertTrue(e.getMessage().startsWith(m.jmeterConfig.toPath() + " does not exist"), e.getMessage());

        RunMojo local = mojo(Map.of(), Map.of());
        local.baseline = base.toFile();
        MojoFailureException le = assertThrows(MojoFailureException.class, local::execute);
        assertTrue(le.getMessage().contains("this build runs case sni on local, netty, original workload, steps [1, 5, 10, 20]; "
                + "the baseline holds passed case sni on kubernetes, istio, original workload, steps [1, 5]"), le.getMessage());
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
