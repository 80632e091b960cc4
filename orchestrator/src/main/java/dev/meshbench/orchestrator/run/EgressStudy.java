package dev.meshbench.orchestrator.run;

import dev.meshbench.model.settings.Parsers;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.Target;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.kubernetes.KubernetesTarget;
import dev.meshbench.orchestrator.lifetime.ExitStatus;
import dev.meshbench.orchestrator.local.Cgroups;
import dev.meshbench.orchestrator.local.CpuLimits;
import dev.meshbench.orchestrator.local.CpuSets;
import dev.meshbench.orchestrator.lifetime.Leftovers;
import dev.meshbench.orchestrator.local.ComponentJars;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalTarget;
import dev.meshbench.orchestrator.local.LocalTargetSettings;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.RateCalibration;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.WarmupInfo;
import dev.meshbench.model.PlanOutput;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The egress study, the one place its runs happen: the cases of {@code meshbench.cases}, {@code meshbench.repeats}
 * times, interleaved (bypass, sidecar, gateway, mtls, sni, then again) so that drift over the sitting hits every case
 * alike. Each run is a {@link CaseRun} (run folder, deploy, ready, recorders, teardown, conversion) loaded by JMeter
 * here: a warm-up at the ramp's highest step, then the ramp. A run that fails is kept, marked failed, and the next one
 * still runs. {@link #prepare} checks every setting, the baseline and the JMeter installation before anything starts;
 * the Maven goal {@code meshbench:run} and the command {@code meshbench run} only build the property map.
 */
public final class EgressStudy {
    private final RunSettings config;
    private final MeasurementInfo measurement;
    private final int repeats;
    private final Map<String, String> driver;
    private final Target target;
    private final Map<String, String> recorded;
    private final CpuSets cpuSets;
    private final int jmeterHeapMb;
    private final int progressSeconds;
    private final JMeterLoad.Install jmeter;
    private final String kitVersion;
    private final PrintStream out;
    /** {@code meshbench.rateFraction} when the sitting's rate is to be calibrated first; empty for a given rate or a closed loop. */
    private final Optional<EgressRunSettings.Calibration> calibrate;
    /** Whether the cases are switched in under one warm deployment ({@code meshbench.method=switched}). */
    private final boolean switched;
    /** The plan and its JTL format of the current run, extracted into its folder. */
    private List<Path> plan = List.of();

    private EgressStudy(RunSettings config, MeasurementInfo measurement, int repeats, Map<String, String> driver, Target target,
            Map<String, String> recorded, CpuSets cpuSets, int jmeterHeapMb, int progressSeconds, JMeterLoad.Install jmeter, String kitVersion,
            Optional<EgressRunSettings.Calibration> calibrate, boolean switched, PrintStream out) {
        this.calibrate = calibrate;
        this.switched = switched;
        this.config = config;
        this.measurement = measurement;
        this.repeats = repeats;
        this.driver = driver;
        this.target = target;
        this.recorded = recorded;
        this.cpuSets = cpuSets;
        this.jmeterHeapMb = jmeterHeapMb;
        this.progressSeconds = progressSeconds;
        this.jmeter = jmeter;
        this.kitVersion = kitVersion;
        this.out = out;
    }

    /**
     * Checks every {@code meshbench.*} property, the baseline, the JMeter installation and the target (locally, the data
     * plane's binaries); nothing is deployed and no folder is created, and nothing after this reads the properties.
     * Throws {@link IllegalArgumentException} naming the property, the value and the rule.
     *
     * @param props       the {@code meshbench.*} properties in effect ({@code meshbench.cases} among them)
     * @param projectRoot the checkout whose module {@code target/} folders hold the component jars and JMeter, and
     *                    whose {@code results/} keeps runs
     */
    public static EgressStudy prepare(Map<String, String> props, Path projectRoot, String kitVersion, PrintStream out) {
        if (RunSettings.target(props) == dev.meshbench.results.TargetKind.LOCAL) {
            // first, so that auto's choice (and a fetch of Envoy) is what the settings below resolve
            out.println("[meshbench] data plane " + LocalDataPlane.announce(Catalogue.DATAPLANE.value(props, Catalogue.STUDY.value(props)),
                    LocalDataPlane.Binaries.fromProperties(props), out));
        }
        EgressRunSettings settings = EgressRunSettings.fromProperties(props, projectRoot.resolve(Catalogue.RESULTS_DIR_DEFAULT));
        RunSettings config = settings.run();
        Optional<String> baseline = Catalogue.BASELINE.read(props);
        int comparable = BaselineCheck.check(baseline.map(java.io.File::new).orElse(null), config, settings.target()).size();
        if (comparable > 0) {
            out.println("[meshbench] " + Catalogue.BASELINE.name() + "=" + baseline.get() + ": " + comparable + " comparable run(s) for the gate");
        }
        JMeterLoad.Install jmeter;
        try {
            jmeter = JMeterLoad.Install.locate(Catalogue.JMETER_HOME.read(props).orElse(null), projectRoot);
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Target where = switch (settings.target()) {
            case LOCAL -> localTarget(config, settings.cpuSets(), settings.cpuLimits(), settings.binaries(), projectRoot, kitVersion);
            case KUBERNETES -> KubernetesTarget.of(settings.kubernetes().orElseThrow(), config.customers(), config.flightDays(),
                    config.workload(), config.mesh().ingress(), out);
        };
        if (settings.switched() && !where.switchesCases()) {
            throw Catalogue.METHOD.invalid(Catalogue.METHOD_SWITCHED, "the " + settings.target().id() + " target does not switch "
                    + "cases while they run yet; give " + Catalogue.METHOD.name() + "=" + Catalogue.METHOD_FRESH);
        }
        return new EgressStudy(config, settings.measurement(), settings.repeats(), settings.driver(), where, settings.recorded(),
                settings.cpuSets(), settings.jmeterHeapMb(), settings.progressSeconds(), jmeter, kitVersion, settings.calibrate(),
                settings.switched(), out);
    }

    /** Where run folders go. */
    public Path resultsDir() {
        return config.resultsDir();
    }

    /**
     * Runs every case {@code repeats} times, interleaved, adding each run's results to {@code runs} and each problem
     * (a failed run, errors above {@code meshbench.maxErrorPercent}) to {@code problems} as it goes, so a caller that
     * is interrupted keeps what finished. What runs killed earlier left goes first, said line by line.
     */
    public void run(List<RunResults> runs, List<String> problems) {
        Leftovers.sweepAndSay(config.resultsDir(), out);
        if (switched) {
            KitVersions versions = new KitVersions(kitVersion, System.getProperty("java.version"), jmeter.version());
            new SwitchedSitting(config, measurement, repeats, driver, target, recorded, versions, calibrate, progressSeconds,
                    this::startSittingLoad, out).run(runs, problems);
            if (!problems.isEmpty()) {
                out.printf(Locale.ROOT, "[meshbench] %d problem%s in the sitting%n", problems.size(), problems.size() == 1 ? "" : "s");
            }
            return;
        }
        MeasurementInfo m = measurement;
        if (calibrate.isPresent()) {
            Optional<MeasurementInfo> calibrated = calibrate(calibrate.get().fraction(), calibrate.get().shortfallPercent(), problems);
            if (calibrated.isEmpty()) {
                return;
            }
            m = calibrated.get();
        }
        List<EgressCase> order = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            order.addAll(config.cases());
        }
        long started = System.nanoTime();
        String sittingId = CaseRun.timestamped("sitting");
        List<String> roundOrder = config.cases().stream().map(EgressCase::id).toList();
        for (int i = 0; i < order.size(); i++) {
            EgressCase c = order.get(i);
            int repeat = i / config.cases().size() + 1;
            dev.meshbench.results.SittingInfo at = new dev.meshbench.results.SittingInfo(sittingId, dev.meshbench.results.SittingInfo.FRESH,
                    roundOrder, repeat, i + 1, null, List.of(), null);
            String left = i == 0 ? "" : ", ~" + CaseRun.human((long) ((System.nanoTime() - started) / 1e9 / i * (order.size() - i))) + " left";
            out.printf(Locale.ROOT, "[meshbench] run %d of %d: case %s%s%s%n", i + 1, order.size(), c.id(),
                    repeats > 1 ? ", repeat " + repeat + " of " + repeats : "", left);
            runOne(config, c, m.withRun(repeat, repeats, recorded).withSitting(at), runs).ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            out.printf(Locale.ROOT, "[meshbench] %d of %d runs failed%n", problems.size(), order.size());
        }
    }

    /**
     * The sitting's fixed rate ({@code meshbench.load=calibrated}): bypass in a closed loop at the ramp's largest
     * clients, warmed up as any run, then measured for {@link Catalogue#CALIBRATION_SECONDS}; every case then runs at
     * {@code fraction} of the throughput it reached. The calibration is a run of its own, kept beside the others and
     * marked so that the report leaves it out. Empty, with the problem added, when it failed or reached too little.
     */
    private Optional<MeasurementInfo> calibrate(double fraction, double shortfallPercent, List<String> problems) {
        EgressCase bypass = EgressCase.byId(dev.meshbench.model.CaseIds.BYPASS);
        int clients = Collections.max(config.clients());
        RunSettings closedLoop = calibrationSettings(config);
        out.printf(Locale.ROOT, "[meshbench] calibration: %s in a closed loop at %d clients (warm-up, then %d s) for this machine's "
                + "maximum in this sitting; every case then runs at %s of it%n", bypass.id(), clients, Catalogue.CALIBRATION_SECONDS,
                Parsers.plain(fraction));
        List<RunResults> got = new ArrayList<>();
        Optional<String> problem = runOne(closedLoop, bypass, measurement.asCalibrationRun().withRun(1, 1, recorded), got);
        return calibrated(problem, got, fraction, shortfallPercent, measurement, config.clients().size(), problems, out);
    }

    /** The calibration's run: bypass in a closed loop at the largest clients, {@link Catalogue#CALIBRATION_SECONDS} after {@code config}'s step warm-up. */
    static RunSettings calibrationSettings(RunSettings config) {
        return new RunSettings(List.of(EgressCase.byId(dev.meshbench.model.CaseIds.BYPASS)), List.of(Collections.max(config.clients())),
                Catalogue.CALIBRATION_SECONDS + config.warmupSeconds(), config.warmupSeconds(), config.thinkTimeMs(), config.customers(),
                config.flightDays(), config.maxErrorPercent(), config.resultsDir(), config.mesh(), config.workload());
    }

    /**
     * The rate a calibration run sets ({@code fraction} of the throughput its one step reached), said on {@code out} and
     * recorded in {@code m} for every run of the sitting ({@code steps} steps each); empty, with the problem added, when
     * the run failed, measured nothing or reached too little.
     */
    static Optional<MeasurementInfo> calibrated(Optional<String> problem, List<RunResults> got, double fraction, double shortfallPercent,
            MeasurementInfo m, int steps, List<String> problems, PrintStream out) {
        String instead = " No case ran: give " + Catalogue.RATE.name() + "=<requests per second> to set the rate by hand, or "
                + Catalogue.LOAD.name() + "=closed for a closed loop.";
        if (problem.isPresent() || got.isEmpty() || got.get(0).steps().isEmpty()) {
            problems.add("the calibration failed: " + problem.orElse("no measured step") + "." + instead);
            return Optional.empty();
        }
        RunResults r = got.get(0);
        StepResult step = r.steps().get(0);
        RateCalibration c;
        try {
            c = RateCalibration.of(r.inputs().runId(), r.inputs().caseId(), step.clients(), step.throughputPerSecond(), fraction,
                    step.drift() == null || step.drift().steady());
        } catch (IllegalArgumentException e) {
            problems.add("the calibration cannot set a rate: " + e.getMessage() + "." + instead);
            return Optional.empty();
        }
        out.printf(Locale.ROOT, "[meshbench] calibrated: %s reached %.1f tx/s at %d clients%s; every case runs at %s req/s (%s of it), "
                + "recorded in each run.json%n", c.caseId(), c.maxPerSecond(), c.clients(),
                c.steady() ? "" : " (NOT STEADY: the maximum is uncertain, and so is the rate)", Parsers.plain(c.ratePerSecond()),
                Parsers.plain(fraction));
        return Optional.of(m.withCalibratedRate(c, steps, shortfallPercent));
    }

    /** One case run, start to finish; the problem, if any, for the verdict. */
    private Optional<String> runOne(RunSettings config, EgressCase c, MeasurementInfo measurement, List<RunResults> runs) {
        KitVersions versions = new KitVersions(kitVersion, System.getProperty("java.version"), jmeter.version());
        CaseRun run;
        try {
            run = CaseRun.start(config, c, target, versions, out, measurement);
        } catch (TargetException | IllegalArgumentException e) {
            return Optional.of(c.id() + ": bringing the case up failed: " + e.getMessage());
        }
        Thread hook = new Thread(run::close, "meshbench-run-" + c.id());
        Runtime.getRuntime().addShutdownHook(hook);
        Optional<String> loadFailure = Optional.empty();
        try {
            Map<String, String> jmeterProps = JMeterLoad.properties(driver, config, run, measurement.targetRatePerSecond());
            plan = jmeter.extractPlan(run.runDir()); // the run keeps the plan it ran, from the plugin's own build
            WarmupInfo warmup = measurement.warmup();
            boolean warm = warmup != null && !WarmupInfo.NONE.equals(warmup.mode());
            Path warmFile = run.runDir().resolve(WarmUp.WARM_FILE);
            int top = Collections.max(config.clients());
            if (warm) {
                // the plan's warm-up thread group, in the same JMeter as the ramp, ended by the file WarmUp creates
                jmeterProps.put("warmup.clients", Integer.toString(top));
                jmeterProps.put("warmup.seconds", Integer.toString(warmup.limitSeconds() + 60));
                jmeterProps.put("meshbench.warmFile", warmFile.toString());
                announceWarmUp(run, warmup, top, measurement);
            }
            JMeterLoad.Running load = JMeterLoad.start(jmeterCommand(jmeterProps, run.runDir().resolve(JMeterLoad.LOG)), jmeter,
                    run.runDir().resolve(JMeterLoad.CONSOLE));
            announcePlan(run.runDir().resolve(JMeterLoad.CONSOLE), load, out, run.caseId());
            // Stopped when a component dies, or past twice its plan; the run then fails with the reason.
            run.stopLoadWith(load::stop);
            if (warm) {
                run.recordWarmup(WarmUp.run(warmup, top, load, run.jtl(), () -> touch(warmFile), signals(run.deployment(), load), out,
                        run.caseId()));
            }
            run.showProgress(Duration.ofSeconds(progressSeconds));
            int exit = load.waitFor();
            if (exit != 0) {
                loadFailure = Optional.of("JMeter " + ExitStatus.describe(exit) + " (see " + run.runDir().resolve(JMeterLoad.CONSOLE) + ")");
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
        dashboard(run.runDir(), run.caseId());
        StepTable.print(results, out);
        if (results.inputs().status() == RunStatus.FAILED) {
            return Optional.of(c.id() + " (" + run.runId() + ") failed: " + results.inputs().failureReason() + " (kept in " + run.runDir() + ")");
        }
        long samples = results.steps().stream().mapToLong(StepResult::samples).sum();
        long errors = results.steps().stream().mapToLong(StepResult::errors).sum();
        double errorPercent = samples == 0 ? 100 : 100.0 * errors / samples;
        if (errorPercent > config.maxErrorPercent()) {
            return Optional.of(String.format(Locale.ROOT, "%s (%s): %.2f%% errors (%d of %d samples) is above %s=%s", c.id(), run.runId(),
                    errorPercent, errors, samples, RunSettings.P_MAX_ERROR_PERCENT, config.maxErrorPercent()));
        }
        return Optional.empty();
    }

    /** Says how the warm-up before the ramp ({@code meshbench.warmup}) will go. */
    private void announceWarmUp(CaseRun run, WarmupInfo plan, int clients, MeasurementInfo measurement) {
        int step = config.clients().indexOf(clients);
        String rate = measurement.targetRatePerSecond().isEmpty() ? ""
                : ", " + Parsers.plain(measurement.targetRatePerSecond().get(step)) + " req/s";
        out.printf(Locale.ROOT, "[%s] warm-up: %s at %d clients%s, in the JMeter that then runs the ramp%n", run.caseId(),
                WarmupInfo.STABLE.equals(plan.mode())
                        ? "until warm (every " + plan.windowSeconds() + " s: no JVM's JIT using more than " + Parsers.plain(plan.jitQuietMs())
                                + " ms of CPU, throughput and CPU per request without a trend beyond " + Parsers.plain(plan.tolerancePercent())
                                + "% over the last " + plan.trendWindows() + " windows; at most " + plan.limitSeconds() + " s)"
                        : plan.limitSeconds() + " s", clients, rate);
    }

    /** Creates {@code file}: the plan's warm-up thread group stops when it appears. */
    private static void touch(Path file) {
        try {
            java.nio.file.Files.writeString(file, java.time.Instant.now().toString());
        } catch (java.io.IOException e) {
            throw new TargetException("ending the warm-up: writing " + file + " failed: " + e.getMessage(), e);
        }
    }

    /** The deployment's JVMs and JMeter's, and the deployment's CPU, for the warm-up to judge. */
    static WarmUp.Signals signals(dev.meshbench.orchestrator.deploy.Deployment deployment, JMeterLoad.Running jmeter) {
        return signals(deployment, jmeter, false);
    }

    /**
     * As {@link #signals(dev.meshbench.orchestrator.deploy.Deployment, JMeterLoad.Running)}; with {@code kit}, this JVM's
     * JIT too (a sitting's recorders and JTL cutting run in it, on the measured machine, for the whole sitting).
     */
    static WarmUp.Signals signals(dev.meshbench.orchestrator.deploy.Deployment deployment, JMeterLoad.Running jmeter, boolean kit) {
        return new WarmUp.Signals() {
            @Override
            public Map<String, Double> jitMillis() {
                Map<String, Double> all = new java.util.TreeMap<>(deployment.jitMillis());
                if (!all.isEmpty()) { // JMeter's JVM is seen where the deployment's are
                    dev.meshbench.orchestrator.local.HotSpotCounters.jitMillis(jmeter.pid()).ifPresent(ms -> all.put("JMeter", ms));
                    if (kit) {
                        dev.meshbench.orchestrator.local.HotSpotCounters.jitMillis(ProcessHandle.current().pid())
                                .ifPresent(ms -> all.put("the kit", ms));
                    }
                }
                return all;
            }

            @Override
            public java.util.OptionalDouble cpuMillis() {
                var samples = deployment.sampleResources();
                return samples.isEmpty() ? java.util.OptionalDouble.empty()
                        : java.util.OptionalDouble.of(samples.stream().mapToDouble(s -> s.cpuMillis()).sum());
            }
        };
    }

    /**
     * The local target, its data plane's binaries found and checked, and its cgroups found (CPU limits refused where they
     * cannot be applied), before any run folder or process exists.
     */
    private static Target localTarget(RunSettings config, CpuSets cpuSets, CpuLimits cpuLimits, LocalDataPlane.Binaries binaries,
            Path projectRoot, String kitVersion) {
        Optional<Cgroups> cgroups = cpuLimits.cgroupsAt(Leftovers.CGROUP_ROOT);
        LocalDataPlane dataPlane;
        try {
            dataPlane = LocalDataPlane.resolve(config.mesh(), binaries, System.getenv("PATH"), kitVersion);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bringing the cases up on data plane " + config.mesh().dataPlane().id()
                    + " failed before anything started: " + e.getMessage(), e);
        }
        ComponentJars jars;
        try {
            jars = ComponentJars.inBuildTree(projectRoot);
        } catch (TargetException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new LocalTarget(new LocalTargetSettings(jars, RunSettings.COMPONENT_READY_TIMEOUT, config.customers(), config.flightDays(),
                dataPlane, config.workload(), cpuSets, cgroups, cpuLimits));
    }

    /**
     * The sitting's one JMeter ({@link SwitchedSitting}): the plan and its JTL format copied into the sitting's folder, JMeter's
     * log and console there, pinned to the load generator's CPU set; the plan's summary line echoed.
     */
    private JMeterLoad.Running startSittingLoad(Path sittingDir, Map<String, String> jmeterProps) {
        plan = jmeter.extractPlan(sittingDir);
        JMeterLoad.Running load = JMeterLoad.start(jmeterCommand(jmeterProps, sittingDir.resolve(JMeterLoad.LOG)), jmeter,
                sittingDir.resolve(JMeterLoad.CONSOLE));
        announcePlan(sittingDir.resolve(JMeterLoad.CONSOLE), load, out, "meshbench");
        return load;
    }

    /** JMeter on this JVM's JDK with the run's copy of the plan and JTL format, pinned to the load generator's CPU set. */
    private List<String> jmeterCommand(Map<String, String> jmeterProps, Path log) {
        return JMeterLoad.command(cpuSets.prefix(ComponentRole.LOAD), Path.of(System.getProperty("java.home"), "bin", "java"),
                jmeterHeapMb, jmeter, plan.get(0), plan.get(1), jmeterProps, log);
    }

    /**
     * JMeter's own HTML dashboard of the run ({@value JMeterLoad#DASHBOARD}/index.html in the run folder), made by
     * JMeter's report generator from {@code samples.jtl}: every sample, warm-up included, as JMeter users know it. A
     * failure is a note, not a failed run: the kit's figures come from results.json.
     */
    private void dashboard(Path runDir, String caseId) {
        Path jtl = runDir.resolve(dev.meshbench.results.ResultsSchema.JTL_FILE);
        try {
            if (!Files.isRegularFile(jtl) || Files.size(jtl) == 0 || plan.size() < 2) {
                return;
            }
            Path dir = runDir.resolve(JMeterLoad.DASHBOARD);
            int exit = JMeterLoad.run(JMeterLoad.dashboardCommand(Path.of(System.getProperty("java.home"), "bin", "java"), jmeter,
                    plan.get(1), jtl, dir, runDir.resolve("dashboard.log")), jmeter, runDir.resolve("dashboard.out"));
            out.println("[" + caseId + "] " + (exit == 0 && Files.isRegularFile(dir.resolve("index.html"))
                    ? "JMeter's dashboard (every sample, warm-up included): " + dir.resolve("index.html")
                    : "JMeter's dashboard was not made (JMeter " + ExitStatus.describe(exit) + ", see " + runDir.resolve("dashboard.out") + ")"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException | RuntimeException e) {
            out.println("[" + caseId + "] JMeter's dashboard was not made: " + e.getMessage());
        }
    }

    /**
     * Prints the plan's own summary line ({@link PlanOutput#SUMMARY}) once JMeter has written it to its console file, so
     * the run's output says what the plan understood of its properties (the console file keeps everything else). A
     * daemon thread watches the file for at most a minute, while JMeter runs.
     */
    static Thread announcePlan(Path console, JMeterLoad.Running load, PrintStream out, String caseId) {
        Thread t = new Thread(() -> {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            try {
                while (System.nanoTime() < deadline) {
                    if (Files.exists(console)) {
                        try (var lines = Files.lines(console, java.nio.charset.StandardCharsets.UTF_8)) {
                            Optional<String> line = lines.filter(l -> l.startsWith(PlanOutput.PREFIX + PlanOutput.SUMMARY)).findFirst();
                            if (line.isPresent()) {
                                out.println("[" + caseId + "] plan: " + line.get().substring(PlanOutput.PREFIX.length()));
                                return;
                            }
                        } catch (java.io.IOException | java.io.UncheckedIOException e) {
                            return; // the console is JMeter's; the run reports its own problems
                        }
                    }
                    if (!load.isAlive()) {
                        return;
                    }
                    Thread.sleep(200);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "meshbench-plan-summary-" + caseId);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
