package dev.meshbench.charts.model;

import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.AttributedCpu;
import dev.meshbench.results.ComponentCpu;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.ConversionMethod;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.Machine;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.MeshAttribution;
import dev.meshbench.results.RateCalibration;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.SittingInfo;
import dev.meshbench.results.StepCpu;
import dev.meshbench.results.StepDrift;
import dev.meshbench.results.StepRate;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.WorkloadInfo;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A switched sitting written by hand as results.json files (results schema 7), as {@code mvn verify} now runs one:
 * envoy, a calibration run of bypass (closed loop at 20 clients, 160 tx/s, steady; at 0.75 it sets 120 req/s), then
 * rounds of bypass, sidecar and sni, each one window of 20 clients at 120 req/s for 10 s (1 200 transactions). Per
 * round, in ms per transaction and ms:
 * <pre>
 *                    round 1   round 2   round 3
 *   bypass   shared   0.850     0.900     0.870     (mesh CPU = shared; MongoDB path 0)
 *            P50/P99  5 / 10    6 / 12    5 / 11
 *   sidecar  MongoDB  0.001     0.030     0.002     shared 0.880, 0.910, 0.860
 *            P50/P99  6 / 10    7 / 12    6 / 11
 *   sni      MongoDB  0.260     0.270     0.250     shared 0.860, 0.880, 0.875
 *            P50/P99  5 / 12    7 / 15    4 / 13
 * </pre>
 * Paired by round against bypass (hand-worked in {@code AnswerTest}): sni's MongoDB path +0.260 ± 0.025 ms/tx
 * (differences 0.26, 0.27, 0.25: s_d 0.01, t(0.975, 2) · 0.01 / √3 = 0.0248), +29.8 ± 2.8 points of bypass's mean mesh
 * CPU 0.8733 ms/tx; P99 +2.3 ± 1.4 ms (differences 2, 3, 2); P50 differences 0, 1, -1: within noise. Sidecar's MongoDB
 * path 0.011 ± 0.041 ms/tx: within noise; its P99 the same as bypass's every round; P50 +1 every round.
 */
public final class SwitchedSitting {
    public static final String SITTING = "20261129-101500-sitting";
    static final int TRANSACTIONS = 1200;
    public static final List<String> ORDER = List.of("bypass", "sidecar", "sni");
    static final String BYPASS_SWITCH = "services re-pointed straight at MongoDB (PUT /admin/mongo); the sidecars' "
            + "MongoDB listeners idle";

    /** One window's figures: shared and MongoDB-path mesh CPU per transaction, P50 and P99 in ms, the rate held. */
    record Window(double sharedMsPerTx, double mongoMsPerTx, long p50, long p99, boolean held) {
        Window(double sharedMsPerTx, double mongoMsPerTx, long p50, long p99) {
            this(sharedMsPerTx, mongoMsPerTx, p50, p99, true);
        }
    }

    static final Map<String, List<Window>> ROUNDS = Map.of(
            "bypass", List.of(new Window(0.850, 0, 5, 10), new Window(0.900, 0, 6, 12), new Window(0.870, 0, 5, 11)),
            "sidecar", List.of(new Window(0.880, 0.001, 6, 10), new Window(0.910, 0.030, 7, 12),
                    new Window(0.860, 0.002, 6, 11)),
            "sni", List.of(new Window(0.860, 0.260, 5, 12), new Window(0.880, 0.270, 7, 15),
                    new Window(0.875, 0.250, 4, 13)));

    private SwitchedSitting() {
    }

    /**
     * Writes the calibration {@code <sitting>-calibration} and, for each round up to {@code rounds}, the windows of
     * {@code cases} (in the sitting's order) as {@code <sitting>-<case>-r<round>/results.json}.
     */
    public static void write(Path results, String sitting, List<String> cases, int rounds) throws IOException {
        write(results, sitting, cases, rounds, false);
    }

    /**
     * As {@link #write(Path, String, List, int)}; with {@code byWarmUp}, the sitting's warm-up set the rate (its last
     * 40 s, 160 tx/s) and there is no calibration run.
     */
    public static void write(Path results, String sitting, List<String> cases, int rounds, boolean byWarmUp) throws IOException {
        String calibrationId = byWarmUp ? sitting : sitting + "-calibration";
        List<String> order = ORDER.stream().filter(cases::contains).toList();
        if (!byWarmUp) {
            ResultsJson.writeResults(results.resolve(calibrationId).resolve(ResultsSchema.RESULTS_FILE),
                    calibration(calibrationId, sitting, order, rounds));
        }
        int position = 1;
        for (int round = 1; round <= rounds; round++) {
            for (String c : order) {
                String id = sitting + "-" + c + "-r" + round;
                Double seconds = position == 1 ? null : 1.5 + position / 10.0;
                ResultsJson.writeResults(results.resolve(id).resolve(ResultsSchema.RESULTS_FILE), window(id, sitting,
                        order, c, round, rounds, position, seconds, calibrationId, ROUNDS.get(c).get(round - 1)));
                position++;
            }
        }
    }

    /**
     * Rewrites window {@code runId}'s {@code results.json} so that its step's work says each JVM's JIT work in the
     * window ({@code jitMs}, ms in its 10 s), as a window whose JVMs were still compiling.
     */
    public static void withJit(Path results, String runId, Map<String, Double> jitMs) throws IOException {
        Path file = results.resolve(runId).resolve(ResultsSchema.RESULTS_FILE);
        RunResults r = ResultsJson.readResults(file);
        StepResult s = r.steps().get(0);
        StepResult busy = new StepResult(s.clients(), s.windowStartEpochMs(), s.windowEndEpochMs(), s.measuredSeconds(), s.samples(),
                s.warmupSamplesSkipped(), s.lateSamplesSkipped(), s.transactions(), s.errors(), s.throughputPerSecond(), s.latencyMs(),
                s.cpu(), new dev.meshbench.results.StepWork(null, null, null, null, jitMs), s.host(), s.drift(), s.rate(), s.labels());
        ResultsJson.writeResults(file, new RunResults(r.schemaVersion(), r.inputs(), r.conversion(), List.of(busy), r.notes()));
    }

    /** The sitting's closed-loop calibration of bypass at position 0. */
    static RunResults calibration(String runId, String sitting, List<String> order, int rounds) {
        MeasurementInfo m = new MeasurementInfo(90, 10.0).withRun(1, rounds, Map.of()).asCalibrationRun()
                .withSitting(new SittingInfo(sitting, SittingInfo.SWITCHED, order, 1, 0, null, List.of(), BYPASS_SWITCH));
        StepResult step = new StepResult(20, 1_000, 11_000, 10, 1600, 0, 0, 1600, 0, 160.0,
                new LatencyStats(1600, 1, 4.0, 4, 6, 7, 9, 20), null, null, null, new StepDrift(160.5, 159.5, -0.6, true));
        return results(runId, "bypass", 0, m, step);
    }

    /** A window of {@code caseId} in {@code round} at {@code position}, its rate set by {@code calibrationId}. */
    static RunResults window(String runId, String sitting, List<String> order, String caseId, int round, int rounds,
            int position, Double switchSeconds, String calibrationId, Window w) {
        MeasurementInfo m = new MeasurementInfo(90, 10.0)
                .withCalibratedRate(calibrationId.equals(sitting) ? RateCalibration.ofWarmUp(sitting, "bypass", 20, 160.0, 0.75, 40)
                        : RateCalibration.of(calibrationId, "bypass", 20, 160.0, 0.75, true), 1, 5)
                .withRun(round, rounds, Map.of())
                .withSitting(new SittingInfo(sitting, SittingInfo.SWITCHED, order, round, position, switchSeconds,
                        switchSeconds == null ? List.of() : List.of("switched to " + caseId + " <&>"), BYPASS_SWITCH));
        double shared = w.sharedMsPerTx() * TRANSACTIONS;
        double mongo = w.mongoMsPerTx() * TRANSACTIONS;
        List<ComponentCpu> components = new ArrayList<>();
        components.add(component(ComponentNames.INGRESS_GATEWAY, shared, 0.0));
        if (mongo > 0) {
            components.add(component(ComponentNames.EGRESS_GATEWAY, mongo, 1.0));
        }
        double mesh = shared + mongo;
        StepCpu cpu = new StepCpu(new RoleCpu(mesh, mesh / 10_000, mesh / TRANSACTIONS, components.size()), null, null,
                null, new MeshAttribution(new AttributedCpu(mongo, mongo / TRANSACTIONS),
                        new AttributedCpu(shared, shared / TRANSACTIONS)), components);
        double achieved = w.held() ? 120.0 : 100.0;
        StepResult step = new StepResult(20, 1_000, 11_000, 10, TRANSACTIONS, 0, 0, TRANSACTIONS, 0,
                TRANSACTIONS / 10.0, new LatencyStats(TRANSACTIONS, 1, w.p50(), w.p50(), w.p99() - 1, w.p99() - 1, w.p99(),
                        w.p99() + 5), cpu, null, null, null, new StepRate(120.0, achieved, w.held()));
        return results(runId, caseId, position, m, step);
    }

    private static RunResults results(String runId, String caseId, int position, MeasurementInfo m, StepResult step) {
        RunInputs in = RunInputs.starting(runId, caseId, TargetKind.LOCAL, List.of(20), 12, 2, 0, 200,
                new KitVersions("0.1.0-SNAPSHOT", "17.0.15", "5.6.3"), new Machine(2, 1L << 33, "Linux"),
                Instant.parse("2026-11-29T10:15:00Z").plusSeconds(30L * position))
                .withStep(StepWindow.planned(20).started(step.windowStartEpochMs() - 2_000).ended(step.windowEndEpochMs()))
                .withDataPlane(new DataPlaneInfo(DataPlaneInfo.ENVOY, Map.of(), 2, true, true, "BoringSSL"))
                .withWorkload(WorkloadInfo.ORIGINAL).withMeasurement(m).passed();
        return new RunResults(ResultsSchema.VERSION, in, ConversionMethod.current(true), List.of(step), List.of());
    }

    private static ComponentCpu component(String name, double cpuMillis, double share) {
        return new ComponentCpu(name, ComponentRole.MESH, cpuMillis, cpuMillis / 10_000, cpuMillis / TRANSACTIONS, 1, 1,
                null, share);
    }
}
