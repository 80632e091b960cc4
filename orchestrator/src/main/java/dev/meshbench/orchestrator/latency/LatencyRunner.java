package dev.meshbench.orchestrator.latency;

import dev.meshbench.orchestrator.deploy.LatencyDeployment;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.run.CaseRun;
import dev.meshbench.orchestrator.run.WarmUp;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.LoadPhase;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Runs latency cells one after the other, each start to finish: deploy it (or apply it to the deployment the previous
 * cell ran on, where the target can), warm up (closed loop, not measured), the closed-loop phase that finds the
 * maximum rate, the open-loop phase at {@code loadFraction} of it, and write {@code latency.json} into the cell's own
 * folder under {@code <results>/latency/}. A cell that fails is written as failed with its reason, what runs is torn
 * down, and the next cell still runs; earlier cells' files are never touched. Everything is torn down at the end.
 */
public final class LatencyRunner {
    /** The load generator, as the runner uses it (the kit's own open-loop generator; tests may give another). */
    public interface Load {
        /** {@code rate} empty: a closed loop, as fast as the connections go. */
        LoadPhase run(List<URI> targets, int connections, Duration duration, OptionalDouble rate, Consumer<String> progress)
                throws InterruptedException;

        /** Name and version, for the results. */
        String describe();
    }

    /** Where the cells run on a target; closing it tears down what runs, and closing twice is harmless. */
    public interface Deployer extends AutoCloseable {
        /**
         * Makes {@code cell} run and waits until it is ready: deployed for it (its components' logs in {@code logDir}), or
         * applied to the deployment the previous cell ran on.
         */
        LatencyDeployment deploy(LatencyCell cell, Path logDir);

        @Override
        void close();

        /** Deploys one cell for itself, telling {@code created} as soon as there is something to tear down. */
        interface OneCell {
            LatencyDeployment deploy(LatencyCell cell, Path logDir, Consumer<LatencyDeployment> created);
        }

        /**
         * A deployer that deploys the first cell for itself and applies each next one to that deployment where
         * {@code applied} can (it applies the cell and says true; false: the cell is deployed afresh, the running one torn
         * down first). After a failed cell, {@link #close} has torn everything down and the next cell is deployed afresh.
         */
        static Deployer switched(OneCell deploy, java.util.function.BiPredicate<LatencyDeployment, LatencyCell> applied) {
            return new Cells(deploy, applied);
        }

        /** A deployer that deploys every cell for itself and tears the previous one down first. */
        static Deployer perCell(OneCell deploy) {
            return new Cells(deploy, (running, cell) -> false);
        }
    }

    /** {@link Deployer#switched} and {@link Deployer#perCell}: the deployment running now, kept or replaced per cell. */
    private static final class Cells implements Deployer {
        private final Deployer.OneCell deploy;
        private final java.util.function.BiPredicate<LatencyDeployment, LatencyCell> applied;
        private LatencyDeployment current;

        Cells(Deployer.OneCell deploy, java.util.function.BiPredicate<LatencyDeployment, LatencyCell> applied) {
            this.deploy = deploy;
            this.applied = applied;
        }

        @Override
        public LatencyDeployment deploy(LatencyCell cell, Path logDir) {
            LatencyDeployment running;
            synchronized (this) {
                running = current;
            }
            if (running != null && applied.test(running, cell)) {
                return running;
            }
            close();
            LatencyDeployment d = deploy.deploy(cell, logDir, this::set);
            set(d);
            return d;
        }

        private synchronized void set(LatencyDeployment d) {
            current = d;
        }

        @Override
        public synchronized void close() {
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }

    private final LatencySettings settings;
    private final Deployer deployer;
    private final Load load;
    private final TargetKind target;
    private final DataPlaneInfo plannedDataPlane;
    private final Map<String, String> recordedSettings;
    private final String kit;
    private final Path resultsDir;
    private final PrintStream out;

    public LatencyRunner(LatencySettings settings, Deployer deployer, Load load, TargetKind target, DataPlaneInfo plannedDataPlane,
            Map<String, String> recordedSettings, String kit, Path resultsDir, PrintStream out) {
        this.settings = settings;
        this.deployer = deployer;
        this.load = load;
        this.target = target;
        this.plannedDataPlane = plannedDataPlane;
        this.recordedSettings = new TreeMap<>(recordedSettings);
        this.recordedSettings.putAll(settings.asProperties());
        this.kit = kit;
        this.resultsDir = resultsDir;
        this.out = out;
    }

    /** The folder latency cells are written under. */
    public static Path latencyDir(Path resultsDir) {
        return resultsDir.resolve("latency");
    }

    /** Runs {@code cells} in order; returns every cell's results, failed ones included. */
    public List<LatencyCellResults> run(List<LatencyCell> cells) throws InterruptedException {
        List<LatencyCellResults> done = new ArrayList<>();
        long started = System.nanoTime();
        try {
            for (int i = 0; i < cells.size(); i++) {
                LatencyCell cell = cells.get(i);
                String left = i == 0 ? "~" + CaseRun.human((long) (cells.size() * (settings.loadSecondsPerCell() + 15L)))
                        : "~" + CaseRun.human((long) ((System.nanoTime() - started) / 1e9 / i * (cells.size() - i)));
                out.printf(Locale.ROOT, "[latency] cell %d of %d: %s on %s (%s left)%n", i + 1, cells.size(), cell.id(),
                        plannedDataPlane.name(), left);
                done.add(runCell(cell));
            }
        } finally {
            deployer.close();
        }
        return done;
    }

    /** One cell, start to finish; never throws for a failure of the cell itself (it is recorded). */
    public LatencyCellResults runCell(LatencyCell cell) throws InterruptedException {
        Instant start = Instant.now();
        Path dir = dev.meshbench.orchestrator.run.CaseRun.newRunDir(latencyDir(resultsDir), cell.slug() + "-" + plannedDataPlane.name());
        String runId = dir.getFileName().toString();
        List<String> notes = new ArrayList<>();
        LoadPhase max = null;
        LoadPhase fixed = null;
        Map<String, Double> cores = new TreeMap<>();
        DataPlaneInfo cellPlane = plannedDataPlane.withIngress(cell.ingress());
        DataPlaneInfo dataPlane = cellPlane;
        String failure = null;
        String tag = "[" + cell.id() + "]";
        try {
            LatencyDeployment d = deployer.deploy(cell, dir.resolve("logs"));
            d.appliedOver().ifPresent(how -> {
                notes.add(how);
                out.println(tag + " " + how);
            });
            dataPlane = d.dataPlane(cellPlane);
            List<URI> targets = d.targets();
            Consumer<String> progress = line -> out.println(tag + " " + line);
            if (settings.stableWarmup()) {
                notes.add(warmUntilStable(d, targets, tag, progress));
            } else if (settings.warmupSeconds() > 0) {
                out.printf(Locale.ROOT, "%s warm-up: closed loop, %d connections, %d s (not measured)%n", tag, settings.connections(),
                        settings.warmupSeconds());
                load.run(targets, settings.connections(), Duration.ofSeconds(settings.warmupSeconds()), OptionalDouble.empty(), progress);
                check(d);
            }
            out.printf(Locale.ROOT, "%s max rate: closed loop, %d connections, %d s%n", tag, settings.connections(), settings.maxSeconds());
            max = load.run(targets, settings.connections(), Duration.ofSeconds(settings.maxSeconds()), OptionalDouble.empty(), progress);
            check(d);
            out.printf(Locale.ROOT, "%s max rate %.0f req/s (p50 %.3f ms, p99 %.3f ms, %d errors)%n", tag, max.achievedRate(), max.p50(),
                    max.p99(), max.errorCount());
            if (max.achievedRate() <= 0) {
                throw new IllegalStateException("no request succeeded in the closed-loop phase, so there is no rate to take "
                        + settings.loadFraction() + " of" + errorsText(max));
            }
            double rate = max.achievedRate() * settings.loadFraction();
            out.printf(Locale.ROOT, "%s open loop at %.0f req/s (%s of max), %d connections, %d s%n", tag, rate,
                    dev.meshbench.model.settings.Parsers.plain(settings.loadFraction()), settings.connections(),
                    settings.fixedSeconds());
            List<ResourceSample> before = d.sampleResources();
            long t0 = System.nanoTime();
            fixed = load.run(targets, settings.connections(), Duration.ofSeconds(settings.fixedSeconds()), OptionalDouble.of(rate), progress);
            long elapsedMs = Math.max(1, (System.nanoTime() - t0) / 1_000_000);
            List<ResourceSample> after = d.sampleResources();
            cores = cores(before, after, elapsedMs);
            check(d);
            if (!after.isEmpty() && fixed.requests() > 0 && cores.values().stream().allMatch(c -> c == 0.0)) {
                String why = String.format(Locale.ROOT, "CPU not measured: no component's CPU changed over the open-loop phase's %d s as "
                        + "the target read it (on a cluster Prometheus sees CPU one scrape interval late: give %s of 30 or more); the "
                        + "cores are recorded as 0", settings.fixedSeconds(), LatencySettings.P_FIXED_SECONDS);
                notes.add(why);
                out.println(tag + " " + why);
            }
            out.printf(Locale.ROOT, "%s at %.0f req/s: achieved %.0f, p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, %d errors%s%n", tag,
                    rate, fixed.achievedRate(), fixed.p50(), fixed.p90(), fixed.p99(), fixed.p999(), fixed.errorCount(),
                    fixed.fellBehind() ? " — GENERATOR FELL BEHIND: " + fixed.fellBehindReason() : "");
        } catch (InterruptedException e) {
            failure = "interrupted";
            write(dir, results(runId, cell, start, dataPlane, failure, max, fixed, cores, notes));
            deployer.close();
            throw e;
        } catch (RuntimeException e) {
            failure = e.getMessage() == null ? e.toString() : e.getMessage();
            out.printf(Locale.ROOT, "%s FAILED: %s%n", tag, failure);
            deployer.close(); // the next cell starts from a fresh deployment, not from one in an unknown state
        }
        if (max != null && max.errorCount() > 0) {
            notes.add(String.format(Locale.ROOT, "max-rate phase: %d of %d requests failed%s", max.errorCount(), max.requests(), errorsText(max)));
        }
        if (fixed != null) {
            if (fixed.errorCount() > 0) {
                notes.add(String.format(Locale.ROOT, "open-loop phase: %d of %d requests failed%s", fixed.errorCount(), fixed.requests(),
                        errorsText(fixed)));
            }
            if (fixed.fellBehind()) {
                notes.add("open-loop phase: the generator fell behind its schedule (" + fixed.fellBehindReason()
                        + "); its latencies still count from the intended send times, but the rate offered was lower than asked");
            }
        }
        LatencyCellResults r = results(runId, cell, start, dataPlane, failure, max, fixed, cores, notes);
        write(dir, r);
        return r;
    }

    /**
     * The closed loop in windows of {@value Catalogue#WARMUP_WINDOW_SECONDS} s until the egress study's rule
     * ({@link WarmUp#judge}) says warm, or {@code warmupSeconds} have passed; returns how it ended, for the cell's notes.
     */
    private String warmUntilStable(LatencyDeployment d, List<URI> targets, String tag, Consumer<String> progress) throws InterruptedException {
        int window = Catalogue.WARMUP_WINDOW_SECONDS;
        out.printf(Locale.ROOT, "%s warm-up: closed loop, %d connections, until warm (judged every %d s: JIT quiet, throughput and CPU "
                + "per request flat), at most %d s (not measured)%n", tag, settings.connections(), window, settings.warmupSeconds());
        List<WarmUp.Window> windows = new ArrayList<>();
        Map<String, Double> jit = d.jitMillis();
        OptionalDouble cpu = d.warmupCpuMillis();
        int elapsed = 0;
        WarmUp.Verdict v = new WarmUp.Verdict(false, "no window yet");
        while (elapsed + window <= settings.warmupSeconds()) {
            LoadPhase p = load.run(targets, settings.connections(), Duration.ofSeconds(window), OptionalDouble.empty(), line -> { });
            check(d);
            elapsed += window;
            Map<String, Double> jitNow = d.jitMillis();
            OptionalDouble cpuNow = d.warmupCpuMillis();
            windows.add(WarmUp.window(p.requests(), p.seconds(), jit, jitNow, cpu, cpuNow));
            jit = jitNow;
            cpu = cpuNow;
            v = WarmUp.judge(windows, Catalogue.WARMUP_TREND_WINDOWS, Catalogue.WARMUP_TOLERANCE_PERCENT, Catalogue.WARMUP_JIT_QUIET_MS);
            WarmUp.Window w = windows.get(windows.size() - 1);
            progress.accept(String.format(Locale.ROOT, "warm-up %d s: %.0f req/s%s%s", elapsed, w.requestsPerSecond(),
                    w.compileMs() == null ? "" : String.format(Locale.ROOT, ", %s's JIT %.0f ms", w.compiling(), w.compileMs()),
                    v.warm() ? " — warm" : ""));
            if (v.warm()) {
                break;
            }
        }
        String how = v.warm() ? String.format(Locale.ROOT, "warm-up: warm after %d s: %s", elapsed, v.why())
                : String.format(Locale.ROOT, "warm-up: NOT WARM at its cap of %d s (%s=%d): %s", elapsed, LatencySettings.P_WARMUP_SECONDS,
                        settings.warmupSeconds(), v.why());
        out.println(tag + " " + how);
        return how;
    }

    private static void check(LatencyDeployment d) {
        d.failure().ifPresent(f -> {
            throw new IllegalStateException("a component died during the load: " + f);
        });
    }

    private static String errorsText(LoadPhase p) {
        return p.errors().isEmpty() ? "" : " " + p.errors();
    }

    /** CPU seconds per second of each role between two samples of the same processes. */
    static Map<String, Double> cores(List<ResourceSample> before, List<ResourceSample> after, long elapsedMs) {
        Map<Long, ResourceSample> first = new java.util.HashMap<>();
        before.forEach(s -> first.put(s.pid(), s));
        Map<String, Double> out = new TreeMap<>();
        for (ComponentRole role : ComponentRole.values()) {
            if (role != ComponentRole.LOAD && role != ComponentRole.DATABASE) {
                out.put(role.id(), 0.0);
            }
        }
        for (ResourceSample s : after) {
            ResourceSample b = first.get(s.pid());
            if (b != null) {
                out.merge(s.component().role().id(), (s.cpuMillis() - b.cpuMillis()) / (double) elapsedMs, Double::sum);
            }
        }
        out.replaceAll((k, v) -> Math.round(v * 1000) / 1000.0);
        return out;
    }

    private LatencyCellResults results(String runId, LatencyCell cell, Instant start, DataPlaneInfo dataPlane, String failure,
            LoadPhase max, LoadPhase fixed, Map<String, Double> cores, List<String> notes) {
        return new LatencyCellResults(ResultsSchema.VERSION, ResultsSchema.LATENCY_KIND, runId, cell.id(), cell.graph(), cell.scale(),
                cell.ingress(), cell.sidecar(), target, dataPlane, Machine.ofThisHost(), kit, System.getProperty("java.version"),
                load.describe(), DateTimeFormatter.ISO_INSTANT.format(start), failure == null ? RunStatus.PASSED : RunStatus.FAILED, failure,
                recordedSettings, max, settings.loadFraction(), fixed, cores, notes);
    }

    private void write(Path dir, LatencyCellResults r) {
        try {
            ResultsJson.writeJson(dir.resolve(ResultsSchema.LATENCY_FILE), r);
        } catch (IOException e) {
            throw new IllegalStateException("writing " + dir.resolve(ResultsSchema.LATENCY_FILE) + " failed: " + e.getMessage(), e);
        }
    }
}
