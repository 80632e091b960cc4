package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.orchestrator.deploy.Target;
import dev.meshbench.orchestrator.local.ComponentJars;
import dev.meshbench.orchestrator.local.CpuLimits;
import dev.meshbench.orchestrator.local.CpuMethod;
import dev.meshbench.orchestrator.local.CpuSets;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalTarget;
import dev.meshbench.orchestrator.local.LocalTargetSettings;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.io.ResultsJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a case run ends, with a deployment that starts nothing: what an interrupted run says in run.json and
 * results.json, and a step that overran its plan, from a hand-made JTL.
 */
class CaseRunOutcomeTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,step\n";
    private static final String JMETER_143 = "JMeter exited with 143 (see jmeter.out)";

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private CaseRun start() {
        return start(new NothingTarget("sampled from /proc every 1 s"));
    }

    private CaseRun start(Target target) {
        RunSettings config = new RunSettings(List.of(EgressCase.BYPASS), List.of(1, 2), 10, 0, 0, 1000, 5, 1,
                tmp.resolve("results"), new PlanOptions(DataPlane.NETTY, true, 2, true));
        return CaseRun.start(config, EgressCase.BYPASS, target, new KitVersions("0.1.0", "17", "5.6.3"),
                new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("where the cgroup root is not writable, the local target samples CPU from /proc, and the run records and prints so")
    void fallbackCpuMethodRecorded() throws Exception {
        Path notCgroups = Files.createDirectories(tmp.resolve("sys-fs-cgroup"));
        Files.createDirectories(notCgroups.resolve("cpuacct"));
        Files.writeString(notCgroups.resolve("cpuacct/cpuacct.usage"), "0\n"); // looks like v1, but no kernel behind it
        Path nothing = tmp.resolve("none.jar");
        LocalTarget local = new LocalTarget(new LocalTargetSettings(new ComponentJars(nothing, nothing, nothing, nothing),
                Duration.ofSeconds(1), 1, 1, LocalDataPlane.netty(new PlanOptions(DataPlane.NETTY, true, 2, true)),
                dev.meshbench.results.WorkloadInfo.ORIGINAL, CpuSets.NONE, CpuLimits.NONE.cgroupsAt(notCgroups), CpuLimits.NONE));
        assertEquals("sampled from /proc every 1 s", local.cpuMethod());
        assertEquals(CpuMethod.PROC_SAMPLED.label(), new LocalTarget(new LocalTargetSettings(new ComponentJars(nothing, nothing,
                nothing, nothing), Duration.ofSeconds(1), 1, 1, LocalDataPlane.netty(new PlanOptions(DataPlane.NETTY, true, 2, true)),
                dev.meshbench.results.WorkloadInfo.ORIGINAL, CpuSets.NONE, CpuLimits.NONE.cgroupsAt(tmp.resolve("absent")),
                CpuLimits.NONE)).cpuMethod(), "no cgroup file system at all (not Linux)");

        try (CaseRun run = start(new NothingTarget(local.cpuMethod()))) {
            RunInputs in = ResultsJson.readRunInputs(run.runDir().resolve(CaseRun.RUN_JSON));
            assertEquals("sampled from /proc every 1 s", in.measurement().cpuMethod());
            String said = printed.toString(StandardCharsets.UTF_8);
            assertTrue(said.lines().findFirst().orElseThrow().endsWith("; CPU per component: sampled from /proc every 1 s"), said);
        }
    }

    /** A sample row: start {@code ms}, {@code elapsed} ms, of the step of {@code clients} clients. */
    private static String row(long ms, long elapsed, int clients) {
        return ms + "," + elapsed + ",login,200,OK,t 1-1,text,true,,600,100," + clients + "," + clients
                + ",http://127.0.0.1:1/auth/login," + elapsed + ",0,0," + clients + "\n";
    }

    @Test
    @DisplayName("Ctrl-C before the results: run.json says interrupted")
    void interruptedBeforeFinish() throws Exception {
        CaseRun run = start();
        run.close();
        RunInputs in = ResultsJson.readRunInputs(run.runDir().resolve(CaseRun.RUN_JSON));
        assertEquals(RunStatus.FAILED, in.status());
        assertEquals(CaseRun.INTERRUPTED, in.failureReason());
    }

    @Test
    @DisplayName("Ctrl-C while JMeter is stopped (exit 143): run.json and results.json both say interrupted, and a late close keeps it")
    void interruptedWhileFinishing() throws Exception {
        CaseRun run = start();
        long t0 = 1_800_000_000_000L;
        Files.writeString(run.jtl(), HEADER + row(t0, 5, 1) + row(t0 + 9_000, 5, 1) + row(t0 + 10_100, 5, 2));
        run.interrupted = () -> true; // the JVM is exiting, as after Ctrl-C
        RunResults results = run.finish(Optional.of(JMETER_143));
        run.close(); // the shutdown hook, after finish
        RunInputs json = ResultsJson.readRunInputs(run.runDir().resolve(CaseRun.RUN_JSON));
        RunResults resultsJson = ResultsJson.readResults(run.runDir().resolve("results.json"));
        String expected = CaseRun.INTERRUPTED + " (the kit stopped what was running: " + JMETER_143 + ")";
        assertEquals(expected, json.failureReason());
        assertEquals(expected, resultsJson.inputs().failureReason());
        assertEquals(expected, results.inputs().failureReason());
        assertEquals(RunStatus.FAILED, resultsJson.inputs().status());
    }

    @Test
    @DisplayName("the same exit 143 without an interruption stays what the load said")
    void notInterrupted() {
        assertEquals(Optional.of(JMETER_143), CaseRun.failureReason(Optional.empty(), Optional.empty(), Optional.of(JMETER_143), false));
        assertEquals(Optional.of(CaseRun.INTERRUPTED), CaseRun.failureReason(Optional.empty(), Optional.empty(), Optional.empty(), true));
        assertEquals(Optional.of("the load ran too long"),
                CaseRun.failureReason(Optional.empty(), Optional.of("the load ran too long"), Optional.of(JMETER_143), false),
                "a load the kit stopped for its deadline fails with that reason, not with JMeter's 143");
        assertEquals(Optional.of("component died during the run: mongo exited"),
                CaseRun.failureReason(Optional.of("mongo exited"), Optional.of("the load ran too long"), Optional.empty(), false));
        assertFalse(CaseRun.shuttingDown(), "a test's JVM is not exiting");
    }

    @Test
    @DisplayName("a step of 10 s whose samples span 30 s is recorded overran (window, note); the step of 10 s is not")
    void overranStep() throws Exception {
        CaseRun run = start();
        run.interrupted = () -> false;
        long t0 = 1_800_000_000_000L;
        Files.writeString(run.jtl(), HEADER + row(t0, 5, 1) + row(t0 + 29_000, 1_000, 1)
                + row(t0 + 30_100, 5, 2) + row(t0 + 39_000, 900, 2));
        RunResults results = run.finish(Optional.empty());
        RunInputs in = ResultsJson.readRunInputs(run.runDir().resolve(CaseRun.RUN_JSON));
        assertEquals(30_000L, in.step(1).lengthMs());
        assertTrue(in.step(1).overran(in.stepSeconds()));
        assertFalse(in.step(2).overran(in.stepSeconds()), "9.8 s of a 10-s step");
        assertTrue(results.notes().stream().anyMatch(n -> n.startsWith("step 1 clients: overran") && n.endsWith("(ran 30.0 s, planned 10 s)")),
                results.notes().toString());
        assertFalse(results.notes().stream().anyMatch(n -> n.startsWith("step 2 clients: overran")), results.notes().toString());
    }

    /** A target whose deployment starts nothing, is ready at once and never fails. */
    private static final class NothingTarget implements Target {
        private final String cpuMethod;

        NothingTarget(String cpuMethod) {
            this.cpuMethod = cpuMethod;
        }

        @Override
        public String cpuMethod() {
            return cpuMethod;
        }

        @Override
        public dev.meshbench.results.TargetKind kind() {
            return dev.meshbench.results.TargetKind.LOCAL;
        }

        @Override
        public Deployment deploy(EgressCase egressCase, java.util.List<EgressCase> reachable, Path logDir) {
            return new dev.meshbench.orchestrator.deploy.IdleDeployment(egressCase);
        }

        @Override
        public DataPlaneInfo dataPlane() {
            return DataPlaneInfo.unknownNetty();
        }
    }

    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.DisplayName("durations in both studies' progress lines read as people write them, hours too")
    void humanDurations() {
        org.junit.jupiter.api.Assertions.assertEquals("45s", CaseRun.human(45));
        org.junit.jupiter.api.Assertions.assertEquals("2m05s", CaseRun.human(125));
        org.junit.jupiter.api.Assertions.assertEquals("1h05m", CaseRun.human(3_900));
    }
}
