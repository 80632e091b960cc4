package dev.meshbench.results.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsJsonTest {
    static final Path GOLDEN = Path.of("src/test/resources/runs/sni-1/results.golden.json");
    static final Path RUN = Path.of("src/test/resources/runs/sni-1/run.json");

    @TempDir
    Path tmp;

    static RunInputs starting() {
        return RunInputs.starting("r1", "mtls", TargetKind.LOCAL, List.of(1, 5), 300, 60, 0, 100,
                new KitVersions("0.1.0", "17.0.15", "5.6.3"), new Machine(2, 1L << 34, "Linux"),
                Instant.parse("2026-11-20T09:00:00Z"));
    }

    @Test
    @DisplayName("lets the orchestrator fill run.json step by step and read it back unchanged")
    void orchestratorFlow() throws IOException {
        Path file = tmp.resolve("run.json");
        RunInputs inputs = starting();
        ResultsJson.writeRunInputs(file, inputs);
        assertEquals(inputs, ResultsJson.readRunInputs(file));
        inputs = inputs.withStep(inputs.step(1).started(1000)).withStep(inputs.step(1).started(1000).ended(301_000));
        inputs = inputs.failed("step of 5 clients: JMeter exited with code 1");
        ResultsJson.writeRunInputs(file, inputs);
        RunInputs back = ResultsJson.readRunInputs(file);
        assertEquals(inputs, back);
        assertEquals(RunStatus.FAILED, back.status());
        assertEquals(new StepWindow(1, 1000L, 301_000L), back.step(1));
        assertEquals(StepWindow.planned(5), back.step(5));
        assertTrue(Files.readString(file).contains("\"failureReason\" : \"step of 5 clients: JMeter exited"));
    }

    @Test
    @DisplayName("says a truncated results.json is truncated, with file and position")
    void truncated() throws IOException {
        String json = Files.readString(GOLDEN);
        Path f = write("results.json", json.substring(0, json.length() / 2));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(f));
        assertEquals(f, e.file());
        assertTrue(e.getMessage().startsWith(f + ": truncated JSON: input ends at line "), e.getMessage());
    }

    @Test
    @DisplayName("refuses an unknown schema version before reading anything else")
    void unknownVersion() throws IOException {
        Path f = write("results.json", Files.readString(GOLDEN).replaceFirst("\"schemaVersion\" : \"1\"",
                "\"schemaVersion\" : \"2\""));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(f));
        assertEquals(f + ": unknown schemaVersion \"2\" (this build reads schema version \"1\"; convert the run "
                + "again or use a matching kit)", e.getMessage());
    }

    @Test
    @DisplayName("names a missing field by its path")
    void missingField() throws IOException {
        Path f = write("run.json", Files.readString(RUN).replace("  \"stepSeconds\" : 4,\n", ""));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f));
        assertEquals(f + ": missing field 'stepSeconds'", e.getMessage());
    }

    @Test
    @DisplayName("names a missing nested field by its path")
    void missingNestedField() throws IOException {
        Path f = write("results.json", Files.readString(GOLDEN).replaceFirst("\"p99\" : \\d+,\n\\s*", ""));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(f));
        assertEquals(f + ": missing field 'steps[0].latencyMs.p99'", e.getMessage());
    }

    @Test
    @DisplayName("names an unknown field by its path")
    void unknownField() throws IOException {
        Path f = write("run.json", Files.readString(RUN).replace("\"customers\" : 200,",
                "\"customers\" : 200, \"rampSeconds\" : 3,"));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f));
        assertEquals(f + ": unknown field 'rampSeconds' (not part of schema version 1)", e.getMessage());
    }

    @Test
    @DisplayName("passes on the rule a value breaks")
    void invalidValue() throws IOException {
        Path f = write("run.json", Files.readString(RUN).replace("\"warmupSeconds\" : 1", "\"warmupSeconds\" : 4"));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f));
        assertEquals(f + ": warmupSeconds (4) must be shorter than stepSeconds (4)", e.getMessage());
    }

    @Test
    @DisplayName("lists the allowed values of an unknown status")
    void unknownStatus() throws IOException {
        Path f = write("run.json", Files.readString(RUN).replace("\"passed\"", "\"done\""));
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> ResultsJson.readRunInputs(f));
        assertEquals(f + ": in 'status': status \"done\" is not one of running|passed|failed", e.getMessage());
    }

    @Test
    @DisplayName("says an empty file is empty and a non-object is not an object")
    void emptyAndNonObject() throws IOException {
        Path empty = write("a.json", "");
        assertEquals(empty + ": file is empty",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(empty)).getMessage());
        Path array = write("b.json", "[1, 2]");
        assertEquals(array + ": expected a JSON object, found array",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(array)).getMessage());
        Path missing = tmp.resolve("none.json");
        assertEquals(missing + ": file not found",
                assertThrows(ResultsFormatException.class, () -> ResultsJson.readResults(missing)).getMessage());
    }

    @Test
    @DisplayName("rejects inputs that break the rules, naming value and rule")
    void validation() {
        RunInputs ok = starting();
        IllegalArgumentException dup = assertThrows(IllegalArgumentException.class, () -> RunInputs.starting("r1",
                "mtls", TargetKind.LOCAL, List.of(5, 5), 300, 60, 0, 100, ok.versions(), ok.machine(),
                ok.startTime()));
        assertEquals("steps: 5 clients appears twice; every step needs its own client count (it identifies the "
                + "step in the JTL)", dup.getMessage());
        IllegalArgumentException runId = assertThrows(IllegalArgumentException.class, () -> RunInputs.starting(
                "a/b", "mtls", TargetKind.LOCAL, List.of(5), 300, 60, 0, 100, ok.versions(), ok.machine(),
                ok.startTime()));
        assertEquals("runId (\"a/b\") must be usable as a folder name (letters, digits, . _ -)", runId.getMessage());
        assertEquals("failureReason of a failed run (null) must not be blank",
                assertThrows(IllegalArgumentException.class, () -> ok.failed(null)).getMessage());
        assertEquals("step of 3 clients: endEpochMs (10) must be after startEpochMs (10)",
                assertThrows(IllegalArgumentException.class, () -> new StepWindow(3, 10L, 10L)).getMessage());
    }

    private Path write(String name, String content) throws IOException {
        Path f = tmp.resolve(name);
        Files.writeString(f, content);
        return f;
    }
}
