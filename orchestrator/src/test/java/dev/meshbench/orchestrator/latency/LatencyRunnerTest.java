package dev.meshbench.orchestrator.latency;

import dev.meshbench.orchestrator.deploy.LatencyDeployment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.LoadPhase;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.TargetKind;
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
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's order of phases, the rate it asks for, and what it records, with a scripted load and deployment. */
class LatencyRunnerTest {
    @TempDir
    Path results;

    /** Answers every closed loop with 1000 req/s and records what it was asked. */
    static final class ScriptedLoad implements LatencyRunner.Load {
        final List<String> calls = new ArrayList<>();

        @Override
        public LoadPhase run(List<URI> targets, int connections, Duration duration, OptionalDouble rate, Consumer<String> progress) {
            calls.add(targets.size() + " targets, " + connections + " connections, " + duration.toSeconds() + " s, "
                    + (rate.isPresent() ? "rate " + Math.round(rate.getAsDouble()) : "closed"));
            double achieved = rate.isPresent() ? rate.getAsDouble() : 1000;
            boolean behind = rate.isPresent() && connections == 1;
            return new LoadPhase(connections, duration.toSeconds(), (long) achieved * duration.toSeconds(), Map.of(), rate.isPresent() ? achieved : null,
                    achieved, 1, 2, 3, 4, 5, 1.5, behind ? 7 : 0, behind ? 50 : 0, 0, behind, behind ? "7 requests sent late" : null,
                    rate.isPresent() ? new LoadPhase.ServiceTime(0.5, 1, 1.5, 2) : null, null);
        }

        @Override
        public String describe() {
            return "scripted";
        }
    }

    static class FakeDeployment implements LatencyDeployment {
        boolean closed;
        long cpu;
        Optional<String> applied = Optional.empty();

        @Override
        public Optional<String> appliedOver() {
            return applied;
        }

        @Override
        public List<URI> targets() {
            return List.of(URI.create("http://127.0.0.1:1/"), URI.create("http://127.0.0.1:2/"));
        }

        @Override
        public List<ResourceSample> sampleResources() {
            cpu += 500;
            return List.of(new ResourceSample(0, new Component("sidecar-a-1", ComponentRole.MESH), 11, cpu, 1),
                    new ResourceSample(0, new Component("a-1", ComponentRole.APP), 12, cpu * 2, 1));
        }

        @Override
        public Optional<String> failure() {
            return Optional.empty();
        }

        @Override
        public DataPlaneInfo dataPlane(DataPlaneInfo planned) {
            return planned;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private LatencyRunner runner(LatencySettings settings, LatencyRunner.Deployer deployer, LatencyRunner.Load load, PrintStream out) {
        return new LatencyRunner(settings, deployer, load, TargetKind.LOCAL, DataPlaneInfo.unknownNetty(), Map.of("meshbench.dataplane", "netty"),
                "0.1.0-test", results, out);
    }

    private static LatencySettings settings(String connections) {
        return LatencySettings.fromProperties(Map.of(LatencySettings.P_WARMUP, "fixed", LatencySettings.P_CONNECTIONS, connections, LatencySettings.P_WARMUP_SECONDS, "1",
                LatencySettings.P_MAX_SECONDS, "2", LatencySettings.P_FIXED_SECONDS, "3"));
    }

    @Test
    void warmUpThenMaxRateThenTheFractionOfIt() throws Exception {
        ScriptedLoad load = new ScriptedLoad();
        List<FakeDeployment> deployed = new ArrayList<>();
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        List<LatencyCellResults> done = runner(settings("4"), LatencyRunner.Deployer.perCell((cell, logs, created) -> {
            FakeDeployment d = new FakeDeployment();
            deployed.add(d);
            return d;
        }), load, new PrintStream(text, true, StandardCharsets.UTF_8)).run(List.of(new LatencyCell("single", 1, false, true)));

        assertEquals(List.of("2 targets, 4 connections, 1 s, closed", "2 targets, 4 connections, 2 s, closed", "2 targets, 4 connections, 3 s, rate 750"),
                load.calls);
        assertTrue(deployed.get(0).closed, "torn down");
        LatencyCellResults r = done.get(0);
        assertEquals(RunStatus.PASSED, r.status());
        assertEquals(1000, r.maxRate().achievedRate());
        assertEquals(750.0, r.atFraction().targetRate());
        assertTrue(r.cpuCores().get("mesh") > 0 && r.cpuCores().get("app") > r.cpuCores().get("mesh"), r.cpuCores().toString());
        assertEquals("4", r.settings().get(LatencySettings.P_CONNECTIONS));
        Path file;
        try (Stream<Path> s = Files.list(LatencyRunner.latencyDir(results))) {
            file = s.findFirst().orElseThrow().resolve(ResultsSchema.LATENCY_FILE);
        }
        assertTrue(file.getParent().getFileName().toString().endsWith("-single-1-none-sidecar-netty"), file.toString());
        assertEquals(r, ResultsJson.readLatency(file));
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("[latency] cell 1 of 1: single/1/none/sidecar on netty"), text.toString());
    }

    @Test
    void aGeneratorThatFellBehindIsNotedAndShown() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        LatencyCellResults r = runner(settings("1"), LatencyRunner.Deployer.perCell((cell, logs, created) -> new FakeDeployment()), new ScriptedLoad(),
                new PrintStream(text, true, StandardCharsets.UTF_8)).runCell(new LatencyCell("single", 1, false, false));
        assertTrue(r.atFraction().fellBehind());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("fell behind its schedule (7 requests sent late)")), r.notes().toString());
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("GENERATOR FELL BEHIND: 7 requests sent late"), text.toString());
    }

    /** A deployer that applies each cell to the one deployment it started for the first, as the local target's switched method. */
    private static final class Switching implements LatencyRunner.Deployer {
        final List<FakeDeployment> started = new ArrayList<>();
        FakeDeployment current;
        String previousCell;
        final String failOn;

        Switching(String failOn) {
            this.failOn = failOn;
        }

        @Override
        public LatencyDeployment deploy(LatencyCell cell, Path logDir) {
            if (current == null) {
                current = new FakeDeployment();
                started.add(current);
            } else {
                current.applied = java.util.Optional.of("applied to the deployment that ran cell " + previousCell);
            }
            previousCell = cell.id();
            if (cell.id().equals(failOn)) {
                throw new TargetException("sidecar-a-1 did not take configuration " + cell.id());
            }
            return current;
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }

    @Test
    void cellsAppliedToOneDeploymentSaySoAndAFailedSwitchStartsAfresh() throws Exception {
        Switching deployer = new Switching("single/1/gateway/none");
        List<LatencyCell> cells = List.of(new LatencyCell("single", 1, false, false), new LatencyCell("single", 1, false, true),
                new LatencyCell("single", 1, true, false), new LatencyCell("single", 1, true, true));
        List<LatencyCellResults> done = runner(settings("2"), deployer, new ScriptedLoad(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run(cells);
        assertEquals(List.of(RunStatus.PASSED, RunStatus.PASSED, RunStatus.FAILED, RunStatus.PASSED), done.stream().map(LatencyCellResults::status).toList());
        assertTrue(done.get(0).notes().stream().noneMatch(n -> n.startsWith("applied to")), done.get(0).notes().toString());
        assertTrue(done.get(1).notes().contains("applied to the deployment that ran cell single/1/none/none"), done.get(1).notes().toString());
        // the failed switch tore the deployment down: the next cell ran on a new one, and everything is closed at the end
        assertEquals(2, deployer.started.size());
        assertTrue(deployer.started.get(0).closed && deployer.started.get(1).closed, "torn down");
        assertTrue(done.get(3).notes().stream().noneMatch(n -> n.startsWith("applied to")), done.get(3).notes().toString());
    }

    /** Closed loops answer the given rates in turn (the last one from then on); open loops the rate asked. */
    static final class RampLoad implements LatencyRunner.Load {
        final List<Double> closed;
        final List<String> calls = new ArrayList<>();

        RampLoad(Double... closed) {
            this.closed = new ArrayList<>(List.of(closed));
        }

        @Override
        public LoadPhase run(List<URI> targets, int connections, Duration duration, OptionalDouble rate, Consumer<String> progress) {
            calls.add(duration.toSeconds() + " s " + (rate.isPresent() ? "open" : "closed"));
            double achieved = rate.isPresent() ? rate.getAsDouble() : closed.size() > 1 ? closed.remove(0) : closed.get(0);
            return new LoadPhase(connections, duration.toSeconds(), Math.round(achieved * duration.toSeconds()), Map.of(),
                    rate.isPresent() ? achieved : null, achieved, 1, 2, 3, 4, 5, 1.5, 0, 0, 0, false, null,
                    rate.isPresent() ? new LoadPhase.ServiceTime(0.5, 1, 1.5, 2) : null, null);
        }

        @Override
        public String describe() {
            return "ramp";
        }
    }

    private static LatencySettings stable(int capSeconds) {
        return new LatencySettings(List.of("single"), "all", 2, capSeconds, 2, 3, 0.75, true);
    }

    @Test
    void aStableWarmUpEndsWhenThroughputAndCpuPerRequestStopMoving() throws Exception {
        // 400, 700, then 1000 req/s: the last 4 windows are flat after the 6th; CPU per request is constant (FakeDeployment)
        RampLoad load = new RampLoad(400.0, 700.0, 1000.0);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        LatencyCellResults r = runner(stable(120), LatencyRunner.Deployer.perCell((cell, logs, created) -> new FakeDeployment()), load,
                new PrintStream(text, true, StandardCharsets.UTF_8)).runCell(new LatencyCell("single", 1, false, true));
        assertEquals(List.of("10 s closed", "10 s closed", "10 s closed", "10 s closed", "10 s closed", "10 s closed", "2 s closed",
                "3 s open"), load.calls);
        assertTrue(r.notes().get(0).startsWith("warm-up: warm after 60 s: throughput flat (+0.0% over the last 4 windows), CPU per "
                + "request flat"), r.notes().toString());
        assertEquals("stable", r.settings().get(LatencySettings.P_WARMUP));
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("warm-up 30 s: 1000 req/s"), text.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aStableWarmUpThatDoesNotSettleSaysSoAtItsCap() throws Exception {
        RampLoad load = new RampLoad(100.0, 200.0, 300.0, 400.0, 500.0);
        LatencyCellResults r = runner(stable(40), LatencyRunner.Deployer.perCell((cell, logs, created) -> new FakeDeployment()), load,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).runCell(new LatencyCell("single", 1, false, true));
        assertEquals(RunStatus.PASSED, r.status());
        assertEquals(4, load.calls.stream().filter(c -> c.equals("10 s closed")).count(), load.calls.toString());
        assertTrue(r.notes().get(0).startsWith("warm-up: NOT WARM at its cap of 40 s (meshbench.latency.warmupSeconds=40): throughput rising"),
                r.notes().toString());
    }

    @Test
    void cpuThatDidNotMoveOverThePhaseIsSaidNotMeasured() throws Exception {
        FakeDeployment still = new FakeDeployment() {
            @Override
            public List<ResourceSample> sampleResources() {
                return List.of(new ResourceSample(0, new Component("sidecar-a-1", ComponentRole.MESH), 11, 500, 1));
            }
        };
        LatencyCellResults r = runner(settings("2"), LatencyRunner.Deployer.perCell((cell, logs, created) -> still), new ScriptedLoad(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).runCell(new LatencyCell("single", 1, false, true));
        assertEquals(0.0, r.cpuCores().get("mesh"));
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("CPU not measured: no component's CPU changed over the open-loop "
                + "phase's 3 s")), r.notes().toString());
        // a deployment whose CPU moves gets no such note
        LatencyCellResults moving = runner(settings("2"), LatencyRunner.Deployer.perCell((cell, logs, created) -> new FakeDeployment()),
                new ScriptedLoad(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .runCell(new LatencyCell("single", 1, false, true));
        assertTrue(moving.notes().stream().noneMatch(n -> n.startsWith("CPU not measured")), moving.notes().toString());
    }

    @Test
    void aCellThatFailsIsRecordedAndTheNextStillRuns() throws Exception {
        ScriptedLoad load = new ScriptedLoad();
        List<LatencyCellResults> done = runner(settings("2"), LatencyRunner.Deployer.perCell((cell, logs, created) -> {
            if (cell.sidecar()) {
                throw new TargetException("starting sidecar-a-1 failed: exit 1");
            }
            return new FakeDeployment();
        }), load, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .run(List.of(new LatencyCell("single", 1, false, true), new LatencyCell("single", 1, false, false)));
        assertEquals(RunStatus.FAILED, done.get(0).status());
        assertEquals("starting sidecar-a-1 failed: exit 1", done.get(0).failureReason());
        assertNull(done.get(0).maxRate());
        assertEquals(RunStatus.PASSED, done.get(1).status());
        try (Stream<Path> s = Files.list(LatencyRunner.latencyDir(results))) {
            assertEquals(2, s.filter(d -> Files.isRegularFile(d.resolve(ResultsSchema.LATENCY_FILE))).count(), "both cells written");
        }
    }
}
