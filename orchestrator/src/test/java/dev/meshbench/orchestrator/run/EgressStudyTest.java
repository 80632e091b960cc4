package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The egress study's checks before anything starts ({@link EgressStudy#prepare}): a bad property stops it naming the
 * property and the rule, and a missing JMeter installation names the file the build should have written. No process
 * is started and no folder created here.
 */
class EgressStudyTest {
    @TempDir
    Path tmp;

    private final java.io.PrintStream quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());

    /** Prepares case sni with {@code props} under {@code tmp}; throws what prepare throws. */
    private EgressStudy prepare(Map<String, String> props) {
        Map<String, String> p = new java.util.HashMap<>(props);
        p.putIfAbsent(RunSettings.P_CASES, "sni");
        // the same settings on every machine: auto would pick Envoy where one is installed
        p.putIfAbsent(RunSettings.P_DATAPLANE, "netty");
        p.putIfAbsent(RunSettings.P_CLIENTS, "1,5,10,20");
        // a ramp of several steps: a deployment per run (the switched method measures one client count)
        p.putIfAbsent(dev.meshbench.model.settings.Catalogue.METHOD.name(), dev.meshbench.model.settings.Catalogue.METHOD_FRESH);
        return EgressStudy.prepare(p, tmp, "0.1.0-TEST", quiet);
    }

    @Test
    @DisplayName("the switched method refuses a ramp of several client counts, naming both settings and the way out")
    void switchedMeasuresOneClientCount() {
        assertEquals("meshbench.clients=1,5,10,20: meshbench.method=switched measures every case at one client count, one step per "
                + "case and round; give one count, or meshbench.method=fresh for a ramp of several",
                refused(Map.of("meshbench.method", "switched")).getMessage());
    }


    private IllegalArgumentException refused(Map<String, String> props) {
        return assertThrows(IllegalArgumentException.class, () -> prepare(props));
    }

    private Path config() {
        return tmp.resolve(JMeterLoad.Install.BUILD_CONFIG);
    }

    @ParameterizedTest(name = "-D{0}={1} stops the run: {2}")
    @CsvSource(delimiter = '|', value = {
        "meshbench.clients|1,x|meshbench.clients=1,x: 'x' is not a whole number; give positive client counts like 1,5,10,20",
        "meshbench.stepSeconds|0|meshbench.stepSeconds=0: must be 1 or more seconds",
        "meshbench.repeats|0|meshbench.repeats=0: must be between 1 and 100 runs of each case",
        "meshbench.rewardsPercent|150|meshbench.rewardsPercent=150: must be from 0 to 100 percent of session rounds",
        "meshbench.rate|fast|meshbench.rate=fast: 'fast' is not a number; give requests per second, e.g. 300, or one per step like 100,200",
        "meshbench.warmup|soon|meshbench.warmup=soon: give stable (until throughput is stable), a number of seconds, or 0 (none)",
        "meshbench.saturationPercent|120|meshbench.saturationPercent=120: must be above 0 and at most 100; give a percent of all cores such as 90",
        "meshbench.target|k8s|meshbench.target=k8s: must be one of local, kubernetes",
        "meshbench.dataplane|istio|meshbench.dataplane=istio: must be one of auto, envoy, netty",
        "meshbench.cpus.mesh|0-x|meshbench.cpus.mesh=0-x: give CPUs as taskset does, e.g. 0, 2-3 or 0,2-3",
    })
    void badPropertyNamesItself(String key, String value, String message) {
        assertEquals(message, refused(Map.of(key, value)).getMessage());
        assertFalse(Files.exists(tmp.resolve("results")), "no run folder before the properties are checked");
    }

    @Test
    @DisplayName("a bad value is named the same way whatever gave it (a profile's POM property, -D, the CLI)")
    void badCustomers() {
        assertEquals("meshbench.customers=many: must be a whole number of customers", refused(Map.of("meshbench.customers", "many")).getMessage());
    }

    @Test
    @DisplayName("a module with an unknown case id names it and the allowed ids")
    void unknownCase() {
        IllegalArgumentException e = refused(Map.of(RunSettings.P_CASES, "istio"));
        assertEquals("meshbench.cases=istio: 'istio' is not a case; allowed: bypass, sidecar, gateway, mtls, sni, all", e.getMessage());
    }

    @Test
    @DisplayName("on a cluster, a deliberate slowdown is refused: only the local target can slow a service down")
    void slowServiceOnlyLocally() {
        IllegalArgumentException e = refused(Map.of("meshbench.target", "kubernetes", "meshbench.slowService", "flight:200"));
        assertEquals("meshbench.slowService=flight:200: only the local target can slow a service down", e.getMessage());
    }

    @Test
    @DisplayName("on a cluster, CPU sets are refused, naming the property")
    void cpuSetsOnlyLocally() {
        IllegalArgumentException e = refused(Map.of("meshbench.target", "kubernetes", "meshbench.cpus.mesh", "0"));
        assertEquals("meshbench.cpus.mesh: CPU sets are for the local target (on a cluster, use the pods' resources)", e.getMessage());
    }

    @Test
    @DisplayName("clients=100000 is refused before anything is deployed, naming the step, this machine's largest and the rule")
    void oversizedRamp() {
        IllegalArgumentException e = refused(Map.of("meshbench.clients", "1,100000", "meshbench.stepSeconds", "10"));
        int max = dev.meshbench.orchestrator.run.RunSettings.LoadCapacity.ofThisHost(1024).maxClients();
        assertEquals("meshbench.clients=1,100000: clients 100000 is above the largest this machine can drive in one step, " + max
                + ": " + dev.meshbench.orchestrator.run.RunSettings.LoadCapacity.ofThisHost(1024).rule()
                + "; past it a step does not run as planned", e.getMessage());
        assertFalse(Files.exists(tmp.resolve("results")), "no run folder before the properties are checked");
    }

    @Test
    @DisplayName("more than 1,000,000 customers is refused before anything is deployed, not by the loader after")
    void tooManyCustomers() {
        IllegalArgumentException e = refused(Map.of("meshbench.customers", "1000001"));
        assertEquals("meshbench.customers=1000001: must be between 1 and 1000000 customers (the most the customer service's "
                + "loader generates)", e.getMessage());
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    @Test
    @DisplayName("meshbench.baseline that does not exist stops the build before any run folder, naming property and path")
    void missingBaseline() {
        IllegalArgumentException e = refused(Map.of("meshbench.baseline", "/nonexistent"));
        assertEquals("meshbench.baseline=/nonexistent: no such file or folder", e.getMessage());
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    @Test
    @DisplayName("a baseline file that is not JSON stops the build before any run folder, naming the file")
    void nonJsonBaseline() throws Exception {
        Path file = Files.writeString(tmp.resolve("notes.txt"), "not json at all");
        IllegalArgumentException e = refused(Map.of("meshbench.baseline", file.toString()));
        assertTrue(e.getMessage().startsWith("meshbench.baseline=" + file + ": " + file + " is not a results file: "), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    @Test
    @DisplayName("a baseline folder with no results.json, or one that cannot be read, stops the build before any run folder")
    void emptyOrUnreadableBaseline() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        IllegalArgumentException e = refused(Map.of("meshbench.baseline", empty.toString()));
        assertTrue(e.getMessage().startsWith("meshbench.baseline=" + empty + ": holds no results.json"), e.getMessage());

        Path locked = Files.createDirectories(tmp.resolve("locked"));
        Files.setPosixFilePermissions(locked, java.util.Set.of());
        try {
            org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(locked), "running as root: every folder is readable");
            IllegalArgumentException ue = refused(Map.of("meshbench.baseline", locked.toString()));
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
        IllegalArgumentException e = refused(Map.of("meshbench.baseline", base.toString()));
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
        IllegalArgumentException e = refused(Map.of("meshbench.baseline", base.toString()));
        assertTrue(e.getMessage().startsWith(config() + " does not exist"), e.getMessage());
    }

    @Test
    @DisplayName("on a cluster the baseline's runs are Istio's: a cluster run is comparable, a local one is not")
    void clusterBaseline() throws Exception {
        Path base = baselineRun("k1", "sni", TargetKind.KUBERNETES, "istio", List.of(1, 5));
        // The cluster's settings are validated with the rest, before the baseline: an external MongoDB is required.
        Path ca = Files.writeString(tmp.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        IllegalArgumentException e = refused(Map.of("meshbench.target", "kubernetes", "meshbench.mongo.uri",
                "mongodb://mongo.db.example.com:27017/?tls=true", "meshbench.mongo.ca", ca.toString(), "meshbench.mongo.cidr", "10.0.0.5/32",
                "meshbench.baseline", base.toString()));
        assertTrue(e.getMessage().startsWith(config() + " does not exist"), e.getMessage());

        IllegalArgumentException le = refused(Map.of("meshbench.baseline", base.toString()));
        assertTrue(le.getMessage().contains("this build runs case sni on local, netty, original workload, steps [1, 5, 10, 20]; "
                + "the baseline holds passed case sni on kubernetes, istio, original workload, steps [1, 5]"), le.getMessage());
    }

    @Test
    @DisplayName("good properties but no JMeter laid out: fails naming config.json and how to get it, before any run")
    void noJMeterInstall() {
        IllegalArgumentException e = refused(Map.of("meshbench.clients", "1,2"));
        assertEquals(config() + " does not exist: JMeter is laid out when the orchestrator module is packaged (mvn -B package "
                + "-DskipTests), or name a JMeter installation with -Dmeshbench.jmeterHome", e.getMessage());
        assertFalse(Files.exists(tmp.resolve("results")));
    }

    @Test
    @DisplayName("a config.json without the 'configuration' execution names the file and the execution")
    void jmeterConfigWithoutExecution() throws Exception {
        Files.createDirectories(config().getParent());
        Files.writeString(config(), "{\"configurations\": [{\"executionID\": \"other\"}]}");
        assertEquals(config() + " has no configuration for execution 'configuration'", refused(Map.of()).getMessage());
    }

    @Test
    @DisplayName("meshbench.jmeterHome that is not JMeter, or lacks the kit's plugin, is named with what is missing")
    void ownJMeterHome() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("apache-jmeter/bin"));
        assertEquals("meshbench.jmeterHome=" + home.getParent() + ": no bin/ApacheJMeter.jar there; give the folder JMeter was "
                + "unpacked into", refused(Map.of("meshbench.jmeterHome", home.getParent().toString())).getMessage());
        Files.writeString(home.resolve("ApacheJMeter.jar"), "");
        Files.createDirectories(home.resolveSibling("lib/ext"));
        assertTrue(refused(Map.of("meshbench.jmeterHome", home.getParent().toString())).getMessage()
                .endsWith(": the kit's plugin is not in lib/ext; copy jmeter-plans/target/jmeter-plans-*.jar there (the plan's "
                        + "functions and JTL format need it)"));
        Path plugin = home.resolveSibling("lib/ext/jmeter-plans-0.1.0.jar");
        jar(plugin, "dev/meshbench/jmeter/functions/MeshbenchProperty.class");
        assertEquals(plugin + " has no dev/meshbench/jmeter/plan/acmeair.jmx: it is not this kit's plugin, or an old build of it; "
                + "rebuild (mvn -B package -DskipTests) or copy jmeter-plans/target/jmeter-plans-*.jar there",
                refused(Map.of("meshbench.jmeterHome", home.getParent().toString())).getMessage());
        jar(plugin, "dev/meshbench/jmeter/plan/acmeair.jmx", "dev/meshbench/jmeter/plan/meshbench-jtl.properties");
        Files.writeString(home.resolveSibling("lib/ext/ApacheJMeter_core-5.6.3.jar"), "");
        assertTrue(refused(Map.of("meshbench.jmeterHome", home.getParent().toString())).getMessage().contains("embedded-mongo.jar"),
                "then the component jars are checked");
        for (String jar : List.of("embedded-mongo/target/embedded-mongo.jar", "acmeair-services/target/acmeair-services.jar",
                "dataplane/target/dataplane.jar")) {
            Files.createDirectories(tmp.resolve(jar).getParent());
            Files.writeString(tmp.resolve(jar), "");
        }
        EgressStudy study = prepare(Map.of("meshbench.jmeterHome", home.getParent().toString()));
        assertEquals(tmp.resolve("results"), study.resultsDir());
        assertFalse(Files.exists(tmp.resolve("results")), "prepare creates no folder");
    }

    /** A jar holding {@code entries}, each with its own name as content. */
    private static void jar(Path file, String... entries) throws java.io.IOException {
        try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(file))) {
            for (String e : entries) {
                zip.putNextEntry(new java.util.zip.ZipEntry(e));
                zip.write(e.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
    }

    @Test
    @DisplayName("a run gets the plan and its JTL format from the plugin jar, so plan and plugin come from one build")
    void planFromThePluginJar() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("jmeter/lib/ext")).getParent().getParent();
        Files.createDirectories(home.resolve("bin"));
        jar(home.resolve("lib/ext/jmeter-plans-0.1.0.jar"), "dev/meshbench/jmeter/plan/acmeair.jmx",
                "dev/meshbench/jmeter/plan/meshbench-jtl.properties");
        Path run = Files.createDirectories(tmp.resolve("run"));
        List<Path> plan = new JMeterLoad.Install(home, "ApacheJMeter.jar").extractPlan(run);
        assertEquals(List.of(run.resolve("acmeair.jmx"), run.resolve("meshbench-jtl.properties")), plan);
        assertEquals("dev/meshbench/jmeter/plan/acmeair.jmx", Files.readString(plan.get(0)));
    }
}
