package dev.meshbench.orchestrator.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.orchestrator.deploy.Endpoints;
import dev.meshbench.orchestrator.deploy.Target;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.convert.JtlStepWindows;
import dev.meshbench.results.convert.ResultsConverter;
import dev.meshbench.results.io.ResultsFormatException;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.smp.SmpExporter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One case's run, start to finish, independent of what drives the load: creates the run folder and
 * {@code run.json}, deploys the case, waits until ready, samples CPU, shows live progress from the JTL the load
 * generator writes, then tears down, records each step's window and the outcome, and converts the results once.
 * A failed run is kept and marked failed; other runs' folders are never touched.
 */
public final class CaseRun implements AutoCloseable {
    public static final String RUN_JSON = "run.json";
    public static final String JTL = "samples.jtl";
    private static final Logger LOG = LoggerFactory.getLogger(CaseRun.class);
    private static final DateTimeFormatter RUN_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    /**
     * A new run folder under {@code parent}, named as every run of both studies is: {@code yyyyMMdd-HHmmss-<name>} (UTC),
     * with {@code -2}, {@code -3}... when a run started in the same second; its {@code run.owner} written, so that a later
     * run (or the report) tells a killed run from a live one. Never reuses a folder.
     */
    public static Path newRunDir(Path parent, String name) {
        String base = timestamped(name);
        try {
            Files.createDirectories(parent);
            for (int i = 1; ; i++) {
                Path dir = parent.resolve(i == 1 ? base : base + "-" + i);
                try {
                    Files.createDirectory(dir);
                    dev.meshbench.results.RunOwner.ofThisProcess().writeTo(dir);
                    return dir;
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    // a run started in the same second: take the next suffix
                }
            }
        } catch (IOException e) {
            throw new TargetException("creating a run folder under " + parent + " failed: " + e.getMessage(), e);
        }
    }

    /** {@code yyyyMMdd-HHmmss-<name>} of now (UTC), as run folders are named. */
    public static String timestamped(String name) {
        return RUN_ID_TIME.format(Instant.now()) + "-" + name;
    }

    private final RunSettings config;
    private final EgressCase egressCase;
    private final Path runDir;
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private RunInputs inputs;
    private Deployment deployment;
    private ResourceRecorder recorder;
    private CounterRecorder counters;
    private HostRecorder host;
    private JtlTail tail;
    private ScheduledExecutorService progress;
    private ScheduledExecutorService watcher;
    private volatile String deadComponent;
    private boolean finished;
    /** Whether this run deployed its case and tears it down ({@link #start}), or measures a case applied to a running deployment. */
    private boolean ownsDeployment = true;
    /** The mesh's per-listener counters when the run began measuring a running deployment ({@link #onRunning}); else null. */
    private Map<String, String> hopsAtStart;
    private List<Component> components = List.of();
    /** Stops the running load: when a component dies, or the load runs past its {@link LoadDeadline}; {@code null}: none yet. */
    private volatile Runnable stopLoad;
    /** Why the load was stopped for running past its deadline; {@code null} unless it was. */
    private volatile String overrun;
    /** Whether the kit is being interrupted when {@link #finish} runs: the JVM exiting (Ctrl-C); tests replace it. */
    java.util.function.BooleanSupplier interrupted = CaseRun::shuttingDown;

    private CaseRun(RunSettings config, EgressCase egressCase, Path runDir, PrintStream out) {
        this.config = config;
        this.egressCase = egressCase;
        this.runDir = runDir;
        this.out = out;
    }

    /**
     * Creates the run folder, writes {@code run.json} (status running), deploys and readies the case and starts
     * sampling. On failure everything started is torn down and the run is marked failed before this throws.
     */
    public static CaseRun start(RunSettings config, EgressCase egressCase, Target target, KitVersions versions, PrintStream out) {
        return start(config, egressCase, target, versions, out, MeasurementInfo.DEFAULT);
    }

    /** As {@link #start(RunSettings, EgressCase, Target, KitVersions, PrintStream)}, judging steps by {@code measurement}. */
    public static CaseRun start(RunSettings config, EgressCase egressCase, Target target, KitVersions versions, PrintStream out,
            MeasurementInfo measurement) {
        return start(config, egressCase, target, versions, out, measurement,
                measurement.calibrationOnly() ? "calibration-" + egressCase.id() : egressCase.id());
    }

    private static CaseRun start(RunSettings config, EgressCase egressCase, Target target, KitVersions versions, PrintStream out,
            MeasurementInfo measurement, String runName) {
        Path runDir = newRunDir(config.resultsDir(), runName);
        CaseRun run = new CaseRun(config, egressCase, runDir, out);
        run.inputs = RunInputs.starting(runDir.getFileName().toString(), egressCase.id(),
                target.kind(), config.clients(),
                config.stepSeconds(), config.warmupSeconds(), config.thinkTimeMs(), config.customers(), versions,
                Machine.ofThisHost(), Instant.now()).withDataPlane(target.dataPlane()).withWorkload(config.workload())
                .withMeasurement(measurement.withCpuMethod(target.cpuMethod()));
        run.writeInputs();
        try {
            out.printf("[%s] run %s: deploying on the %s target, data plane %s (%s); workload %s mix, flight cache %s, "
                    + "rewards %s; CPU per component: %s%n", egressCase.id(), run.inputs.runId(), target.kind().id(),
                    run.inputs.dataPlane().label(), egressCase.description(), config.workload().mix(),
                    config.workload().flightCache() ? "on" : "off", config.workload().rewardsAsync() ? "async" : "sync",
                    target.cpuMethod());
            if (!config.workload().addedLatencyMs().isEmpty()) {
                out.printf("[%s] DELIBERATELY SLOWED (%s): %s per API request%n", egressCase.id(), RunSettings.P_SLOW_SERVICE,
                        config.workload().slowdown());
            }
            run.deployment = target.deploy(egressCase, runDir.resolve("logs"));
            out.printf("[%s] waiting for readiness and loading %d customers%n", egressCase.id(), config.customers());
            run.deployment.awaitReady(RunSettings.CASE_READY_TIMEOUT);
            run.inputs = run.inputs.withDataPlane(run.deployment.dataPlane(run.inputs.dataPlane()));
            run.deployment.cluster().ifPresent(c -> run.inputs = run.inputs.withCluster(c));
            run.writeInputs();
            run.recorder = ResourceRecorder.start(run.deployment, runDir, Duration.ofSeconds(1));
            run.counters = CounterRecorder.start(run.deployment, runDir);
            // The host's CPU only describes the run on the local target, where everything shares this machine.
            if (target.kind() == TargetKind.LOCAL) {
                run.host = HostRecorder.start(runDir, HostRecorder.INTERVAL).orElse(null);
            }
            run.tail = new JtlTail(runDir.resolve(JTL));
            out.printf("[%s] ready after %.1f s: %d components; load: clients %s, %d s per step (%d s warm-up), about %s%n",
                    egressCase.id(), run.elapsedSeconds(), run.deployment.components().size(), config.clients(),
                    config.stepSeconds(), config.warmupSeconds(), human(config.loadSecondsPerCase()));
            Endpoints where = run.deployment.endpoints();
            out.printf("[%s] load goes to %s%n", egressCase.id(), where.entry()
                    .map(e -> "the entry " + e + " (ingress gateway, the client API by path)")
                    .orElse("each service's sidecar " + where.services()));
            run.watchComponents(WATCH_INTERVAL);
            return run;
        } catch (RuntimeException e) {
            run.fail("start failed: " + e.getMessage());
            throw e;
        }
    }

    /**
     * A run of the case {@code deployment} has applied now, on a deployment that runs on after it ({@code meshbench.method=
     * switched}): creates the run folder and {@code run.json} and starts sampling; the load and the deployment are the
     * sitting's. {@link #finish} stops sampling and converts, and leaves the deployment running.
     */
    public static CaseRun onRunning(RunSettings config, Deployment deployment, Target target, KitVersions versions, PrintStream out,
            MeasurementInfo measurement) {
        EgressCase egressCase = deployment.egressCase();
        String runName = measurement.calibrationOnly() ? "calibration-" + egressCase.id() : egressCase.id();
        Path runDir = newRunDir(config.resultsDir(), runName);
        CaseRun run = new CaseRun(config, egressCase, runDir, out);
        run.ownsDeployment = false;
        run.inputs = RunInputs.starting(runDir.getFileName().toString(), egressCase.id(), target.kind(), config.clients(),
                config.stepSeconds(), config.warmupSeconds(), config.thinkTimeMs(), config.customers(), versions,
                Machine.ofThisHost(), Instant.now()).withDataPlane(deployment.dataPlane(target.dataPlane())).withWorkload(config.workload())
                .withMeasurement(measurement.withCpuMethod(target.cpuMethod()));
        deployment.cluster().ifPresent(c -> run.inputs = run.inputs.withCluster(c));
        run.writeInputs();
        try {
            run.deployment = deployment;
            run.hopsAtStart = deployment.hopStats();
            run.recorder = ResourceRecorder.start(deployment, runDir, Duration.ofSeconds(1));
            run.counters = CounterRecorder.start(deployment, runDir);
            if (target.kind() == TargetKind.LOCAL) {
                run.host = HostRecorder.start(runDir, HostRecorder.INTERVAL).orElse(null);
            }
            run.tail = new JtlTail(runDir.resolve(JTL));
            run.watchComponents(WATCH_INTERVAL);
            return run;
        } catch (RuntimeException e) {
            run.fail("start failed: " + e.getMessage());
            throw e;
        }
    }

    /** Marks a run that could not be measured failed, before it began: its folder and {@code run.json} say why. */
    public static Path failedBeforeMeasuring(RunSettings config, EgressCase egressCase, Target target, KitVersions versions,
            MeasurementInfo measurement, String reason) {
        Path runDir = newRunDir(config.resultsDir(), egressCase.id());
        CaseRun run = new CaseRun(config, egressCase, runDir, System.out);
        run.inputs = RunInputs.starting(runDir.getFileName().toString(), egressCase.id(), target.kind(), config.clients(),
                config.stepSeconds(), config.warmupSeconds(), config.thinkTimeMs(), config.customers(), versions,
                Machine.ofThisHost(), Instant.now()).withDataPlane(target.dataPlane()).withWorkload(config.workload())
                .withMeasurement(measurement.withCpuMethod(target.cpuMethod())).failed(reason);
        run.finished = true;
        run.writeInputs();
        return runDir;
    }

    /** How often the run looks for a dead component while it runs: a dead one stops the load within about this. */
    static final Duration WATCH_INTERVAL = Duration.ofSeconds(1);

    /**
     * Sets what stops the load now (the running JMeter's stop): called once when a component dies, so that the load
     * does not run on against a broken deployment (if one already died, it is called at once), and when the load runs
     * past its {@link LoadDeadline} at a progress line of {@link #showProgress} (the run then fails with that reason,
     * {@link #overrun()}).
     */
    public void stopLoadWith(Runnable stop) {
        stopLoad = stop;
        if (deadComponent != null) {
            stop.run();
        }
    }

    /** Looks every {@code every} for a component that died; says so once, with why, and stops the load. */
    private void watchComponents(Duration every) {
        watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "run-watcher");
            t.setDaemon(true);
            return t;
        });
        watcher.scheduleWithFixedDelay(() -> {
            try {
                if (deadComponent != null) {
                    return;
                }
                deployment.failure().ifPresent(f -> {
                    deadComponent = f;
                    out.printf("[%s] COMPONENT DIED: %s; stopping the load%n", egressCase.id(), f);
                    Runnable stop = stopLoad;
                    if (stop != null) {
                        stop.run();
                    }
                });
            } catch (RuntimeException e) {
                LOG.debug("looking for dead components failed: {}", e.toString());
            }
        }, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    public Path runDir() {
        return runDir;
    }

    public String runId() {
        return inputs.runId();
    }

    public String caseId() {
        return egressCase.id();
    }

    /** Records in {@code run.json} how the warm-up before the first step went. */
    public void recordWarmup(dev.meshbench.results.WarmupInfo warmup) {
        inputs = inputs.withMeasurement(inputs.measurementOrDefault().withWarmup(warmup));
        writeInputs();
    }

    /** Where the load generator must write its samples. */
    public Path jtl() {
        return runDir.resolve(JTL);
    }

    public Endpoints endpoints() {
        return deployment.endpoints();
    }

    public Deployment deployment() {
        return deployment;
    }

    /** Prints one progress line every {@code every} while the load runs: step, clients, elapsed, left, tx/s, errors. */
    public void showProgress(Duration every) {
        progress = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "run-progress");
            t.setDaemon(true);
            return t;
        });
        long loadStart = System.currentTimeMillis();
        long[] last = {0, Long.MIN_VALUE}; // samples, and the last answer's end, at the previous line
        progress.scheduleAtFixedRate(() -> {
            try {
                tail.poll();
                Map<Integer, JtlTail.StepCounts> steps = tail.steps();
                steps.remove(WarmUp.STEP); // the warm-up's samples: WarmUp shows those
                long total = steps.values().stream().mapToLong(JtlTail.StepCounts::samples).sum();
                long errors = steps.values().stream().mapToLong(JtlTail.StepCounts::errors).sum();
                long now = System.currentTimeMillis();
                checkDeadline(now - loadStart);
                java.util.OptionalLong first = steps.values().stream().mapToLong(JtlTail.StepCounts::firstStartMs).min();
                long lastEnd = steps.values().stream().mapToLong(JtlTail.StepCounts::lastEndMs).max().orElse(Long.MIN_VALUE);
                // the first interval with samples runs from the first measured sample, not from when progress began
                double tps = rateOnSamplesClock(total - last[0], last[0] == 0 ? first.orElse(lastEnd) : last[1], lastEnd);
                if (total > 0) {
                    last[0] = total;
                    last[1] = lastEnd;
                }
                int clients = tail.latestStep();
                if (clients < 0 || clients == WarmUp.STEP) {
                    out.printf("[%s] waiting for the load generator's first sample (%s since ready)%n", egressCase.id(),
                            human((now - loadStart) / 1000));
                } else {
                    long elapsed = (now - first.orElse(loadStart)) / 1000;
                    long left = Math.max(0, config.loadSecondsPerCase() - elapsed);
                    out.printf("[%s] step %d/%d: %d clients | %s elapsed, ~%s left | %.1f tx/s | %d samples, %d errors%s%n",
                            egressCase.id(), config.clients().indexOf(clients) + 1, config.clients().size(), clients,
                            human(elapsed), human(left), tps, total, errors, hostNow() + rateNow(clients, tps));
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("progress poll failed: {}", e.toString());
            }
        }, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Requests per second of {@code samples} answered between {@code fromMs} and {@code toMs} on the samples' own clock
     * (their start and end times in the JTL), 0 for no time between. Not the poll's clock: what a JTL shows at a poll
     * lags the load (JMeter writes it in blocks, and a sitting's JTL is cut into each window's every 0.5 s), so samples
     * seen over the seconds between two polls read a held rate as 5 to 20 % short.
     */
    static double rateOnSamplesClock(long samples, long fromMs, long toMs) {
        return toMs > fromMs ? samples * 1000.0 / (toMs - fromMs) : 0;
    }

    /** Why the load was stopped for running grossly past its plan, if it was. */
    public Optional<String> overrun() {
        return Optional.ofNullable(overrun);
    }

    private void checkDeadline(long elapsedMs) {
        Runnable stop = stopLoad;
        if (stop == null || overrun != null) {
            return;
        }
        int clients = tail.latestStep();
        String where = clients < 0 ? "before the first sample" : "step " + (config.clients().indexOf(clients) + 1) + "/"
                + config.clients().size() + " (" + clients + " clients)";
        new LoadDeadline(config.loadSecondsPerCase()).exceeded(elapsedMs, where).ifPresent(reason -> {
            overrun = reason;
            out.printf("[%s] STOPPING THE LOAD: %s%n", egressCase.id(), reason);
            stop.run();
        });
    }

    /** What an interrupted run says everywhere: run.json, results.json, the report and the verdict. */
    public static final String INTERRUPTED = "interrupted before the run finished";

    /**
     * Why a run failed, if it did: a component that died, else the load stopped past its deadline, else what the load
     * reported. When the kit itself was interrupted (Ctrl-C) the run says {@link #INTERRUPTED} first, whatever the
     * load reported: JMeter's exit 143 (128 + SIGTERM) is then the kit stopping it, not a failure of its own.
     */
    static Optional<String> failureReason(Optional<String> died, Optional<String> overrun, Optional<String> loadFailure,
            boolean interrupted) {
        Optional<String> failure = died.map(d -> "component died during the run: " + d).or(() -> overrun).or(() -> loadFailure);
        if (!interrupted) {
            return failure;
        }
        return Optional.of(INTERRUPTED + failure.map(f -> " (the kit stopped what was running: " + f + ")").orElse(""));
    }

    /** True once the JVM has begun to exit (Ctrl-C, SIGTERM): no shutdown hook can be added any more. */
    static boolean shuttingDown() {
        Thread probe = new Thread(() -> { }, "meshbench-shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    /**
     * Stops sampling, tears the case down, records step windows and the outcome, and converts the results.
     *
     * @param loadFailure why the load part failed, if it did
     * @return the converted results (also written as {@code results.json})
     */
    public synchronized RunResults finish(Optional<String> loadFailure) {
        if (finished) {
            throw new IllegalStateException("run " + runId() + " already finished");
        }
        stopProgress();
        Optional<String> died = deployment == null ? Optional.empty() : deployment.failure();
        Map<String, String> hopsAtEnd = Map.of();
        if (deployment != null) {
            hopsAtEnd = deployment.hopStats();
            writeHopStats(hopsAtEnd, "hops.json");
            if (hopsAtStart != null) {
                writeHopStats(hopsAtStart, HOPS_AT_START);
            }
            components = deployment.components();
        }
        teardown();
        if (Files.exists(jtl())) {
            try {
                for (StepWindow w : JtlStepWindows.read(jtl()).values()) {
                    if (config.clients().contains(w.clients())) {
                        inputs = inputs.withStep(w);
                    }
                }
            } catch (ResultsFormatException e) {
                LOG.warn("reading the step windows from {} failed: {}", jtl(), e.getMessage());
            }
        }
        Optional<String> failure = failureReason(died, overrun(), loadFailure, interrupted.getAsBoolean());
        if (failure.isEmpty() && !Files.exists(jtl())) {
            failure = Optional.of("the load generator wrote no samples (" + jtl() + " missing)");
        }
        inputs = failure.map(inputs::failed).orElseGet(inputs::passed);
        writeInputs();
        try {
            RunResults results = ResultsConverter.convert(runDir);
            List<String> gaps = new java.util.ArrayList<>(RunChecks.gaps(results, components, runDir));
            if (hopsAtStart != null && !hopsAtEnd.isEmpty()) {
                gaps.addAll(PathProof.gaps(egressCase, hopsAtStart, hopsAtEnd));
            }
            if (failure.isEmpty() && !gaps.isEmpty()) {
                // Incomplete results must not pass as a measurement: keep them, marked failed.
                inputs = inputs.failed("incomplete run: " + String.join("; ", gaps));
                writeInputs();
                results = ResultsConverter.convert(runDir);
            }
            SmpExporter.writeOrWarn(runDir, results); // smp.json for Meshery; a failure is a warning, not a failed run
            out.printf("[%s] run %s %s after %s; results: %s%n", egressCase.id(), runId(), inputs.status().id(),
                    human((long) elapsedSeconds()), runDir.resolve("results.json"));
            return results;
        } catch (IOException | RuntimeException e) {
            throw new TargetException("converting the results of run " + runId() + " in " + runDir + " failed: " + e.getMessage(), e);
        }
    }

    /** The mesh's counters when a run on a running deployment began measuring; {@code hops.json} has them at its end. */
    public static final String HOPS_AT_START = "hops-start.json";

    /**
     * {@code hops.json} (and {@link #HOPS_AT_START}): every mesh component's per-listener counters at the end (and start),
     * proof of the path taken.
     */
    private void writeHopStats(Map<String, String> stats, String fileName) {
        if (stats.isEmpty()) {
            return;
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode all = json.createObjectNode();
        stats.forEach((component, text) -> {
            try {
                all.set(component, json.readTree(text));
            } catch (IOException e) {
                LOG.warn("counters of {} are not JSON, kept as text: {}", component, e.getMessage());
                all.put(component, text);
            }
        });
        try {
            json.writerWithDefaultPrettyPrinter().writeValue(runDir.resolve(fileName).toFile(), all);
        } catch (IOException e) {
            LOG.warn("writing hops.json failed: {}", e.toString());
        }
    }

    /**
     * For a fixed-rate step: {@code  | rate 298/300} or {@code  | rate 180/300: NOT HOLDING}, judged on the last
     * progress interval by the run's shortfall threshold; empty for a closed loop.
     */
    private String rateNow(int clients, double requestsPerSecond) {
        var m = inputs.measurementOrDefault();
        int i = config.clients().indexOf(clients);
        if (m.targetRatePerSecond().isEmpty() || i < 0 || i >= m.targetRatePerSecond().size()) {
            return "";
        }
        double target = m.targetRatePerSecond().get(i);
        return String.format(java.util.Locale.ROOT, " | rate %.0f/%s%s", requestsPerSecond,
                dev.meshbench.model.settings.Parsers.plain(target),
                m.holdsRate(target, requestsPerSecond) ? "" : ": NOT HOLDING (too few clients for the answers' time, or the host saturated)");
    }

    private String hostNow() {
        if (host == null || Double.isNaN(host.lastBusyPercent())) {
            return "";
        }
        double busy = host.lastBusyPercent();
        return String.format(java.util.Locale.ROOT, " | host %.0f%% busy%s", busy,
                busy > inputs.measurementOrDefault().saturationThresholdPercent() ? ": SATURATED (the step measures CPU contention)" : "");
    }

    /** Stops progress and sampling (taking a last sample) and tears the deployment down. */
    private void teardown() {
        stopProgress();
        if (recorder != null) {
            recorder.close();
        }
        if (counters != null) {
            counters.close();
        }
        if (host != null) {
            host.close();
        }
        if (deployment != null && ownsDeployment) {
            deployment.close();
        }
        finished = true;
    }

    private void fail(String reason) {
        teardown();
        inputs = inputs.failed(reason);
        writeInputs();
        out.printf("[%s] run %s failed: %s%n", egressCase.id(), inputs.runId(), reason);
    }

    private void stopProgress() {
        if (progress != null) {
            progress.shutdownNow();
        }
        if (watcher != null) {
            watcher.shutdownNow();
        }
    }

    private void writeInputs() {
        try {
            ResultsJson.writeRunInputs(runDir.resolve(RUN_JSON), inputs);
        } catch (IOException e) {
            throw new TargetException("writing " + runDir.resolve(RUN_JSON) + " failed: " + e.getMessage(), e);
        }
    }

    private double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** {@code 45s}, {@code 2m05s} or {@code 1h05m}: durations in both studies' progress lines. */
    public static String human(long seconds) {
        if (seconds >= 3600) {
            return (seconds / 3600) + "h" + String.format(java.util.Locale.ROOT, "%02d", seconds % 3600 / 60) + "m";
        }
        return seconds >= 60 ? (seconds / 60) + "m" + String.format(java.util.Locale.ROOT, "%02d", seconds % 60) + "s" : seconds + "s";
    }

    /** Tears down and marks the run failed if {@link #finish} was never reached (error, Ctrl-C). */
    @Override
    public synchronized void close() {
        if (!finished) {
            fail(INTERRUPTED);
        }
    }
}
