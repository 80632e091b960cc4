package dev.meshbench.maven;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.kubernetes.KubernetesSettings;
import dev.meshbench.orchestrator.kubernetes.KubernetesTarget;
import dev.meshbench.orchestrator.local.ComponentJars;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalTarget;
import dev.meshbench.orchestrator.local.LocalTargetSettings;
import dev.meshbench.orchestrator.run.CaseRun;
import dev.meshbench.orchestrator.run.CpuSets;
import dev.meshbench.orchestrator.run.JMeterLoad;
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.orchestrator.run.WarmUp;
import dev.meshbench.orchestrator.deploy.Target;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.WarmupInfo;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Runs this module's cases, {@code meshbench.repeats} times, interleaved (bypass, sidecar, gateway, mtls, sni, then
 * again) so that drift over the sitting hits every case alike. Each run: deploy the case, wait until ready, load the
 * database, sample CPU, run JMeter over the client ramp, tear down, write {@code results.json} and print the step
 * table. A run that fails is kept, marked failed, and the next one still runs; {@code meshbench:check} fails the
 * build after the report, naming every failed run and every run above {@code meshbench.maxErrorPercent}.
 */
@Mojo(name = "run", defaultPhase = LifecyclePhase.INTEGRATION_TEST, threadSafe = false)
public class RunMojo extends AbstractMojo {
    /** Project context key: the results of the runs this build made, for the gate. */
    static final String RUN_RESULTS = "meshbench.runResults";
    /** Project context key: what went wrong in which run, for meshbench:check's verdict. */
    static final String PROBLEMS = "meshbench.runProblems";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    /** The cases this module runs: one case id, or {@code all}. */
    @Parameter(property = "meshbench.case", required = true)
    String caseId;

    /** The checkout whose module target/ folders hold the component jars, and whose results/ keeps runs. */
    @Parameter(property = "meshbench.projectRoot", defaultValue = "${maven.multiModuleProjectDirectory}", required = true)
    File projectRoot;

    /** Seconds between progress lines. */
    @Parameter(property = RunSettings.P_PROGRESS_SECONDS, defaultValue = RunSettings.DEFAULT_PROGRESS_SECONDS)
    int progressSeconds;

    /** The JMeter version recorded in the results: the root pom's {@code jmeter.version}, the one jmeter:configure lays out. */
    @Parameter(property = "meshbench.jmeterVersion", defaultValue = "${jmeter.version}", required = true)
    String jmeterVersion;

    /** Heap of the JMeter JVM (MB). */
    @Parameter(property = RunSettings.P_JMETER_HEAP_MB, defaultValue = RunSettings.DEFAULT_JMETER_HEAP_MB)
    int jmeterHeapMb;

    /** The Acmeair plan and the JTL format file (jmeter-plans). */
    @Parameter(defaultValue = "${maven.multiModuleProjectDirectory}/jmeter-plans/src/main/jmeter/acmeair.jmx", required = true)
    File plan;

    @Parameter(defaultValue = "${maven.multiModuleProjectDirectory}/jmeter-plans/src/main/jmeter/meshbench-jtl.properties", required = true)
    File jtlProperties;

    /** Written by jmeter-maven-plugin's configure goal (execution {@code configuration}). */
    @Parameter(defaultValue = "${project.build.directory}/config.json", required = true)
    File jmeterConfig;

    /** The regression gate's baseline (meshbench:check), checked here before anything is deployed. */
    @Parameter(property = CheckMojo.P_BASELINE)
    File baseline;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Map<String, String> props = RunProperties.collect(project, session);
        RunSettings config;
        MeasurementInfo measurement;
        int repeats;
        CpuSets cpuSets;
        int rewardsPercent;
        try {
            config = RunProperties.config(props, caseId, projectRoot.toPath());
            measurement = RunSettings.measurement(props, config.clients());
            repeats = RunSettings.repeats(props);
            rewardsPercent = RunSettings.rewardsPercent(props);
            boolean local = RunSettings.target(props) == dev.meshbench.results.TargetKind.LOCAL;
            if (!local && !config.workload().addedLatencyMs().isEmpty()) {
                throw new IllegalArgumentException(RunSettings.P_SLOW_SERVICE + "=" + props.get(RunSettings.P_SLOW_SERVICE)
                        + ": only the local target can slow a service down");
            }
            cpuSets = CpuSets.fromProperties(props, Runtime.getRuntime().availableProcessors(), System.getenv("PATH"));
            if (!local && !cpuSets.lists().isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", cpuSets.asProperties().keySet())
                        + ": CPU sets are for the local target (on a cluster, use the pods' resources)");
            }
            RunSettings.LoadCapacity.ofThisHost(jmeterHeapMb).check(config.clients());
            int comparable = BaselineCheck.check(baseline, config, RunSettings.target(props)).size();
            if (comparable > 0) {
                getLog().info(CheckMojo.P_BASELINE + "=" + baseline + ": " + comparable + " comparable run(s) for the gate");
            }
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
        // What runs killed earlier left (processes, key files, runs still marked running) goes first, said line by line.
        dev.meshbench.orchestrator.lifetime.Leftovers.sweepAndSay(config.resultsDir(), System.out);
        JMeterLoad.Install jmeter;
        try {
            jmeter = JMeterLoad.Install.fromPluginConfig(jmeterConfig.toPath(), "configuration");
        } catch (IllegalStateException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        List<EgressCase> order = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            order.addAll(config.cases());
        }
        List<RunResults> runs = new ArrayList<>();
        project.setContextValue(RUN_RESULTS, runs);
        List<String> problems = new ArrayList<>();
        project.setContextValue(PROBLEMS, problems);
        long started = System.nanoTime();
        for (int i = 0; i < order.size(); i++) {
            EgressCase c = order.get(i);
            int repeat = i / config.cases().size() + 1;
            String left = i == 0 ? "" : ", ~" + CaseRun.human((long) ((System.nanoTime() - started) / 1e9 / i * (order.size() - i))) + " left";
            System.out.printf(Locale.ROOT, "[meshbench] run %d of %d: case %s%s%s%n", i + 1, order.size(), c.id(),
                    repeats > 1 ? ", repeat " + repeat + " of " + repeats : "", left);
            MeasurementInfo m = measurement.withRun(repeat, repeats, settings(props, cpuSets));
            Optional<String> problem = runOne(c, props, config, m, rewardsPercent, jmeter, runs, cpuSets);
            problem.ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            // The verdict comes from meshbench:check, after the report, so that results and report exist either way.
            getLog().warn(problems.size() + " of " + order.size() + " runs failed; meshbench:check fails the build after the report");
        }
    }

    /** One case run, start to finish; the problem, if any, for the build's verdict. */
    private Optional<String> runOne(EgressCase c, Map<String, String> props, RunSettings config, MeasurementInfo measurement,
            int rewardsPercent, JMeterLoad.Install jmeter, List<RunResults> runs, CpuSets cpuSets) throws MojoExecutionException {
        Target target;
        try {
            target = switch (RunSettings.target(props)) {
                case LOCAL -> localTarget(props, config, cpuSets);
                case KUBERNETES -> KubernetesTarget.of(KubernetesSettings.fromProperties(props), config.customers(),
                        config.flightDays(), config.workload(), config.mesh().ingress(), System.out);
            };
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("bringing case " + c.id() + " up failed before anything started: " + e.getMessage(), e);
        }
        KitVersions versions = new KitVersions(project.getVersion(), System.getProperty("java.version"), jmeterVersion);
        CaseRun run;
        try {
            run = CaseRun.start(config, c, target, versions, System.out, measurement);
        } catch (TargetException | IllegalArgumentException e) {
            return Optional.of(c.id() + ": bringing the case up failed: " + e.getMessage());
        }
        Thread hook = new Thread(run::close, "meshbench-run-" + c.id());
        Runtime.getRuntime().addShutdownHook(hook);
        Optional<String> loadFailure = Optional.empty();
        try {
            Map<String, String> jmeterProps = JMeterLoad.properties(config, run, rewardsPercent,
                    measurement.targetRatePerSecond());
            List<String> cmd = jmeterCommand(cpuSets, jmeter, jmeterProps, run.runDir().resolve(JMeterLoad.LOG));
            warmUp(run, config, measurement, jmeter, jmeterProps, cpuSets);
            run.showProgress(Duration.ofSeconds(Math.max(1, progressSeconds)));
            JMeterLoad.Running load = JMeterLoad.start(cmd, jmeter, run.runDir().resolve(JMeterLoad.CONSOLE));
            // Stopped when a component dies, or past twice its plan; the run then fails with the reason.
            run.stopLoadWith(load::stop);
            int exit = load.waitFor();
            if (exit != 0) {
                loadFailure = Optional.of("JMeter " + dev.meshbench.orchestrator.lifetime.ExitStatus.describe(exit) + " (see "
                        + run.runDir().resolve(JMeterLoad.CONSOLE) + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            loadFailure = Optional.of("interrupted");
        } catch (RuntimeException e) {
            loadFailure = Optional.of("the load failed: " + e.getMessage());
        }
        RunResults results;
        try {
            results = run.finish(loadFailure);
        } catch (TargetException e) {
            return Optional.of(c.id() + " (" + run.runId() + "): " + e.getMessage());
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
        runs.add(results);
        StepTable.print(results, System.out);
        if (results.inputs().status() == RunStatus.FAILED) {
            return Optional.of(c.id() + " (" + run.runId() + ") failed: " + results.inputs().failureReason()
                    + " (kept in " + run.runDir() + ")");
        }
        long samples = results.steps().stream().mapToLong(StepResult::samples).sum();
        long errors = results.steps().stream().mapToLong(StepResult::errors).sum();
        double errorPercent = samples == 0 ? 100 : 100.0 * errors / samples;
        if (errorPercent > config.maxErrorPercent()) {
            return Optional.of(String.format(Locale.ROOT, "%s (%s): %.2f%% errors (%d of %d samples) is above %s=%s",
                    c.id(), run.runId(), errorPercent, errors, samples, RunSettings.P_MAX_ERROR_PERCENT,
                    config.maxErrorPercent()));
        }
        return Optional.empty();
    }

    /**
     * The warm-up before the measured ramp ({@code meshbench.warmup}): JMeter at the ramp's highest step (at its rate,
     * if any) into {@code warmup.jtl}, watched and stopped by {@link WarmUp}; recorded in {@code run.json}.
     */
    private void warmUp(CaseRun run, RunSettings config, MeasurementInfo measurement, JMeterLoad.Install jmeter,
            Map<String, String> jmeterProps, CpuSets cpuSets) throws InterruptedException {
        WarmupInfo plan = measurement.warmup();
        if (plan == null || WarmupInfo.NONE.equals(plan.mode())) {
            return;
        }
        int step = config.clients().indexOf(java.util.Collections.max(config.clients()));
        int clients = config.clients().get(step);
        Map<String, String> p = new java.util.LinkedHashMap<>(jmeterProps);
        p.put("clients", Integer.toString(clients));
        p.put("step.seconds", Integer.toString(plan.limitSeconds() + 60)); // stopped by WarmUp, never by itself
        p.put("meshbench.jtl", run.runDir().resolve(WarmUp.JTL).toString());
        if (!measurement.targetRatePerSecond().isEmpty()) {
            p.put("rate", RunProperties.plain(measurement.targetRatePerSecond().get(step)));
        }
        List<String> cmd = jmeterCommand(cpuSets, jmeter, p, run.runDir().resolve("warmup-" + JMeterLoad.LOG));
        System.out.printf(Locale.ROOT, "[%s] warm-up: %s at %d clients%s%n", run.caseId(), WarmupInfo.STABLE.equals(plan.mode())
                ? "until two successive " + plan.windowSeconds() + "-s windows are within " + RunProperties.plain(plan.tolerancePercent())
                        + "% (at most " + plan.limitSeconds() + " s)"
                : plan.limitSeconds() + " s", clients, p.containsKey("rate") ? ", " + p.get("rate") + " req/s" : "");
        JMeterLoad.Running r = JMeterLoad.start(cmd, jmeter, run.runDir().resolve("warmup-" + JMeterLoad.CONSOLE));
        run.stopLoadWith(r::stop);
        run.recordWarmup(WarmUp.run(plan, clients, r, run.runDir().resolve(WarmUp.JTL), System.out, run.caseId()));
    }

    /**
     * What {@code run.json} records as the run's settings: every {@code meshbench.*} property in effect, defaults
     * included, less anything that may hold a secret (tokens, passwords, kubeconfig paths; a MongoDB URI's user
     * part), plus the JVM heaps of JMeter, the services and MongoDB.
     */
    private Map<String, String> settings(Map<String, String> props, CpuSets cpuSets) {
        Map<String, String> s = new java.util.TreeMap<>(RunSettings.DEFAULTS);
        if (RunSettings.study(props)) {
            s.putAll(RunSettings.STUDY);
        }
        props.forEach((k, v) -> {
            String key = k.toLowerCase(Locale.ROOT);
            if (key.contains("token") || key.contains("password") || key.contains("secret") || key.contains("kubeconfig")
                    || key.equals("meshbench.projectroot") || key.startsWith("meshbench.runid") || key.startsWith("meshbench.jtl")) {
                return;
            }
            s.put(k, key.contains("uri") ? v.replaceAll("//[^/@]*@", "//***@") : v);
        });
        s.put(RunSettings.P_CASES, caseId);
        s.putAll(cpuSets.asProperties());
        s.put("jvm.jmeter", String.join(" ", JMeterLoad.heap(jmeterHeapMb)));
        s.put("jvm.services", String.join(" ", dev.meshbench.orchestrator.local.LocalDeployment.APP_JVM));
        s.put("jvm.mongo", String.join(" ", dev.meshbench.orchestrator.local.LocalDeployment.MONGO_JVM));
        s.put("jvm.nettyProxies", String.join(" ", dev.meshbench.orchestrator.local.ProxyLaunch.NETTY_JVM));
        return s;
    }

    /** The local target, its data plane's binaries found and checked before any run folder or process exists. */
    private Target localTarget(Map<String, String> props, RunSettings config, CpuSets cpuSets) {
        LocalDataPlane dataPlane;
        try {
            dataPlane = LocalDataPlane.resolve(config.mesh(), props.get(LocalDataPlane.P_ENVOY_BINARY),
                    props.get(LocalDataPlane.P_NGINX_BINARY), System.getenv("PATH"), project.getVersion());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("data plane " + config.mesh().dataPlane().id() + ": " + e.getMessage(), e);
        }
        return new LocalTarget(new LocalTargetSettings(ComponentJars.inBuildTree(projectRoot.toPath()), RunSettings.COMPONENT_READY_TIMEOUT,
                config.customers(), config.flightDays(), dataPlane, config.workload(), cpuSets));
    }

    /** JMeter on Maven's JDK with the kit's plan and JTL format, pinned to the load generator's CPU set. */
    private List<String> jmeterCommand(CpuSets cpuSets, JMeterLoad.Install jmeter, Map<String, String> props, Path log) {
        return JMeterLoad.command(cpuSets.prefix(ComponentRole.LOAD), Path.of(System.getProperty("java.home"), "bin", "java"),
                jmeterHeapMb, jmeter, plan.toPath(), jtlProperties.toPath(), props, log);
    }
}
