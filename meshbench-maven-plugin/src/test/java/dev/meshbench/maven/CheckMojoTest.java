package dev.meshbench.maven;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import dev.meshbench.results.ConversionMethod;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.io.ResultsJson;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** meshbench:check, the build's verdict: its failure paths, each naming what went wrong. */
class CheckMojoTest {
    @TempDir
    Path tmp;

    private static CheckMojo mojo(List<String> problems) {
        CheckMojo m = new CheckMojo();
        m.project = Builds.project(Map.of());
        if (problems != null) {
            m.project.setContextValue(RunMojo.PROBLEMS, problems);
            m.project.setContextValue(RunMojo.RUN_RESULTS, new ArrayList<>());
        }
        m.maxRegressionPercent = "10";
        return m;
    }

    @Test
    @DisplayName("without meshbench:run earlier in the build it fails, naming the module and the goal to run first")
    void noRunsInThisBuild() {
        MojoExecutionException e = assertThrows(MojoExecutionException.class, () -> mojo(null).execute());
        assertEquals("meshbench:check found no runs of this build in runs-test; meshbench:run must run first in the same build",
                e.getMessage());
    }

    @Test
    @DisplayName("no failed run and no baseline: the build passes")
    void passes() {
        assertDoesNotThrow(() -> mojo(List.of()).execute());
    }

    @Test
    @DisplayName("failed runs fail the build, every one named on its own line")
    void failedRuns() {
        MojoFailureException e = assertThrows(MojoFailureException.class,
                () -> mojo(List.of("sni (r1) failed: JMeter exited with 1", "mtls (r2): 2.00% errors")).execute());
        assertEquals("2 run(s) failed:\n  sni (r1) failed: JMeter exited with 1\n  mtls (r2): 2.00% errors", e.getMessage());
    }

    @Test
    @DisplayName("a baseline that does not exist fails the build, naming meshbench.baseline and the path")
    void missingBaseline() {
        CheckMojo m = mojo(List.of());
        m.baseline = tmp.resolve("nowhere").toFile();
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertEquals("meshbench.baseline=" + m.baseline + ": no such file or folder", e.getMessage());
    }

    @Test
    @DisplayName("a malformed results.json in the baseline fails the build, naming the file")
    void malformedBaseline() throws Exception {
        Path file = Files.createDirectories(tmp.resolve("base/run-1")).resolve("results.json");
        Files.writeString(file, "{ not json");
        CheckMojo m = mojo(List.of());
        m.baseline = tmp.resolve("base").toFile();
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertTrue(e.getMessage().startsWith("meshbench.baseline=" + m.baseline + ": " + file + " is not a results file: "),
                e.getMessage());
    }

    @Test
    @DisplayName("a baseline folder without results fails the build, saying what to give")
    void emptyBaseline() throws Exception {
        CheckMojo m = mojo(List.of());
        m.baseline = Files.createDirectories(tmp.resolve("empty")).toFile();
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertTrue(e.getMessage().startsWith("meshbench.baseline=" + m.baseline + ": holds no results.json"), e.getMessage());
    }

    @Test
    @DisplayName("a bad meshbench.maxRegressionPercent with a baseline fails the build, naming the property")
    void badMaxRegression() throws Exception {
        CheckMojo m = mojo(List.of());
        m.baseline = Files.createDirectories(tmp.resolve("empty")).toFile();
        m.maxRegressionPercent = "-5";
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertTrue(e.getMessage().startsWith("meshbench.maxRegressionPercent=-5: "), e.getMessage());
    }

    @Test
    @DisplayName("failed runs and a baseline with nothing comparable are reported together, runs first")
    void failedRunsAndGateTogether() throws Exception {
        RunResults base = new RunResults(ResultsSchema.VERSION, RunInputs.starting("base-1", "sni", TargetKind.LOCAL, List.of(1), 20, 5,
                0, 1000, new KitVersions("0.1.0", "17", "5.6.3"), new Machine(2, 1L << 34, "Linux"), Instant.parse("2026-11-22T06:00:00Z")),
                ConversionMethod.current(true), List.of(), List.of());
        Path dir = Files.createDirectories(tmp.resolve("base/base-1"));
        ResultsJson.writeResults(dir.resolve("results.json"), base);
        CheckMojo m = mojo(List.of("sni (r1) failed: interrupted"));
        m.baseline = tmp.resolve("base").toFile();
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertEquals("1 run(s) failed:\n  sni (r1) failed: interrupted\nmeshbench.baseline=" + m.baseline
                + ": none of its 1 runs is comparable with this build's (), nothing to gate on", e.getMessage());
    }
}
