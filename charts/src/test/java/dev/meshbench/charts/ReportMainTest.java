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
    @DisplayName("builds the report from a results directory and says what it read and wrote")
    void buildsReport(@TempDir Path out) {
        int code = run("--results", TestRuns.RESULTS.toString(), "--out", out.toString(), "--clients", "20");
        assertEquals(0, code, printed.toString());
        assertEquals("read 13 runs of 5 cases on 3 data planes (netty (JDK TLS), netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards, envoy) from "
                + TestRuns.RESULTS + " (0 skipped)\n"
                + "  note: no bypass run on data plane netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards: its cases have no baseline in the "
                + "comparison table\n"
                + "wrote " + out.resolve("index.html") + " with throughput.png, latency.png, cpu-per-tx.png, labels-p99.png, "
                + "steps.csv, labels.csv, comparison.csv, attribution.csv\n", head(printed.toString(), 3));
        assertTrue(Files.exists(out.resolve("cpu-per-tx.png")));
        // then the MongoDB path per data plane: the sample results predate the split (no per-listener bytes), so
        // each data plane says it is not attributed and why
        String[] lines = printed.toString().replace(System.lineSeparator(), "\n").split("\n");
        assertEquals(3 + 3, lines.length, printed.toString());
        for (String plane : List.of("netty (JDK TLS)", "netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, "
                + "no flight cache, sync rewards", "envoy")) {
            assertTrue(List.of(lines).contains("MongoDB-path CPU at 20 clients, " + plane + ": not attributed (no "
                    + "counters.csv)") || List.of(lines).stream().anyMatch(l -> l.startsWith("MongoDB-path CPU at 20 "
                    + "clients, " + plane + ": not attributed (bypass converted before the split: convert it again;")),
                    plane + " in " + printed);
        }
    }

    /** The first {@code n} lines of {@code text}, each ending in a line feed. */
    private static String head(String text, int n) {
        return List.of(text.replace(System.lineSeparator(), "\n").split("\n")).subList(0, n).stream()
                .map(l -> l + "\n").collect(java.util.stream.Collectors.joining());
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
