package dev.meshbench.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** meshbench:report, run by hand: what it says when the results are missing, empty or unreadable. */
class ReportMojoTest {
    @TempDir
    Path tmp;

    private static ReportMojo mojo(Path results) {
        ReportMojo m = new ReportMojo();
        m.results = results.toFile();
        m.clients = "20";
        return m;
    }

    @Test
    @DisplayName("a results folder that does not exist fails the goal, naming the folder and where the report was to go")
    void missingResultsDir() {
        Path missing = tmp.resolve("no-such-results");
        MojoExecutionException e = assertThrows(MojoExecutionException.class, () -> mojo(missing).execute());
        assertTrue(e.getMessage().startsWith("building the report from " + missing + " into " + missing.resolve("report") + " failed: "),
                e.getMessage());
        assertTrue(e.getMessage().contains("results directory does not exist"), e.getMessage());
    }

    @Test
    @DisplayName("an empty results folder still gets a report (saying there is no usable run), not a failure")
    void emptyResultsDir() throws Exception {
        Path results = Files.createDirectories(tmp.resolve("results"));
        mojo(results).execute();
        assertTrue(Files.isRegularFile(results.resolve("report/index.html")));
    }

    @Test
    @DisplayName("a malformed results.json does not stop the report: the run is listed as skipped, naming its file")
    void malformedResultsJson() throws Exception {
        Path run = Files.createDirectories(tmp.resolve("results/20261122-060649-sni"));
        Files.writeString(run.resolve("results.json"), "{ \"schemaVersion\": \"4\", \"inputs\": ");
        mojo(tmp.resolve("results")).execute();
        String html = Files.readString(tmp.resolve("results/report/index.html"), StandardCharsets.UTF_8);
        assertTrue(html.contains("20261122-060649-sni"), "the report names the skipped run's file");
        assertTrue(html.toLowerCase(java.util.Locale.ROOT).contains("skipped"), "the report has a skipped section");
    }

    @Test
    @DisplayName("meshbench.report elsewhere: the report goes there; a report path that is a file fails, naming it")
    void reportFolder() throws Exception {
        Path results = Files.createDirectories(tmp.resolve("results"));
        ReportMojo m = mojo(results);
        m.report = tmp.resolve("elsewhere").toFile();
        m.execute();
        assertTrue(Files.isRegularFile(tmp.resolve("elsewhere/index.html")));

        File file = Files.writeString(tmp.resolve("a-file"), "x").toFile();
        ReportMojo blocked = mojo(results);
        blocked.report = file;
        MojoExecutionException e = assertThrows(MojoExecutionException.class, blocked::execute);
        assertEquals("building the report from " + results + " into " + file + " failed: ",
                e.getMessage().substring(0, ("building the report from " + results + " into " + file + " failed: ").length()));
    }

    @Test
    @DisplayName("when the report cannot be written after runs failed, the failure carries the verdict: every failed run and its reason")
    void verdictWhenReportFails() throws Exception {
        Path results = Files.createDirectories(tmp.resolve("results"));
        File file = Files.writeString(tmp.resolve("a-file"), "x").toFile();
        ReportMojo m = mojo(results);
        m.report = file; // as a read-only or full results folder: the report cannot be written
        m.project = Builds.project(java.util.Map.of());
        m.project.setContextValue(RunMojo.PROBLEMS, java.util.List.of("sni (r1) failed: JMeter exited with 1 (see jmeter.out)",
                "mtls (r2): 2.00% errors (2 of 100 samples) is above meshbench.maxErrorPercent=1.0"));
        MojoExecutionException e = assertThrows(MojoExecutionException.class, m::execute);
        assertTrue(e.getMessage().startsWith("building the report from " + results + " into " + file + " failed: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("\nmeshbench:check does not run after a failed report; the verdict on this build's runs: "
                + "2 run(s) failed:\n  sni (r1) failed: JMeter exited with 1 (see jmeter.out)\n  mtls (r2): 2.00% errors (2 of 100 "
                + "samples) is above meshbench.maxErrorPercent=1.0"), e.getMessage());

        ReportMojo passed = mojo(results);
        passed.report = file;
        passed.project = Builds.project(java.util.Map.of());
        passed.project.setContextValue(RunMojo.PROBLEMS, java.util.List.of());
        MojoExecutionException p = assertThrows(MojoExecutionException.class, passed::execute);
        assertTrue(p.getMessage().endsWith("the verdict on this build's runs: none failed (the regression gate did not run)"),
                p.getMessage());
    }
}
