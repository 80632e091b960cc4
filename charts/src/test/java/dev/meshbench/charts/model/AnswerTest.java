package dev.meshbench.charts.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.ResultsDirectoryReader;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.stats.Comparison;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The answer's sentences over {@link SwitchedSitting}, with the figures worked out by hand. */
class AnswerTest {
    /** t(0.975, 2) = √(1.805 / 0.0975), exact. */
    private static final double T2 = Math.sqrt(1.805 / 0.0975);
    private static final String HEADING = "envoy, fixed rate 120 req/s (calibrated), 20 clients, switched sitting "
            + SwitchedSitting.SITTING;

    private static Answer answer(Path results) throws IOException {
        return Answer.of(ReportModel.of(ResultsDirectoryReader.read(results, ConversionMode.NONE), 20));
    }

    private static Answer.Sentence sentence(Answer a, String caseId) {
        return a.planes().stream().flatMap(p -> p.sentences().stream()).filter(s -> s.caseId().equals(caseId))
                .findFirst().orElseThrow();
    }

    @Test
    @DisplayName("3 rounds: each figure is the mean paired difference against bypass with its 95% t interval over the rounds")
    void threeRounds(@TempDir Path dir) throws IOException {
        SwitchedSitting.write(dir, SwitchedSitting.SITTING, SwitchedSitting.ORDER, 3);
        Answer a = answer(dir);
        assertEquals(1, a.planes().size());
        assertEquals(HEADING + " (3 rounds)", a.planes().get(0).heading());
        Answer.Sentence sni = sentence(a, "sni");
        assertEquals(Answer.Pairing.ROUND, sni.pairing());
        assertEquals(3, sni.pairs());
        // MongoDB path: differences 0.26, 0.27, 0.25 ms/tx (bypass's is 0); mean 0.26, s_d 0.01
        assertEquals(0.26, sni.mongoPath().value().estimate(), 1e-12);
        assertEquals(T2 * 0.01 / Math.sqrt(3), sni.mongoPath().value().halfWidth(), 1e-12);
        // points: of bypass's mean mesh CPU over the rounds, (0.85 + 0.90 + 0.87) / 3 = 0.873333 ms/tx
        double bypassMesh = (0.85 + 0.90 + 0.87) / 3;
        assertEquals(100 * 0.26 / bypassMesh, sni.mongoPath().points().estimate(), 1e-9);
        assertEquals(100 * T2 * 0.01 / Math.sqrt(3) / bypassMesh, sni.mongoPath().points().halfWidth(), 1e-9);
        // P99: differences 2, 3, 2: mean 7/3, s_d = √(1/3)
        assertEquals(7.0 / 3, sni.p99().value().estimate(), 1e-12);
        assertEquals(T2 * Math.sqrt(1.0 / 3) / Math.sqrt(3), sni.p99().value().halfWidth(), 1e-12);
        // P50: differences 0, 1, -1: mean 0, s_d 1, the interval includes 0
        assertEquals(Comparison.Verdict.WITHIN_NOISE, sni.p50().verdict());
        assertEquals(T2 / Math.sqrt(3), sni.p50().value().halfWidth(), 1e-12);
        assertEquals("sni: +0.260 \u00b1 0.025 ms of mesh CPU per transaction on the MongoDB path (+29.8 \u00b1 2.8 points "
                + "of bypass's mesh CPU per transaction), P99 +2.3 \u00b1 1.4 ms, P50 not distinguishable from noise at "
                + "this sitting's precision (95 % interval -2.5 to +2.5 ms), from 3 rounds.", sni.line());
    }

    @Test
    @DisplayName("an interval that includes 0 is said to be not distinguishable from noise, with its bounds and no sign")
    void withinNoise(@TempDir Path dir) throws IOException {
        SwitchedSitting.write(dir, SwitchedSitting.SITTING, SwitchedSitting.ORDER, 3);
        Answer.Sentence sidecar = sentence(answer(dir), "sidecar");
        // MongoDB path: differences 0.001, 0.030, 0.002: mean 0.011, s_d = √(2.71e-4) = 0.016462, half-width 0.040894:
        // -0.029894 to +0.051894 ms/tx, and / 0.873333 ms/tx: -3.42 to +5.94 points
        assertEquals(0.011, sidecar.mongoPath().value().estimate(), 1e-12);
        assertEquals(T2 * Math.sqrt(2.71e-4) / Math.sqrt(3), sidecar.mongoPath().value().halfWidth(), 1e-12);
        assertEquals(Comparison.Verdict.WITHIN_NOISE, sidecar.mongoPath().verdict());
        assertEquals("sidecar: MongoDB-path mesh CPU per transaction not distinguishable from noise at this sitting's "
                + "precision (95 % interval -0.030 to +0.052 ms, -3.4 to +5.9 points of bypass's mesh CPU per transaction), "
                + "P99 the same as bypass's in every round, P50 +1.0 \u00b1 0.0 ms, from 3 rounds.", sidecar.line());
        assertTrue(!sidecar.text().contains("+0.011"), "no sign is stated for a difference within noise");
    }

    @Test
    @DisplayName("1 round: the differences, and 'one round: no interval'")
    void oneRound(@TempDir Path dir) throws IOException {
        SwitchedSitting.write(dir, SwitchedSitting.SITTING, List.of("bypass", "sni"), 1);
        Answer a = answer(dir);
        assertEquals(HEADING + " (1 round)", a.planes().get(0).heading());
        Answer.Sentence sni = sentence(a, "sni");
        assertEquals(Comparison.Verdict.UNKNOWN, sni.mongoPath().verdict());
        // round 1: 0.26 ms/tx against bypass's mesh CPU 0.85 ms/tx is 30.59 points; P99 12 - 10, P50 5 - 5
        assertEquals("sni: +0.260 ms of mesh CPU per transaction on the MongoDB path (+30.6 points of bypass's mesh CPU "
                + "per transaction), P99 +2.0 ms, P50 0.0 ms, from 1 round (one round: no interval).", sni.line());
    }

    @Test
    @DisplayName("a case whose sitting has no bypass run says so instead of a comparison, even with a bypass in another sitting")
    void noBypassInItsSitting(@TempDir Path dir) throws IOException {
        SwitchedSitting.write(dir, "s1-bypass-only", List.of("bypass"), 2);
        SwitchedSitting.write(dir, "s2-sni-only", List.of("sni"), 2);
        Answer.Sentence sni = sentence(answer(dir), "sni");
        assertNull(sni.pairing());
        assertNull(sni.mongoPath());
        assertEquals("sni: no bypass run in its sitting s2-sni-only, so no comparison (a bypass run of another sitting "
                + "is not paired with it).", sni.line());
    }

    @Test
    @DisplayName("a round without bypass is left out and named; a window that did not hold its rate is named")
    void gaps(@TempDir Path dir) throws IOException {
        SwitchedSitting.write(dir, SwitchedSitting.SITTING, List.of("bypass", "sni"), 3);
        Files.delete(dir.resolve(SwitchedSitting.SITTING + "-bypass-r2").resolve(ResultsSchema.RESULTS_FILE));
        Path r3 = dir.resolve(SwitchedSitting.SITTING + "-sni-r3").resolve(ResultsSchema.RESULTS_FILE);
        RunResults held = ResultsJson.readResults(r3);
        var s = held.steps().get(0);
        ResultsJson.writeResults(r3, new RunResults(held.schemaVersion(), held.inputs(), held.conversion(), List.of(
                new dev.meshbench.results.StepResult(s.clients(), s.windowStartEpochMs(), s.windowEndEpochMs(),
                        s.measuredSeconds(), s.samples(), s.warmupSamplesSkipped(), s.lateSamplesSkipped(), s.transactions(),
                        s.errors(), s.throughputPerSecond(), s.latencyMs(), s.cpu(), s.work(), s.host(), s.drift(),
                        new dev.meshbench.results.StepRate(120, 100, false))), held.notes()));
        Answer.Sentence sni = sentence(answer(dir), "sni");
        assertEquals(2, sni.pairs());
        assertTrue(sni.line().endsWith(", from 2 rounds; round 2 of sitting " + SwitchedSitting.SITTING + " has no bypass "
                + "run; the sni window of round 3 of sitting " + SwitchedSitting.SITTING + " did not hold its rate."),
                sni.line());
    }

    @Test
    @DisplayName("runs without a sitting record pair by their repeat; runs that recorded no round are compared unpaired, saying so")
    void withoutSitting(@TempDir Path dir) throws IOException {
        AttributedSitting.write(dir, 2);
        Answer unpaired = answer(dir);
        Answer.Sentence sni = sentence(unpaired, "sni");
        assertEquals(Answer.Pairing.UNPAIRED, sni.pairing());
        assertTrue(sni.line().endsWith(", from 2 runs of sni and 2 of bypass, unpaired (run sni-1 recorded no round: the "
                + "means compared by Welch's t)."), sni.line());
        assertEquals("envoy \u00b7 workload not recorded, closed loop, 20 clients, no sitting recorded (each run deployed its case)",
                unpaired.planes().get(0).heading());
        // the same runs with measurement.repeat: paired by repeat. sni's MongoDB path 0.264 and 0.262 ms/tx against 0:
        // mean 0.263, s_d 0.0014142, t(0.975, 1) 12.706 · 0.0014142 / √2 = 0.0127; bypass's mesh CPU 0.85 and 0.89:
        // 30.23 ± 1.46 points
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().equals(ResultsSchema.RESULTS_FILE)).toList()) {
                RunResults r = ResultsJson.readResults(f);
                int repeat = Integer.parseInt(r.inputs().runId().substring(r.inputs().runId().lastIndexOf('-') + 1));
                ResultsJson.writeResults(f, new RunResults(r.schemaVersion(), r.inputs().withMeasurement(
                        MeasurementInfo.DEFAULT.withRun(repeat, 2, Map.of())), r.conversion(), r.steps(), r.notes()));
            }
        }
        Answer.Sentence paired = sentence(answer(dir), "sni");
        assertEquals(Answer.Pairing.REPEAT, paired.pairing());
        assertEquals("sni: +0.263 \u00b1 0.013 ms of mesh CPU per transaction on the MongoDB path (+30.2 \u00b1 1.5 points "
                + "of bypass's mesh CPU per transaction), P99 the same as bypass's in every round, P50 the same as bypass's "
                + "in every round, from 2 rounds (paired by repeat).", paired.line());
    }

    @Test
    @DisplayName("the console lines: each data plane's heading, then one sentence per case other than bypass")
    void lines(@TempDir Path dir) throws IOException {
        SwitchedSitting.write(dir, SwitchedSitting.SITTING, SwitchedSitting.ORDER, 3);
        List<String> lines = answer(dir).lines();
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertEquals(HEADING + " (3 rounds), against bypass:", lines.get(0));
        assertTrue(lines.get(1).startsWith("  sidecar: "), lines.get(1));
        assertTrue(lines.get(2).startsWith("  sni: +0.260 \u00b1 0.025 ms"), lines.get(2));
    }
}
