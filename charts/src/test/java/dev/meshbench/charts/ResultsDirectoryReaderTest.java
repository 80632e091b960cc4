package dev.meshbench.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.LoadedResults;
import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.charts.load.ResultsDirectoryReader;
import dev.meshbench.charts.load.SkippedRun;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunOwner;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broken and mismatched runs beside the thirteen good ones: each is skipped with its file and reason. */
class ResultsDirectoryReaderTest {
    @TempDir
    Path dir;

    @BeforeEach
    void copyGoodRuns() throws IOException {
        TestRuns.copyTo(dir);
    }

    @Test
    @DisplayName("skips a truncated results.json, naming the file and the position")
    void truncated() throws IOException {
        String json = Files.readString(dir.resolve("mtls-1/results.json"));
        Path f = write("cut/results.json", json.substring(0, json.length() / 3));
        String reason = skipped(read()).get(f);
        assertTrue(reason.startsWith("truncated JSON: input ends at line "), reason);
    }

    @Test
    @DisplayName("skips a results.json of an unknown schema version")
    void unknownVersion() throws IOException {
        Path f = write("future/results.json", Files.readString(dir.resolve("mtls-1/results.json"))
                .replace("\"schemaVersion\" : \"5\"", "\"schemaVersion\" : \"99\""));
        assertEquals("unknown schemaVersion \"99\" (this build reads schema versions \"1\", \"2\", \"3\", \"4\", \"5\", \"6\" "
                + "and \"7\"; convert the run again or use a matching kit)", skipped(read()).get(f));
    }

    @Test
    @DisplayName("skips a run whose client steps differ from the others', keeping the rest")
    void differentSteps() throws IOException {
        RunResults r = ResultsJson.readResults(dir.resolve("gateway-1/results.json"));
        RunResults shorter = new RunResults(r.schemaVersion(), renamed(r.inputs(), "gateway-short"), r.conversion(),
                r.steps().subList(0, 3), r.notes());
        Path f = dir.resolve("gateway-short/results.json");
        ResultsJson.writeResults(f, shorter);
        LoadedResults loaded = read();
        assertEquals("client steps [1, 5, 10] differ from [1, 5, 10, 20, 30] of the other runs; throughput curves "
                + "and repeats are compared step by step", skipped(loaded).get(f));
        assertEquals(13, loaded.runs().size());
    }

    @Test
    @DisplayName("lists a failed run as skipped with the orchestrator's reason")
    void failedRun() throws IOException {
        RunResults r = ResultsJson.readResults(dir.resolve("mtls-1/results.json"));
        Path f = dir.resolve("mtls-failed/results.json");
        ResultsJson.writeResults(f, new RunResults(r.schemaVersion(),
                renamed(r.inputs(), "mtls-failed").failed("JMeter exited with code 1 in step 30"), r.conversion(),
                r.steps(), r.notes()));
        assertEquals("run failed: JMeter exited with code 1 in step 30", skipped(read()).get(f));
    }

    @Test
    @DisplayName("points at --convert-missing for a run folder that was never converted")
    void notConverted() throws IOException {
        RunResults r = ResultsJson.readResults(dir.resolve("sidecar-1/results.json"));
        Path f = dir.resolve("sidecar-2/run.json");
        ResultsJson.writeRunInputs(f, renamed(r.inputs(), "sidecar-2"));
        assertEquals("no results.json next to it (convert with --convert-missing)", skipped(read()).get(f));
    }

    @Test
    @DisplayName("a run left running by a process that is gone is listed as abandoned; one whose process lives, as going")
    void abandonedRun() throws Exception {
        RunInputs in = ResultsJson.readResults(dir.resolve("sidecar-1/results.json")).inputs();
        Process ended = new ProcessBuilder("java", "-version").redirectErrorStream(true).start();
        Instant started = ended.toHandle().info().startInstant().orElse(Instant.EPOCH);
        ended.getInputStream().readAllBytes();
        ended.waitFor();
        RunOwner self = RunOwner.ofThisProcess();
        for (String id : List.of("sidecar-killed", "sidecar-going")) {
            ResultsJson.writeRunInputs(dir.resolve(id + "/run.json"), RunInputs.starting(id, in.caseId(), in.target(),
                    List.of(1, 5, 10, 20), in.stepSeconds(), in.warmupSeconds(), in.thinkTimeMs(), in.customers(), in.versions(),
                    in.machine(), in.startTime()));
        }
        new RunOwner(ended.pid(), started, self.host()).writeTo(dir.resolve("sidecar-killed"));
        self.writeTo(dir.resolve("sidecar-going"));
        Map<Path, String> skipped = skipped(read());
        assertEquals("run abandoned: the process that ran it (" + new RunOwner(ended.pid(), started, self.host()).describe()
                + ") ended before the run finished (killed?) and has no results.json", skipped.get(dir.resolve("sidecar-killed/run.json")));
        assertEquals("run still going (" + self.describe() + ") and has no results.json", skipped.get(dir.resolve("sidecar-going/run.json")));
    }

    @Test
    @DisplayName("keeps the first of two runs with the same id")
    void duplicateId() throws IOException {
        Path f = write("zz-copy/results.json", Files.readString(dir.resolve("sni-1/results.json")));
        assertEquals("run id sni-1 was already read from " + dir.resolve("sni-1/results.json"),
                skipped(read()).get(f));
    }

    @Test
    @DisplayName("converting a JTL without the step column skips that run, naming samples.jtl and the column")
    void jtlMissingColumn() throws IOException {
        Path run = rawRun("raw", "timeStamp,elapsed,label,success\n1000,5,login,true\n");
        LoadedResults loaded = ResultsDirectoryReader.read(dir, ConversionMode.MISSING);
        assertEquals("cannot convert: missing column 'step' in the header (found: timeStamp,elapsed,label,success)",
                skipped(loaded).get(run.resolve("samples.jtl")));
        assertEquals(13, loaded.runs().size());
    }

    @Test
    @DisplayName("converts a run folder with --convert-missing and reads it like any other")
    void convertMissing(@TempDir Path other) throws IOException {
        dir = other;
        Path run = rawRun("raw", "timeStamp,elapsed,label,success,step\n1500,5,login,true,1\n1600,7,login,true,1\n"
                + "1700,9,login,false,1\n");
        LoadedResults loaded = ResultsDirectoryReader.read(dir, ConversionMode.MISSING);
        assertEquals(List.of(), loaded.skipped());
        LoadedRun r = loaded.runs().get(0);
        assertEquals(run.resolve("results.json"), r.file());
        assertEquals(2, r.results().steps().get(0).transactions());
        assertEquals(1, r.results().steps().get(0).errors());
        assertNull(r.results().inputs().dataPlane(), "the orchestrator never recorded one");
        assertEquals("netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 workload not recorded", r.dataPlaneLabel(), "reported as the unknown netty data plane, workload not recorded");
    }

    @Test
    @DisplayName("reads a version 1 results.json as a run on netty without sidecar mTLS")
    void version1Run() throws IOException {
        assertTrue(Files.readString(dir.resolve("mtls-v1/results.json")).contains("\"schemaVersion\" : \"1\""));
        LoadedRun old = read().runs().stream().filter(r -> r.runId().equals("mtls-v1")).findFirst().orElseThrow();
        assertEquals(DataPlaneInfo.unknownNetty(), old.dataPlane());
        assertEquals("netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards", old.dataPlaneLabel());
    }

    @Test
    @DisplayName("orders runs by data plane (netty, envoy, then others alphabetically), then case, then run id")
    void reportOrder() throws IOException {
        RunResults r = ResultsJson.readResults(dir.resolve("gateway-1/results.json"));
        DataPlaneInfo other = new DataPlaneInfo("cilium", java.util.Map.of("sidecar", "cilium 1.18"), 2, true, true, null);
        RunInputs in = renamed(r.inputs(), "gateway-cilium-1").withDataPlane(other);
        ResultsJson.writeResults(dir.resolve("gateway-cilium-1/results.json"), new RunResults(r.schemaVersion(), in,
                r.conversion(), r.steps(), r.notes()));
        assertEquals(List.of("bypass-1", "bypass-2", "bypass-3", "sidecar-1", "gateway-1", "mtls-1", "sni-1", "sni-2",
                "sni-3", "mtls-v1", "bypass-envoy-1", "sni-envoy-1", "sni-envoy-2", "gateway-cilium-1"),
                read().runs().stream().map(LoadedRun::runId).toList());
    }

    @Test
    @DisplayName("still renders the report from the valid runs and lists every skipped file with its reason")
    void reportRendersDespiteBadInput(@TempDir Path out) throws IOException {
        truncated();
        unknownVersion();
        differentSteps();
        var model = ReportGenerator.generate(dir, out, 20, ConversionMode.NONE, Instant.EPOCH);
        assertEquals(5, model.caseIds().size());
        assertEquals(8, model.cases().size(), "five cases on netty, two on envoy, one old run");
        String html = Files.readString(out.resolve("index.html"));
        assertTrue(html.contains("3 files were skipped"));
        for (String s : List.of("<code>cut/results.json</code>", "<code>future/results.json</code>",
                "<code>gateway-short/results.json</code>", "unknown schemaVersion &quot;99&quot;",
                "client steps [1, 5, 10] differ")) {
            assertTrue(html.contains(s), s);
        }
    }

    private Path rawRun(String runId, String jtl) throws IOException {
        Path run = dir.resolve(runId);
        RunInputs in = RunInputs.starting(runId, "bypass", dev.meshbench.results.TargetKind.LOCAL, List.of(1), 2, 0,
                0, 1, new dev.meshbench.results.KitVersions("k", "j", "m"),
                new dev.meshbench.results.Machine(1, 1024, "os"), Instant.EPOCH);
        in = in.withStep(StepWindow.planned(1).started(1000).ended(3000)).passed();
        ResultsJson.writeRunInputs(run.resolve("run.json"), in);
        Files.writeString(run.resolve("samples.jtl"), jtl);
        return run;
    }

    private static RunInputs renamed(RunInputs in, String runId) {
        return new RunInputs(in.schemaVersion(), runId, in.caseId(), in.target(), in.steps(), in.stepSeconds(),
                in.warmupSeconds(), in.thinkTimeMs(), in.customers(), in.versions(), in.machine(), in.startTime(),
                in.status(), in.failureReason(), in.dataPlane(), in.workload(), in.cluster());
    }

    private Path write(String relative, String content) throws IOException {
        Path f = dir.resolve(relative);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
        return f;
    }

    private LoadedResults read() throws IOException {
        return ResultsDirectoryReader.read(dir, ConversionMode.NONE);
    }

    private static Map<Path, String> skipped(LoadedResults loaded) {
        return loaded.skipped().stream().collect(Collectors.toMap(SkippedRun::file, SkippedRun::reason));
    }
}
