package dev.meshbench.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ReportMainTest {
    private final StringWriter printed = new StringWriter();

    private int run(String... args) {
        PrintWriter out = new PrintWriter(printed, true);
        CommandLine cl = new CommandLine(new ReportMain(out));
        cl.setOut(out);
        cl.setErr(out);
        return cl.execute(args);
    }

    @Test
    @DisplayName("builds the report from a results directory: says the answer first, then what it read and wrote")
    void buildsReport(@TempDir Path out) {
        int code = run("--results", TestRuns.RESULTS.toString(), "--out", out.toString(), "--clients", "20");
        assertEquals(0, code, printed.toString());
        List<String> lines = List.of(printed.toString().replace(System.lineSeparator(), "\n").split("\n"));
        // the answer, per data plane: its heading, then a sentence per case other than bypass (4 + 1 + 1 of them)
        assertEquals("netty (JDK TLS), closed loop, 20 clients, no sitting recorded (each run deployed its case), against "
                + "bypass:", lines.get(0));
        assertTrue(lines.get(4).startsWith("  sni: MongoDB-path mesh CPU not attributed (no counters.csv), P99 "), lines.get(4));
        assertTrue(lines.get(4).endsWith(", from 3 runs of sni and 3 of bypass, unpaired (run sni-1 recorded no round: the "
                + "means compared by Welch's t)."), lines.get(4));
        assertEquals("  mtls: no bypass run on this data plane, so no comparison.", lines.get(6));
        assertEquals("envoy, closed loop, 20 clients, no sitting recorded (each run deployed its case), against bypass:",
                lines.get(7));
        int read = 9;
        assertEquals("read 13 runs of 5 cases on 3 data planes (netty (JDK TLS), netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards, envoy) from "
                + TestRuns.RESULTS + " (0 skipped)\n"
                + "  note: no bypass run on data plane netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards: its cases have no baseline in the "
                + "comparison table\n"
                + "wrote " + out.resolve("index.html") + " with throughput.png, latency.png, cpu-per-tx.png, labels-p99.png, "
                + "answer.csv, sitting.csv, steps.csv, labels.csv, comparison.csv, attribution.csv\n",
                lines.subList(read, read + 3).stream().map(l -> l + "\n").collect(java.util.stream.Collectors.joining()));
        assertTrue(Files.exists(out.resolve("cpu-per-tx.png")));
        // then the MongoDB path per data plane: the sample results predate the split (no per-listener bytes), so
        // each data plane says it is not attributed and why
        assertEquals(read + 3 + 3, lines.size(), printed.toString());
        for (String plane : List.of("netty (JDK TLS)", "netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, "
                + "no flight cache, sync rewards", "envoy")) {
            assertTrue(lines.contains("MongoDB-path CPU at 20 clients, " + plane + ": not attributed (no "
                    + "counters.csv)") || lines.stream().anyMatch(l -> l.startsWith("MongoDB-path CPU at 20 "
                    + "clients, " + plane + ": not attributed (bypass converted before the split: convert it again;")),
                    plane + " in " + printed);
        }
    }

    @Test
    @DisplayName("a switched sitting: the answer first, the calibration said as the calibration, nothing skipped, no throughput chart")
    void switchedSitting(@TempDir Path tmp) throws Exception {
        Path results = tmp.resolve("results");
        dev.meshbench.charts.model.SwitchedSitting.write(results, dev.meshbench.charts.model.SwitchedSitting.SITTING,
                dev.meshbench.charts.model.SwitchedSitting.ORDER, 3);
        assertEquals(0, run("--results", results.toString()), printed.toString());
        List<String> lines = List.of(printed.toString().replace(System.lineSeparator(), "\n").split("\n"));
        assertEquals("envoy, fixed rate 120 req/s (calibrated), 20 clients, switched sitting "
                + dev.meshbench.charts.model.SwitchedSitting.SITTING + " (3 rounds), against bypass:", lines.get(0));
        assertTrue(lines.get(2).startsWith("  sni: +0.260 \u00b1 0.025 ms of mesh CPU per transaction on the MongoDB path"),
                lines.get(2));
        assertEquals("read 9 runs of 3 cases on 1 data plane (envoy) from " + results + " (0 skipped)", lines.get(3));
        assertEquals("  calibration " + dev.meshbench.charts.model.SwitchedSitting.SITTING + "-calibration (sitting "
                + dev.meshbench.charts.model.SwitchedSitting.SITTING + "): bypass's closed-loop maximum 160.0 tx/s at 20 "
                + "clients, steady; set the fixed rate 120 req/s (0.75 of it) for 9 runs", lines.get(4));
        assertTrue(lines.get(5).startsWith("wrote ") && lines.get(5).endsWith(" with latency.png, cpu-per-tx.png, "
                + "labels-p99.png, answer.csv, sitting.csv, steps.csv, labels.csv, comparison.csv, attribution.csv"),
                lines.get(5));
        assertTrue(lines.stream().noneMatch(l -> l.contains("skipped ")), printed.toString());
    }

    @Test
    @DisplayName("names a results directory that does not exist and exits with 2")
    void missingDirectory(@TempDir Path tmp) {
        Path missing = tmp.resolve("nope");
        assertEquals(2, run("--results", missing.toString()));
        assertEquals("building report from " + missing + " failed: " + missing + ": results directory does not "
                + "exist\n", printed.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    @DisplayName("writes a report that says nothing was usable and exits with 1 when no run is valid")
    void noUsableRun(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("results/r1"));
        Files.writeString(tmp.resolve("results/r1/results.json"), "{\"schemaVersion\" : \"1\", \"inputs\" : {");
        assertEquals(1, run("--results", tmp.resolve("results").toString()));
        assertTrue(printed.toString().contains("skipped " + tmp.resolve("results/r1/results.json")
                + ": truncated JSON"), printed.toString());
        String html = Files.readString(tmp.resolve("results/report/index.html"));
        assertTrue(html.contains("No usable run was found"));
    }

    @Test
    @DisplayName("rejects a non-positive client count")
    void badClients() {
        assertEquals(2, run("--results", TestRuns.RESULTS.toString(), "--clients", "0"));
        assertTrue(printed.toString().contains("--clients (0) must be a positive number of clients"));
    }
}
