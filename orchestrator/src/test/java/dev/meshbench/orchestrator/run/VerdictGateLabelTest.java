package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.ConversionMethod;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.LabelResult;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.io.ResultsJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The regression gate pointed at one request type ({@code meshbench.gateLabel}). */
class VerdictGateLabelTest {
    private static final long T0 = 1_790_000_000_000L;

    /** A passed sni run whose one step of 2 clients has login (p99 {@code loginP99}) and queryflight (p99 10 ms). */
    private static RunResults run(String id, long loginP99) {
        RunInputs in = RunInputs.starting(id, "sni", TargetKind.LOCAL, List.of(2), 20, 5, 0, 1000,
                new KitVersions("0.1.0", "17", "5.6.3"), new Machine(2, 1L << 34, "Linux"), Instant.parse("2026-11-27T06:00:00Z"))
                .passed();
        LatencyStats login = new LatencyStats(10, 1, 5.0, 5, loginP99, loginP99, loginP99, loginP99);
        LatencyStats query = new LatencyStats(10, 1, 5.0, 5, 10, 10, 10, 10);
        LatencyStats all = new LatencyStats(20, 1, 5.0, 5, Math.max(loginP99, 10), Math.max(loginP99, 10), Math.max(loginP99, 10),
                Math.max(loginP99, 10));
        StepResult step = new StepResult(2, T0, T0 + 20_000, 20.0, 20, 0, 0, 20, 0, 1.0, all, null, null, null, null, null,
                List.of(new LabelResult("login", 10, 10, 0, 0.5, login), new LabelResult("queryflight", 10, 10, 0, 0.5, query)));
        return new RunResults(ResultsSchema.VERSION, in, ConversionMethod.current(true), List.of(step), List.of());
    }

    private static String gate(Path baseline, List<RunResults> current, Optional<String> label, ByteArrayOutputStream out) {
        return Verdict.of(List.of(), current, baseline.toString(), 10, label, new PrintStream(out, true, StandardCharsets.UTF_8))
                .orElse("passed");
    }

    @Test
    void aSlowerLoginFailsTheGateOnLoginButNotOnQueryflight(@TempDir Path tmp) throws Exception {
        for (String id : List.of("b1", "b2")) {
            ResultsJson.writeResults(Files.createDirectories(tmp.resolve("base").resolve(id)).resolve("results.json"), run(id, 10));
        }
        List<RunResults> slowerLogin = List.of(run("c1", 100), run("c2", 100));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String onLogin = gate(tmp.resolve("base"), slowerLogin, Optional.of("login"), out);
        assertTrue(onLogin.startsWith("regression gate: 1 figure(s) worse"), onLogin);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("throughput and P99 of request type login only"), out.toString());
        assertEquals("passed", gate(tmp.resolve("base"), slowerLogin, Optional.of("queryflight"), new ByteArrayOutputStream()));
        String unknown = gate(tmp.resolve("base"), slowerLogin, Optional.of("bookflights"), new ByteArrayOutputStream());
        assertEquals("meshbench.gateLabel=bookflights: no step of this build's runs has that request type (they have: login, "
                + "queryflight)", unknown);
    }
}
