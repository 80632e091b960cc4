package dev.meshbench.orchestrator.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.deploy.Endpoints;
import dev.meshbench.orchestrator.lifetime.Lifeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The load of one case run: JMeter in non-GUI mode as a child process, with the kit's plan and the run's endpoints
 * and ramp as JMeter properties. JMeter itself (its home with the kit's plugin in {@code lib/ext}) is laid out by
 * jmeter-maven-plugin's {@code configure} goal when the orchestrator module is packaged, or is a JMeter installation
 * the user names ({@link Install#locate}); this class only starts it, so the same case can be loaded several times
 * in one run (repeats, interleaved cases).
 */
public final class JMeterLoad {
    /** Where JMeter's own log and console output go, inside the run folder. */
    public static final String LOG = "jmeter.log";
    public static final String CONSOLE = "jmeter.out";

    private JMeterLoad() {
    }

    /**
     * A JMeter home laid out by jmeter-maven-plugin.
     *
     * @param home       the folder with {@code bin/} and {@code lib/}
     * @param runtimeJar the launcher jar's file name in {@code bin/}
     */
    public record Install(Path home, String runtimeJar) {
        /** The setting that names a JMeter installation of one's own (with the kit's plugin jar in {@code lib/ext}). */
        public static final String P_JMETER_HOME = "meshbench.jmeterHome";
        /** Where the build lays JMeter out: this module's {@code target/config.json}, execution {@code configuration}. */
        static final String BUILD_CONFIG = "orchestrator/target/config.json";

        public Path bin() {
            return home.resolve("bin");
        }

        /**
         * The JMeter to run: {@code home} when given (a JMeter installation, {@code bin/ApacheJMeter*.jar}, with the
         * kit's plugin in {@code lib/ext}), else the one the build laid out under {@code projectRoot} (packaging the
         * orchestrator module runs jmeter:configure). Fails naming what is missing and how to get it.
         */
        public static Install locate(String home, Path projectRoot) {
            if (home == null || home.isBlank()) {
                Path config = projectRoot.resolve(BUILD_CONFIG);
                if (!Files.isRegularFile(config)) {
                    throw new IllegalStateException(config + " does not exist: JMeter is laid out when the orchestrator module "
                            + "is packaged (mvn -B package -DskipTests), or name a JMeter installation with -D" + P_JMETER_HOME);
                }
                return fromPluginConfig(config, "configuration").withPlan();
            }
            Path dir = Path.of(home.trim()).toAbsolutePath().normalize();
            Path bin = dir.resolve("bin");
            try (var jars = Files.list(bin)) {
                String jar = jars.map(p -> p.getFileName().toString()).filter(n -> n.matches("ApacheJMeter(-[0-9.]+)?\\.jar"))
                        .sorted().findFirst().orElseThrow(() -> new IllegalStateException(P_JMETER_HOME + "=" + home
                                + ": no bin/ApacheJMeter.jar there; give the folder JMeter was unpacked into"));
                try (var ext = Files.list(dir.resolve("lib/ext"))) {
                    if (ext.noneMatch(Install::isPluginJar)) {
                        throw new IllegalStateException(P_JMETER_HOME + "=" + home + ": the kit's plugin is not in lib/ext; copy "
                                + "jmeter-plans/target/jmeter-plans-*.jar there (the plan's functions and JTL format need it)");
                    }
                }
                return new Install(dir, jar).withPlan();
            } catch (IOException e) {
                throw new IllegalStateException(P_JMETER_HOME + "=" + home + ": not a JMeter installation (" + e.getMessage() + ")", e);
            }
        }

        /** Where the plan and its JTL format are inside the kit's plugin jar (jmeter-plans' build puts them there). */
        static final String PLAN_ENTRY = "dev/meshbench/jmeter/plan/acmeair.jmx";
        static final String JTL_FORMAT_ENTRY = "dev/meshbench/jmeter/plan/meshbench-jtl.properties";

        private static boolean isPluginJar(Path p) {
            return p.getFileName().toString().matches("jmeter-plans-.*\\.jar");
        }

        /** The kit's plugin jar in {@code lib/ext}, which also carries the plan; fails naming what is missing. */
        Path pluginJar() {
            try (var ext = Files.list(home.resolve("lib/ext"))) {
                return ext.filter(Install::isPluginJar).sorted().findFirst()
                        .orElseThrow(() -> new IllegalStateException(home.resolve("lib/ext") + " holds no jmeter-plans-*.jar (the kit's plugin)"));
            } catch (IOException e) {
                throw new IllegalStateException("listing " + home.resolve("lib/ext") + " failed: " + e.getMessage(), e);
            }
        }

        /** This installation, once its plugin jar is found to carry the plan and its JTL format; else an error naming both. */
        Install withPlan() {
            Path jar = pluginJar();
            try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
                for (String entry : List.of(PLAN_ENTRY, JTL_FORMAT_ENTRY)) {
                    if (zip.getEntry(entry) == null) {
                        throw new IllegalStateException(jar + " has no " + entry + ": it is not this kit's plugin, or an old build of it; "
                                + "rebuild (mvn -B package -DskipTests) or copy jmeter-plans/target/jmeter-plans-*.jar there");
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(jar + " is not a jar: " + e.getMessage(), e);
            }
            return this;
        }

        /**
         * Copies the plan and its JTL format out of the kit's plugin jar into {@code dir} (a run folder, which then keeps
         * the exact plan it ran), so plan and plugin always come from one build; returns {@code [plan, jtlFormat]}.
         */
        public List<Path> extractPlan(Path dir) {
            Path jar = pluginJar();
            List<Path> out = new ArrayList<>();
            try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
                for (String entry : List.of(PLAN_ENTRY, JTL_FORMAT_ENTRY)) {
                    java.util.zip.ZipEntry e = zip.getEntry(entry);
                    if (e == null) {
                        throw new IllegalStateException(jar + " has no " + entry + ": rebuild the kit (mvn -B package -DskipTests)");
                    }
                    Path target = dir.resolve(entry.substring(entry.lastIndexOf('/') + 1));
                    try (var in = zip.getInputStream(e)) {
                        Files.copy(in, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                    out.add(target);
                }
            } catch (IOException e) {
                throw new IllegalStateException("reading the plan from " + jar + " failed: " + e.getMessage(), e);
            }
            return out;
        }

        /** JMeter's version, from its core jar's name ({@code lib/ext/ApacheJMeter_core-5.6.3.jar}); "unknown" if none. */
        public String version() {
            try (var ext = Files.list(home.resolve("lib/ext"))) {
                return ext.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("ApacheJMeter_core-") && n.endsWith(".jar"))
                        .map(n -> n.substring("ApacheJMeter_core-".length(), n.length() - 4)).findFirst().orElse("unknown");
            } catch (IOException e) {
                return "unknown";
            }
        }

        /**
         * Reads the plugin's {@code target/config.json}, written by its {@code configure} goal, for the execution
         * {@code executionId}.
         */
        public static Install fromPluginConfig(Path configJson, String executionId) {
            if (!Files.isRegularFile(configJson)) {
                throw new IllegalStateException(configJson + " does not exist: jmeter-maven-plugin's configure goal "
                        + "(execution '" + executionId + "') must run before the load");
            }
            try {
                JsonNode root = new ObjectMapper().readTree(configJson.toFile());
                for (JsonNode c : root.path("configurations")) {
                    if (executionId.equals(c.path("executionID").asText())) {
                        Install install = new Install(Path.of(c.path("jmeterDirectoryPath").asText()),
                                c.path("runtimeJarName").asText());
                        if (!Files.isRegularFile(install.bin().resolve(install.runtimeJar()))) {
                            throw new IllegalStateException(configJson + " names JMeter at " + install.home()
                                    + " but " + install.bin().resolve(install.runtimeJar()) + " is missing: run the "
                                    + "configure goal again");
                        }
                        return install;
                    }
                }
                throw new IllegalStateException(configJson + " has no configuration for execution '" + executionId + "'");
            } catch (IOException e) {
                throw new IllegalStateException("reading " + configJson + " failed: " + e.getMessage(), e);
            }
        }
    }

    /**
     * The JMeter properties of one case run, named as the plan reads them ({@code jmeter-plans/README.md}): the
     * driver's, as the settings gave them ({@link EgressRunSettings#driver()}, each checked by its catalogue setting,
     * which the plan's plugin reads it with too), then what the run decides: the ramp of {@code config} (a calibration
     * runs its own), the services' URLs, the rate, where the samples go.
     *
     * @param driver the driver's properties, JMeter name to value ({@link Catalogue#driverProperties})
     * @param rates  the fixed arrival rate per step, requests per second; empty for a closed loop
     */
    public static Map<String, String> properties(Map<String, String> driver, RunSettings config, CaseRun run, List<Double> rates) {
        Map<String, String> p = new LinkedHashMap<>(driver);
        p.put(Catalogue.CLIENTS.jmeterName(), String.join(",", config.clients().stream().map(String::valueOf).toList()));
        p.put(Catalogue.STEP_SECONDS.jmeterName(), Integer.toString(config.stepSeconds()));
        run.endpoints().services().forEach((svc, uri) -> p.put(svc + ".url", uri.toString()));
        if (!rates.isEmpty()) {
            p.put("rate", String.join(",", rates.stream().map(dev.meshbench.model.settings.Parsers::plain).toList()));
        }
        p.put("meshbench.jtl", run.jtl().toString());
        p.put("meshbench.runId", run.runId());
        p.put("meshbench.case", run.caseId());
        return p;
    }

    /**
     * The JMeter properties of a sitting ({@code meshbench.method=switched}): the driver's, the services' URLs, and the
     * plan's sitting mode, {@code clients} clients for the whole sitting, its phase, rate and end read from
     * {@code control}'s file, every sample into {@code jtl}.
     */
    public static Map<String, String> sittingProperties(Map<String, String> driver, RunSettings config, Endpoints endpoints,
            LoadControl control, int clients, Path jtl, String sittingId) {
        Map<String, String> p = new LinkedHashMap<>(driver);
        p.put(Catalogue.CLIENTS.jmeterName(), Integer.toString(clients));
        p.put(Catalogue.STEP_SECONDS.jmeterName(), Integer.toString(config.stepSeconds()));
        endpoints.services().forEach((svc, uri) -> p.put(svc + ".url", uri.toString()));
        p.put(dev.meshbench.model.SittingControl.PROPERTY, control.file().toString());
        // the plan's warm-up thread group runs the sitting: every client, until the control file says stop
        p.put("warmup.clients", Integer.toString(clients));
        p.put("warmup.seconds", Integer.toString(SITTING_LIMIT_SECONDS));
        p.put("meshbench.jtl", jtl.toString());
        p.put("meshbench.runId", sittingId);
        p.put("meshbench.case", String.join(",", config.cases().stream().map(c -> c.id()).toList()));
        return p;
    }

    /** The longest a sitting's JMeter runs if nobody stops it (its thread group's duration): a day. */
    static final int SITTING_LIMIT_SECONDS = 86_400;

    /** The JMeter JVM's heap options for {@code heapMb} (recorded in {@code run.json} too). */
    public static List<String> heap(int heapMb) {
        return List.of("-Xms256m", "-Xmx" + heapMb + "m");
    }

    /**
     * The command line: {@code java -Xms.. -Xmx.. -jar bin/ApacheJMeter.jar -n -t plan -q jtlProperties -j log
     * -Jname=value...}, prefixed by {@code cpuPrefix} (e.g. {@code taskset -c 0}) when not empty.
     */
    public static List<String> command(List<String> cpuPrefix, Path java, int heapMb, Install install, Path plan,
            Path jtlProperties, Map<String, String> properties, Path log) {
        List<String> cmd = new ArrayList<>(cpuPrefix);
        cmd.add(java.toString());
        cmd.addAll(heap(heapMb));
        cmd.addAll(List.of("-Djava.awt.headless=true", "-jar", install.bin().resolve(install.runtimeJar()).toString(),
                "-n", "-t", plan.toString(), "-q", jtlProperties.toString(), "-j", log.toString()));
        properties.forEach((k, v) -> cmd.add("-J" + k + "=" + v));
        return cmd;
    }

    /** The run folder's JMeter HTML dashboard, made by JMeter's own report generator from the run's JTL. */
    public static final String DASHBOARD = "dashboard";

    /**
     * JMeter's report generator ({@code jmeter -g}) over {@code jtl} into {@code outDir}, reading the JTL with the
     * same column settings it was written with ({@code jtlProperties}, the plan's {@code jtl-format.properties}).
     */
    public static List<String> dashboardCommand(Path java, Install install, Path jtlProperties, Path jtl, Path outDir, Path log) {
        return List.of(java.toString(), "-Djava.awt.headless=true", "-jar", install.bin().resolve(install.runtimeJar()).toString(),
                "-g", jtl.toString(), "-o", outDir.toString(), "-q", jtlProperties.toString(), "-j", log.toString());
    }

    /**
     * A started JMeter: wait for it or stop it; stopped on JVM exit (Ctrl-C) too, and by the {@link Lifeline} when
     * this JVM is killed outright.
     */
    public static final class Running {
        private final Process process;
        private final Thread hook;

        private Running(Process process) {
            this.process = process;
            this.hook = new Thread(() -> JMeterLoad.stop(process), "jmeter-stop");
            Runtime.getRuntime().addShutdownHook(hook);
        }

        public boolean isAlive() {
            return process.isAlive();
        }

        public long pid() {
            return process.pid();
        }

        /** Waits up to {@code limit} for JMeter to end by itself; true if it did. */
        public boolean waitForExit(java.time.Duration limit) throws InterruptedException {
            return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** JMeter's exit status once it ended; -1 while it runs. */
        public int exitValue() {
            return process.isAlive() ? -1 : process.exitValue();
        }

        /** Waits for JMeter to end by itself; stops it if this thread is interrupted. */
        public int waitFor() throws InterruptedException {
            try {
                return process.waitFor();
            } finally {
                stop();
            }
        }

        /** Stops JMeter (and its children) if it still runs. */
        public void stop() {
            JMeterLoad.stop(process);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }

    /**
     * Starts {@code command} in JMeter's {@code bin/} with its console output in {@code console}, in its own process
     * group tied to this JVM ({@link Lifeline}), recorded in the run folder that holds {@code console} so that the
     * next run can end it if this JVM and its watchdog were both killed.
     */
    public static Running start(List<String> command, Install install, Path console) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(install.bin().toFile())
                .redirectErrorStream(true).redirectOutput(console.toFile());
        try {
            return new Running(Lifeline.start(pb, console.toAbsolutePath().getParent()));
        } catch (IOException e) {
            throw new IllegalStateException("starting JMeter (" + command.get(0) + " ...) failed: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code command} in JMeter's {@code bin/} with its console output in {@code console}, and waits. The
     * process is destroyed when this thread is interrupted and when the JVM exits first (Ctrl-C).
     *
     * @return JMeter's exit code
     */
    public static int run(List<String> command, Install install, Path console) throws InterruptedException {
        return start(command, install, console).waitFor();
    }

    private static void stop(Process p) {
        if (!p.isAlive()) {
            Lifeline.released(p);
            return;
        }
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        if (!p.isAlive()) {
            Lifeline.endGroup(p);
            Lifeline.released(p);
        }
    }
}
