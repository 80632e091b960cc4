package dev.meshbench.orchestrator.run;

import dev.meshbench.model.CaseIds;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Parsers;
import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.orchestrator.deploy.Switch;
import dev.meshbench.orchestrator.deploy.Target;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.lifetime.ExitStatus;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.RateCalibration;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.SittingInfo;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.WarmupInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A sitting of the egress study with {@code meshbench.method=switched}: the application and one JMeter are deployed
 * and warmed once, then every case is switched in underneath them ({@link Deployment#apply}) and measured for one step,
 * in rounds (bypass first, then the others in the catalogue's order; every second round the other way round,
 * {@link #roundOrder}), so that slow drift of the machine or the JVMs falls on every case alike and each round gives one
 * same-sitting pair of every case with bypass. Every
 * measured window is a run of its own ({@link CaseRun#onRunning}: run folder, {@code run.json} with its place in the
 * sitting, recorders, its phase's samples cut out of the sitting's JTL, conversion), so the report and the gate read
 * them as any runs. A window whose switch was not confirmed by every component is not measured: its run is kept,
 * failed with the reason, and the sitting goes on with the next case.
 *
 * <p>The sitting's folder ({@code <time>-sitting}) keeps what belongs to all its runs: JMeter's plan, log, console,
 * control file and whole JTL (warm-up and switches included), and the components' logs.
 */
final class SwitchedSitting {
    /** How long a window's last answers may take to arrive after it ended, before its samples are cut out anyway. */
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(10);
    /** How long no new sample of a window must arrive for its answers to count as all in. */
    static final Duration DRAIN_QUIET = Duration.ofSeconds(1);

    private final RunSettings config;
    private final MeasurementInfo measurement;
    private final int rounds;
    private final Map<String, String> driver;
    private final Target target;
    private final Map<String, String> recorded;
    private final KitVersions versions;
    private final Optional<EgressRunSettings.Calibration> calibrate;
    private final int progressSeconds;
    private final LoadStart load;
    private final PrintStream out;
    /** The sitting's folder, once {@link #run} made it. */
    private Path sittingDir;

    /** Starts the sitting's JMeter with the given JMeter properties, its plan and logs in the given folder. */
    interface LoadStart {
        JMeterLoad.Running start(Path sittingDir, Map<String, String> jmeterProperties);
    }

    SwitchedSitting(RunSettings config, MeasurementInfo measurement, int rounds, Map<String, String> driver, Target target,
            Map<String, String> recorded, KitVersions versions, Optional<EgressRunSettings.Calibration> calibrate, int progressSeconds,
            LoadStart load, PrintStream out) {
        this.config = config;
        this.measurement = measurement;
        this.rounds = rounds;
        this.driver = driver;
        this.target = target;
        this.recorded = recorded;
        this.versions = versions;
        this.calibrate = calibrate;
        this.progressSeconds = progressSeconds;
        this.load = load;
        this.out = out;
    }

    /** The cases of one round: bypass first (every case is measured against it), then the others in the catalogue's order. */
    static List<EgressCase> order(List<EgressCase> cases) {
        List<EgressCase> order = new ArrayList<>();
        order.add(EgressCase.byId(CaseIds.BYPASS));
        for (EgressCase c : EgressCase.values()) {
            if (cases.contains(c) && !order.contains(c)) {
                order.add(c);
            }
        }
        return order;
    }

    /**
     * The order of round {@code round} (1-based): {@code order} in odd rounds, reversed in even ones (bypass, sidecar, ...,
     * sni, then sni, ..., bypass). Always the same direction would let a drift through the sitting fall on each case by
     * its place in the round: with the JIT still settling, the cases late in every round would run on warmer JVMs than
     * bypass. Alternating cancels a steady drift over every two rounds (the counterbalanced, ABBA order of
     * within-subject experiments), and the case that ends a round also begins the next, with no switch between.
     */
    static List<EgressCase> roundOrder(List<EgressCase> order, int round) {
        if (round < 1) {
            throw new IllegalArgumentException("round " + round + " must be at least 1");
        }
        if (round % 2 == 1) {
            return List.copyOf(order);
        }
        List<EgressCase> reversed = new ArrayList<>(order);
        Collections.reverse(reversed);
        return List.copyOf(reversed);
    }

    /** The phase label of a window's samples in the sitting's JTL. */
    static String phase(EgressCase c, int round) {
        return c.id() + "-" + round;
    }

    /**
     * Runs the sitting: adds each window's results to {@code runs} and each problem to {@code problems} as it goes, so a
     * caller that is interrupted keeps what finished.
     */
    void run(List<RunResults> runs, List<String> problems) {
        List<EgressCase> order = order(config.cases());
        int clients = Collections.max(config.clients());
        sittingDir = CaseRun.newRunDir(config.resultsDir(), "sitting");
        String sittingId = sittingDir.getFileName().toString();
        int windows = order.size() * rounds;
        long plannedSeconds = (long) windows * (config.stepSeconds() + 5) + (calibrate.isPresent() ? Catalogue.CALIBRATION_SECONDS + 10 : 0)
                + (measurement.warmup() == null ? 0 : measurement.warmup().limitSeconds());
        Deployment deployment;
        String bypassSwitch = target.bypassSwitch().orElse("not said by the target");
        out.printf(Locale.ROOT, "[meshbench] sitting %s (method switched; %s=%s deploys each run afresh): the application deployed "
                + "and warmed once, then %d round%s of %s%s, each case switched in underneath it; bypass by %s; at most about %s%n",
                sittingId, Catalogue.METHOD.name(), Catalogue.METHOD_FRESH, rounds, rounds == 1 ? "" : "s",
                order.stream().map(EgressCase::id).toList(), rounds > 1 && order.size() > 1 ? " (every second round the other way "
                        + "round, so that a drift through the sitting falls on every case alike)" : "", bypassSwitch,
                CaseRun.human(plannedSeconds));
        try {
            deployment = target.deploy(order.get(0), order, sittingDir.resolve("logs"));
        } catch (TargetException | IllegalArgumentException e) {
            problems.add("the sitting could not deploy the application: " + e.getMessage());
            return;
        }
        Thread hook = new Thread(deployment::close, "meshbench-sitting-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
        JMeterLoad.Running jmeter = null;
        try {
            out.printf("[meshbench] waiting for readiness and loading %d customers%n", config.customers());
            deployment.awaitReady(RunSettings.CASE_READY_TIMEOUT);
            double rate = measurement.targetRatePerSecond().isEmpty() ? 0 : measurement.targetRatePerSecond().get(0);
            LoadControl control = LoadControl.create(sittingDir.resolve("load-control.properties"), "warmup", calibrate.isPresent() ? 0 : rate);
            Map<String, String> props = JMeterLoad.sittingProperties(driver, config, deployment.endpoints(), control, clients,
                    sittingDir.resolve(CaseRun.JTL), sittingId);
            jmeter = load.start(sittingDir, props);
            JMeterLoad.Running running = jmeter;
            SittingJtl jtl = new SittingJtl(sittingDir.resolve(CaseRun.JTL));
            java.util.concurrent.ScheduledExecutorService poller = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "sitting-jtl");
                t.setDaemon(true);
                return t;
            });
            poller.scheduleWithFixedDelay(() -> {
                try {
                    jtl.poll();
                } catch (IOException | RuntimeException e) {
                    out.println("[meshbench] reading the sitting's JTL failed: " + e.getMessage());
                }
            }, 500, 500, java.util.concurrent.TimeUnit.MILLISECONDS);
            try {
                WarmupInfo warm = warmUp(deployment, running, jtl, clients, rate);
                MeasurementInfo m = measurement.withWarmup(warm);
                SittingInfo base = new SittingInfo(sittingId, SittingInfo.SWITCHED, order.stream().map(EgressCase::id).toList(), 1, 0,
                        null, List.of(), bypassSwitch);
                if (calibrate.isPresent()) {
                    Optional<MeasurementInfo> fromWarmUp = calibratedByWarmUp(warm, deployment, sittingId, m);
                    Optional<MeasurementInfo> calibrated = fromWarmUp.isPresent() ? fromWarmUp
                            : calibration(deployment, running, jtl, control, m, base, runs, problems);
                    if (calibrated.isEmpty()) {
                        return;
                    }
                    m = calibrated.get();
                    rate = m.targetRatePerSecond().get(0);
                }
                long started = System.nanoTime();
                int position = 0;
                for (int r = 1; r <= rounds; r++) {
                    List<EgressCase> thisRound = roundOrder(order, r);
                    for (EgressCase c : thisRound) {
                        position++;
                        String left = position == 1 ? "" : ", ~" + CaseRun.human((long) ((System.nanoTime() - started) / 1e9
                                / (position - 1) * (windows - position + 1))) + " left";
                        out.printf(Locale.ROOT, "[meshbench] window %d of %d: case %s, round %d of %d%s%n", position, windows, c.id(), r,
                                rounds, left);
                        if (!running.isAlive()) {
                            problems.add(c.id() + " (round " + r + "): JMeter ended before the window (see " + sittingDir.resolve(JMeterLoad.CONSOLE) + ")");
                            return;
                        }
                        SittingInfo at = new SittingInfo(sittingId, SittingInfo.SWITCHED, thisRound.stream().map(EgressCase::id).toList(), r,
                                position, null, List.of(), bypassSwitch);
                        window(deployment, running, jtl, control, c, r, rate, m.withRun(r, rounds, recorded).withSitting(at), runs)
                                .ifPresent(problems::add);
                    }
                }
            } finally {
                control.stop();
                poller.shutdownNow();
                try {
                    if (!running.waitForExit(Duration.ofSeconds(30))) {
                        out.println("[meshbench] JMeter did not end within 30 s of being told to; stopping it");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        } catch (TargetException | IllegalStateException e) {
            problems.add("the sitting stopped: " + e.getMessage());
        } catch (IOException e) {
            problems.add("the sitting stopped: cutting its JTL by case failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("the sitting was interrupted");
        } finally {
            if (jmeter != null) {
                jmeter.stop();
            }
            deployment.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    /** The sitting's warm-up: phase {@code warmup} at the clients (closed loop, or the rate given), judged as any warm-up. */
    private WarmupInfo warmUp(Deployment deployment, JMeterLoad.Running jmeter, SittingJtl jtl, int clients, double rate)
            throws InterruptedException, IOException {
        WarmupInfo plan = measurement.warmup();
        if (plan == null || WarmupInfo.NONE.equals(plan.mode())) {
            return plan;
        }
        boolean judged = WarmupInfo.STABLE.equals(plan.mode());
        out.printf(Locale.ROOT, "[meshbench] warm-up: %s at %d clients%s, once for the whole sitting%s%n", judged
                ? "until warm (JIT quiet, throughput and CPU per request flat; at most " + plan.limitSeconds() + " s)"
                : plan.limitSeconds() + " s", clients, rate > 0 ? ", " + Parsers.plain(rate) + " req/s" : ", closed loop",
                calibrate.isPresent() && judged && plan.trendWindows() != null ? "; if it ends warm, its flat last "
                        + plan.trendWindows() * plan.windowSeconds()
                        + " s are the calibration (this machine's maximum, of which every case runs at " + Parsers.plain(calibrate.get()
                        .fraction()) + "), else a calibration run follows" : "");
        // The windows' recorders run through the warm-up too, into the sitting's folder: what they cost the machine (and
        // this JVM's JIT) is then part of what warms up, not a dip at the start of the first measured window.
        Path warmDir = java.nio.file.Files.createDirectories(sittingDir.resolve("warmup"));
        ResourceRecorder resources = ResourceRecorder.start(deployment, warmDir, Duration.ofSeconds(1));
        CounterRecorder counters = CounterRecorder.start(deployment, warmDir);
        Optional<HostRecorder> host = HostRecorder.start(warmDir, HostRecorder.INTERVAL);
        try {
            return judgedWarmUp(deployment, jmeter, jtl, "warmup", "warm-up");
        } finally {
            resources.close();
            counters.close();
            host.ifPresent(HostRecorder::close);
        }
    }

    /**
     * The samples of phase {@code phase} (into {@code <phase>.jtl} in the sitting's folder, none into a window) judged
     * by the sitting's warm-up plan at its clients until warm or capped; its lines on the console start with
     * {@code [label]}.
     */
    private WarmupInfo judgedWarmUp(Deployment deployment, JMeterLoad.Running jmeter, SittingJtl jtl, String phase, String label)
            throws InterruptedException, IOException {
        Path file = sittingDir.resolve(phase + ".jtl");
        int clients = Collections.max(config.clients());
        jtl.route(phase, file);
        try {
            return WarmUp.run(measurement.warmup(), clients, clients, jmeter, file, () -> { }, EgressStudy.signals(deployment, jmeter, true),
                    out, label);
        } finally {
            jtl.unroute(phase);
        }
    }

    /**
     * The sitting's rate from its warm-up, when that can set it: the warm-up ran bypass in a closed loop at the
     * sitting's clients and ended warm, so its last {@code trendWindows} windows are a closed loop of bypass whose
     * throughput did not trend (and no JIT was busy at their end). Their mean throughput is then the maximum a
     * calibration run would measure next, found without running the same loop for
     * {@link Catalogue#CALIBRATION_SECONDS} more. Empty when the warm-up was not judged, ended capped, or ran another
     * case: a calibration run of its own then sets the rate.
     */
    private Optional<MeasurementInfo> calibratedByWarmUp(WarmupInfo warm, Deployment deployment, String sittingId, MeasurementInfo m) {
        if (warm == null || !WarmupInfo.STABLE.equals(warm.mode()) || !Boolean.TRUE.equals(warm.stable()) || warm.trendWindows() == null
                || warm.windowsPerSecond().size() < warm.trendWindows() || !CaseIds.BYPASS.equals(deployment.egressCase().id())) {
            return Optional.empty();
        }
        List<Double> all = warm.windowsPerSecond();
        double max = all.subList(all.size() - warm.trendWindows(), all.size()).stream().mapToDouble(Double::doubleValue).average()
                .orElseThrow();
        max = Math.round(max * 10) / 10.0;
        int seconds = warm.trendWindows() * warm.windowSeconds();
        double fraction = calibrate.get().fraction();
        RateCalibration c;
        try {
            c = RateCalibration.ofWarmUp(sittingId, deployment.egressCase().id(), warm.clients(), max, fraction, seconds);
        } catch (IllegalArgumentException e) {
            out.println("[meshbench] the warm-up cannot set the rate (" + e.getMessage() + "); a calibration run will");
            return Optional.empty();
        }
        out.printf(Locale.ROOT, "[meshbench] calibrated by the warm-up: %s in a closed loop at %d clients reached %.1f tx/s over its "
                + "last %d s, windows judged flat (%s); every case runs at %s req/s (%s of it), recorded in each run.json%n", c.caseId(),
                c.clients(), c.maxPerSecond(), seconds, warm.reason().replaceFirst("^warm: ", ""), Parsers.plain(c.ratePerSecond()),
                Parsers.plain(fraction));
        return Optional.of(m.withCalibratedRate(c, config.clients().size(), calibrate.get().shortfallPercent()));
    }

    /**
     * The calibration run, in the warm deployment, when the warm-up could not set the rate: bypass in a closed loop for
     * {@link Catalogue#CALIBRATION_SECONDS} after {@code meshbench.warmupSeconds}, a run of its own marked as the
     * calibration; the sitting's rate is the fraction of its throughput. Empty, with the problem added, when it failed
     * or reached too little.
     */
    private Optional<MeasurementInfo> calibration(Deployment deployment, JMeterLoad.Running jmeter, SittingJtl jtl, LoadControl control,
            MeasurementInfo m, SittingInfo base, List<RunResults> runs, List<String> problems) throws InterruptedException, IOException {
        EgressCase bypass = EgressCase.byId(CaseIds.BYPASS);
        double fraction = calibrate.get().fraction();
        int clients = Collections.max(config.clients());
        out.printf(Locale.ROOT, "[meshbench] calibration: %s in a closed loop at %d clients for %d s (after %d s left out) in the warm "
                + "deployment, for this machine's maximum in this sitting; every case then runs at %s of it%n", bypass.id(), clients,
                Catalogue.CALIBRATION_SECONDS, config.warmupSeconds(), Parsers.plain(fraction));
        if (deployment.egressCase() != bypass) {
            deployment.apply(bypass);
        }
        MeasurementInfo cm = m.asCalibrationRun().withRun(1, 1, recorded).withSitting(base);
        List<RunResults> got = new ArrayList<>();
        Optional<String> problem = measure(EgressStudy.calibrationSettings(config), deployment, jmeter, jtl, control, "calibration", 0, cm, got);
        return EgressStudy.calibrated(problem, got, fraction, calibrate.get().shortfallPercent(), m, config.clients().size(), problems, out);
    }

    /** One case's window of one round: switch it in (unless it is in), measure one step, convert; the problem, if any. */
    private Optional<String> window(Deployment deployment, JMeterLoad.Running jmeter, SittingJtl jtl, LoadControl control, EgressCase c,
            int round, double rate, MeasurementInfo m, List<RunResults> runs) throws InterruptedException, IOException {
        MeasurementInfo withSwitch = m;
        if (deployment.egressCase() != c) {
            control.set("switch-" + phase(c, round), rate);
            Switch s;
            try {
                s = deployment.apply(c);
            } catch (TargetException e) {
                String reason = "switching to " + c.id() + " was not confirmed, so the case was not measured: " + e.getMessage();
                out.printf("[%s] SWITCH FAILED: %s%n", c.id(), e.getMessage());
                Path dir = CaseRun.failedBeforeMeasuring(config, c, target, versions, m, reason);
                return Optional.of(c.id() + " (round " + round + ", " + dir.getFileName() + "): " + reason);
            }
            out.printf(Locale.ROOT, "[%s] switched from %s in %.1f s: %s%n", c.id(), s.from().id(), s.seconds(), String.join("; ", s.done()));
            List<String> done = new ArrayList<>(s.done());
            if (!s.cold().isEmpty()) {
                done.add(rewarm(deployment, jmeter, jtl, control, c, round, rate, s.cold()));
            }
            withSwitch = m.withSitting(m.sitting().withSwitch(s.seconds(), done));
        }
        RunSettings one = new RunSettings(List.of(c), List.of(Collections.max(config.clients())), config.stepSeconds(), config.warmupSeconds(),
                config.thinkTimeMs(), config.customers(), config.flightDays(), config.maxErrorPercent(), config.resultsDir(), config.mesh(),
                config.workload());
        return measure(one, deployment, jmeter, jtl, control, phase(c, round), rate, withSwitch, runs);
    }

    /**
     * After a switch that started JVMs anew ({@link Switch#cold}: on a cluster, the services' pods a changed pod template
     * restarted): the sitting's warm-up again, at the sitting's rate, judged as the first one, so that the window does
     * not measure those JVMs' JIT at work while the other cases' windows met them warm. Its samples go to
     * {@code rewarm-<case>-<round>.jtl} in the sitting's folder, none into the window. What happened, in words, for the
     * window's {@code run.json}.
     */
    private String rewarm(Deployment deployment, JMeterLoad.Running jmeter, SittingJtl jtl, LoadControl control, EgressCase c, int round,
            double rate, List<String> cold) throws InterruptedException, IOException {
        WarmupInfo plan = measurement.warmup();
        String who = String.join(", ", cold);
        if (plan == null || WarmupInfo.NONE.equals(plan.mode()) || plan.limitSeconds() == 0) {
            return "not warmed up again after " + who + " started cold (" + Catalogue.WARMUP.name() + "="
                    + (plan == null || WarmupInfo.NONE.equals(plan.mode()) ? WarmupInfo.NONE : "0") + ")";
        }
        String phase = "rewarm-" + phase(c, round);
        out.printf(Locale.ROOT, "[%s] warming up again: the switch started %s cold; at %s req/s until warm, as the sitting's warm-up%n", c.id(),
                who, Parsers.plain(rate));
        control.set(phase, rate);
        WarmupInfo w = judgedWarmUp(deployment, jmeter, jtl, phase, c.id());
        return String.format(Locale.ROOT, "warmed up again for %.0f s at %s req/s after %s started cold (%s)", w.tookSeconds(),
                Parsers.plain(rate), who, w.reason());
    }

    /**
     * Measures the case applied now for one step of {@code settings} as a run of its own: its samples are those JMeter
     * started while the control file said {@code phase}, cut out of the sitting's JTL once the last of them answered.
     */
    private Optional<String> measure(RunSettings settings, Deployment deployment, JMeterLoad.Running jmeter, SittingJtl jtl,
            LoadControl control, String phase, double rate, MeasurementInfo m, List<RunResults> runs) throws InterruptedException, IOException {
        EgressCase c = deployment.egressCase();
        CaseRun run;
        try {
            run = CaseRun.onRunning(settings, deployment, target, versions, out, m);
        } catch (TargetException e) {
            return Optional.of(c.id() + ": starting the run failed: " + e.getMessage());
        }
        Optional<String> loadFailure = Optional.empty();
        try {
            jtl.route(phase, run.jtl());
            control.set(phase, rate);
            run.stopLoadWith(() -> { }); // a component's death ends the window early, below
            run.showProgress(Duration.ofSeconds(progressSeconds));
            long end = System.nanoTime() + Duration.ofSeconds(settings.stepSeconds()).toNanos();
            while (System.nanoTime() < end && jmeter.isAlive() && deployment.failure().isEmpty()) {
                Thread.sleep(Math.min(250, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            }
            control.set("drain-" + phase, rate);
            if (!jmeter.isAlive()) {
                loadFailure = Optional.of("JMeter ended during the window (" + ExitStatus.describe(jmeter.exitValue()) + ")");
            }
            drain(jtl, phase);
        } catch (InterruptedException e) {
            jtl.unroute(phase);
            run.close();
            throw e;
        } finally {
            jtl.unroute(phase);
        }
        RunResults results;
        try {
            results = run.finish(loadFailure);
        } catch (TargetException e) {
            return Optional.of(c.id() + " (" + run.runId() + "): " + e.getMessage());
        }
        runs.add(results);
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

    /** Waits until no new sample of {@code phase} arrived for {@link #DRAIN_QUIET}, at most {@link #DRAIN_LIMIT}. */
    private static void drain(SittingJtl jtl, String phase) throws InterruptedException, IOException {
        long limit = System.nanoTime() + DRAIN_LIMIT.toNanos();
        long quietFrom = System.nanoTime();
        long lastCount = -1;
        while (System.nanoTime() < limit) {
            jtl.poll();
            long count = jtl.seen(phase).map(SittingJtl.Seen::samples).orElse(0L);
            if (count != lastCount) {
                lastCount = count;
                quietFrom = System.nanoTime();
            } else if (System.nanoTime() - quietFrom >= DRAIN_QUIET.toNanos()) {
                return;
            }
            Thread.sleep(100);
        }
    }
}
