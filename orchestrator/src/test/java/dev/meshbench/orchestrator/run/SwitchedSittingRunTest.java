package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.orchestrator.deploy.Endpoints;
import dev.meshbench.orchestrator.deploy.IdleDeployment;
import dev.meshbench.orchestrator.deploy.Switch;
import dev.meshbench.orchestrator.deploy.Target;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.SittingInfo;
import dev.meshbench.results.io.ResultsJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sitting's flow with a deployment that starts nothing and a load that writes a JTL of its own: the rounds' order,
 * what each run records of its place, and a switch no component confirmed, whose case is not measured.
 */
class SwitchedSittingRunTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,step,phase\n";

    @TempDir
    Path tmp;

    /** A deployment that applies every case at once, but refuses {@code refused}, as a proxy that kept its old routes. */
    private static final class FakeDeployment extends IdleDeployment {
        final List<String> applied = new ArrayList<>();
        final EgressCase refused;
        /** The components a switch to this case restarts cold (as a pod template change on a cluster). */
        final Map<EgressCase, List<String>> cold = new java.util.EnumMap<>(EgressCase.class);
        volatile EgressCase now;

        FakeDeployment(EgressCase first, EgressCase refused) {
            super(first);
            this.now = first;
            this.refused = refused;
        }

        @Override
        public EgressCase egressCase() {
            return now;
        }

        @Override
        public Switch apply(EgressCase next) {
            applied.add(next.id());
            if (next == refused) {
                throw new TargetException("sidecar-booking still has configuration bypass-0, not " + next.id() + "-2");
            }
            EgressCase from = now;
            now = next;
            return new Switch(from, next, Duration.ofMillis(1234), List.of("sidecar-booking: configuration " + next.id() + " applied"),
                    cold.getOrDefault(next, List.of()));
        }

        @Override
        public Endpoints endpoints() {
            return Endpoints.through(URI.create("http://127.0.0.1:1"), List.of("auth", "customer", "flight", "booking"));
        }
    }

    private static Target target(FakeDeployment d) {
        return new Target() {
            @Override
            public dev.meshbench.results.TargetKind kind() {
                return dev.meshbench.results.TargetKind.LOCAL;
            }

            @Override
            public Deployment deploy(EgressCase first, List<EgressCase> reachable, Path logDir) {
                return d;
            }

            @Override
            public DataPlaneInfo dataPlane() {
                return DataPlaneInfo.unknownNetty();
            }

            @Override
            public String cpuMethod() {
                return "sampled from /proc every 1 s";
            }

            @Override
            public Optional<String> bypassSwitch() {
                return Optional.of("by hand");
            }
        };
    }

    /** The load: a process that lives until told to stop, and a sitting JTL of one sample per phase the control file names. */
    private static SwitchedSitting.LoadStart load(Path home) {
        return load(home, "none");
    }

    /** As {@link #load(Path)}, and a sample every 50 ms while the phase is {@code steady}. */
    private static SwitchedSitting.LoadStart load(Path home, String steady) {
        return (sittingDir, props) -> {
            Path jtl = Path.of(props.get("meshbench.jtl"));
            Path control = Path.of(props.get(dev.meshbench.model.SittingControl.PROPERTY));
            String script = "echo -n '" + HEADER + "' > " + jtl + "; t=1000; last=; while ! grep -q stop=true " + control + "; do "
                    + "p=$(sed -n 's/^phase=//p' " + control + "); if [ \"$p\" != \"$last\" ]; then t=$((t+1)); "
                    + "echo \"$(date +%s%3N),5,login,200,OK,t 1-1,text,true,,600,100,2,2,http://127.0.0.1:1/auth/login,5,0,0,2,$p\" >> " + jtl
                    + "; last=$p; elif [ \"$p\" = " + steady + " ]; then "
                    + "echo \"$(date +%s%3N),5,login,200,OK,t 1-1,text,true,,600,100,2,2,http://127.0.0.1:1/auth/login,5,0,0,2,$p\" >> " + jtl
                    + "; fi; sleep 0.05; done";
            return JMeterLoad.start(List.of("sh", "-c", script), new JMeterLoad.Install(home.getParent(), "none.jar"),
                    sittingDir.resolve(JMeterLoad.CONSOLE));
        };
    }

    @Test
    @DisplayName("a switch that started JVMs anew is followed by a warm-up at the sitting's rate before the window, said in its run.json")
    void coldStartIsWarmedUpAgain() throws Exception {
        Path results = tmp.resolve("results");
        FakeDeployment d = new FakeDeployment(EgressCase.BYPASS, null);
        d.cold.put(EgressCase.SNI, List.of("auth", "booking"));
        RunSettings config = new RunSettings(List.of(EgressCase.SNI), List.of(2), 1, 0, 0, 1000, 5, 100, results,
                new PlanOptions(DataPlane.NETTY, true, 2, true));
        // judged in 1-s windows over 2, capped at 2 s: the fake load answers one request per phase, so it never gets warm
        dev.meshbench.results.WarmupInfo warm = new dev.meshbench.results.WarmupInfo(dev.meshbench.results.WarmupInfo.STABLE, 2, 1, 5, 2, 0,
                null, List.of(), 2, 300.0, List.of(), List.of(), null);
        MeasurementInfo m = new MeasurementInfo(90, 10.0, List.of(50.0), 5.0, warm);
        Path home = Files.createDirectories(tmp.resolve("jmeter/bin"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<RunResults> runs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        new SwitchedSitting(config, m, 1, Map.of(), target(d), Map.of(), new KitVersions("0.1.0", "17", "5.6.3"), Optional.empty(), 60,
                load(home), new PrintStream(printed, true, StandardCharsets.UTF_8)).run(runs, problems);

        String said = printed.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("[sni] warming up again: the switch started auth, booking cold; at 50 req/s until warm"), said);
        Path sitting;
        try (Stream<Path> dirs = Files.list(results)) {
            sitting = dirs.filter(p -> p.getFileName().toString().endsWith("-sitting")).findFirst().orElseThrow();
        }
        String rewarm = Files.readString(sitting.resolve("rewarm-sni-1.jtl"));
        assertTrue(rewarm.contains(",rewarm-sni-1\n"), "the re-warm's samples, apart from the window's: " + rewarm);
        Path sniDir;
        try (Stream<Path> dirs = Files.list(results)) {
            sniDir = dirs.filter(p -> p.getFileName().toString().endsWith("-sni")).findFirst().orElseThrow();
        }
        RunInputs sni = ResultsJson.readRunInputs(sniDir.resolve(CaseRun.RUN_JSON));
        List<String> switched = sni.measurement().sitting().switched();
        assertTrue(switched.stream().anyMatch(w -> w.startsWith("warmed up again for ") && w.contains(" at 50 req/s after auth, booking "
                + "started cold (capped at 2 s: ")), switched.toString());
        assertFalse(Files.readString(sniDir.resolve(CaseRun.JTL)).contains("rewarm"), "no re-warm sample in the window");
    }

    @Test
    @DisplayName("a warm-up that ended warm sets the rate from its flat last windows: no calibration run, every window records it")
    void warmUpCalibrates() throws Exception {
        Path results = tmp.resolve("results");
        FakeDeployment d = new FakeDeployment(EgressCase.BYPASS, null);
        RunSettings config = new RunSettings(List.of(EgressCase.SNI), List.of(2), 1, 0, 0, 1000, 5, 100, results,
                new PlanOptions(DataPlane.NETTY, true, 2, true));
        // judged on throughput alone (the fake shows no JIT) in 1-s windows over 2; a tolerance wide enough that the fake's
        // samples every 50 ms pass on a busy machine too
        dev.meshbench.results.WarmupInfo warm = new dev.meshbench.results.WarmupInfo(dev.meshbench.results.WarmupInfo.STABLE, 30, 1, 150, 2,
                0, null, List.of(), 2, 300.0, List.of(), List.of(), null);
        MeasurementInfo m = new MeasurementInfo(90, 10.0, List.of(), 5.0, warm);
        Path home = Files.createDirectories(tmp.resolve("jmeter/bin"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<RunResults> runs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        new SwitchedSitting(config, m, 1, Map.of(), target(d), Map.of(), new KitVersions("0.1.0", "17", "5.6.3"),
                Optional.of(new EgressRunSettings.Calibration(0.5, 5)), 60, load(home, "warmup"),
                new PrintStream(printed, true, StandardCharsets.UTF_8)).run(runs, problems);

        String said = printed.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("[meshbench] calibrated by the warm-up: bypass in a closed loop at 2 clients reached "), said);
        assertFalse(said.contains("[meshbench] calibration: "), "no calibration run: " + said);
        List<RunInputs> all = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(results)) {
            for (Path dir : dirs.sorted().toList()) {
                if (Files.exists(dir.resolve(CaseRun.RUN_JSON))) {
                    all.add(ResultsJson.readRunInputs(dir.resolve(CaseRun.RUN_JSON)));
                }
            }
        }
        assertEquals(List.of("bypass", "sni"), all.stream().map(RunInputs::caseId).toList(), "the two windows, no calibration run");
        for (RunInputs r : all) {
            MeasurementInfo got = r.measurement();
            dev.meshbench.results.RateCalibration c = got.calibration();
            assertTrue(c.fromWarmUp(), r.runId());
            assertEquals(got.sitting().id(), c.runId(), "named by its sitting");
            assertEquals(2, c.warmupSeconds(), "2 windows of 1 s");
            assertTrue(c.steady());
            List<Double> windows = got.warmup().windowsPerSecond();
            double mean = (windows.get(windows.size() - 2) + windows.get(windows.size() - 1)) / 2;
            assertEquals(mean, c.maxPerSecond(), 0.051, "the mean of the warm-up's last 2 windows " + windows);
            assertEquals(Math.round(c.maxPerSecond() * 0.5), c.ratePerSecond());
            assertEquals(List.of(c.ratePerSecond()), got.targetRatePerSecond(), "the rate every window ran at");
            assertTrue(got.warmup().stable());
        }
    }

    @Test
    @DisplayName("a switch no component confirmed leaves its case unmeasured: a failed run saying why, and the sitting goes on")
    void unconfirmedSwitchIsNotMeasured() throws Exception {
        Path results = tmp.resolve("results");
        FakeDeployment d = new FakeDeployment(EgressCase.BYPASS, EgressCase.GATEWAY);
        RunSettings config = new RunSettings(List.of(EgressCase.GATEWAY, EgressCase.SNI), List.of(2), 1, 0, 0, 1000, 5, 100, results,
                new PlanOptions(DataPlane.NETTY, true, 2, true));
        MeasurementInfo m = new MeasurementInfo(90, 10.0, List.of(50.0), 5.0, null);
        Path home = Files.createDirectories(tmp.resolve("jmeter/bin"));
        SwitchedSitting.LoadStart load = load(home);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<RunResults> runs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        new SwitchedSitting(config, m, 2, Map.of(), target(d), Map.of(), new KitVersions("0.1.0", "17", "5.6.3"), Optional.empty(), 60,
                load, new PrintStream(printed, true, StandardCharsets.UTF_8)).run(runs, problems);

        assertEquals(List.of("gateway", "sni", "gateway", "bypass"), d.applied,
                "bypass first, then the study's order; the second round the other way round, sni kept in without a switch");
        List<RunInputs> all = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(results)) {
            for (Path dir : dirs.sorted().toList()) {
                if (Files.exists(dir.resolve(CaseRun.RUN_JSON))) {
                    all.add(ResultsJson.readRunInputs(dir.resolve(CaseRun.RUN_JSON)));
                }
            }
        }
        assertEquals(6, all.size(), "a run folder for every window, measured or not: " + all);
        List<RunInputs> gateway = all.stream().filter(r -> r.caseId().equals("gateway")).toList();
        assertEquals(2, gateway.size());
        for (RunInputs g : gateway) {
            assertEquals(RunStatus.FAILED, g.status());
            assertTrue(g.failureReason().startsWith("switching to gateway was not confirmed, so the case was not measured: "
                    + "sidecar-booking still has configuration bypass-0"), g.failureReason());
            Path dir = results.resolve(g.runId());
            assertFalse(Files.exists(dir.resolve(CaseRun.JTL)), "nothing measured for " + g.runId());
        }
        List<SittingInfo> placed = all.stream().map(r -> r.measurement().sitting()).toList();
        assertTrue(placed.stream().allMatch(s -> s.id().equals(placed.get(0).id()) && s.switchedMethod()
                && s.order().equals(s.round() == 1 ? List.of("bypass", "gateway", "sni") : List.of("sni", "gateway", "bypass"))
                && "by hand".equals(s.bypassSwitch())), placed.toString());
        RunInputs sni1 = all.stream().filter(r -> r.caseId().equals("sni") && r.measurement().sitting().round() == 1).findFirst().orElseThrow();
        assertEquals(3, sni1.measurement().sitting().position());
        assertEquals(1.234, sni1.measurement().sitting().switchSeconds());
        assertEquals(List.of("sidecar-booking: configuration sni applied"), sni1.measurement().sitting().switched());
        RunInputs sni2 = all.stream().filter(r -> r.caseId().equals("sni") && r.measurement().sitting().round() == 2).findFirst().orElseThrow();
        assertEquals(4, sni2.measurement().sitting().position(), "sni ends round 1 and begins round 2");
        assertNull(sni2.measurement().sitting().switchSeconds(), "sni was already in: no switch before its second window");
        RunInputs bypass2 = all.stream().filter(r -> r.caseId().equals("bypass") && r.measurement().sitting().round() == 2).findFirst()
                .orElseThrow();
        assertEquals(6, bypass2.measurement().sitting().position(), "bypass ends round 2");
        assertEquals(2, problems.stream().filter(p -> p.contains("switching to gateway was not confirmed")).count(), problems.toString());
        String said = printed.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("[gateway] SWITCH FAILED: sidecar-booking still has configuration bypass-0"), said);
        assertTrue(said.contains("[sni] switched from bypass in 1.2 s"), said);
    }
}
