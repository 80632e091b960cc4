package dev.meshbench.orchestrator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.orchestrator.latency.load.LoadResult;
import dev.meshbench.orchestrator.latency.load.LoopbackServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

class LoadCommandTest {
    @TempDir
    Path dir;

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new LoadCommand());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    @DisplayName("-qps 0 runs a closed loop, prints the summary and writes the JSON")
    void closedLoop() throws Exception {
        try (LoopbackServer s = LoopbackServer.fast()) {
            Path json = dir.resolve("out/load.json");
            String[] r = run("-qps", "0", "-c", "2", "-t", "500ms", "--json", json.toString(), s.uri().toString());
            assertEquals("0", r[0], r[2]);
            assertTrue(r[1].startsWith("load: closed loop (as fast as possible), 2 connections to " + s.uri() + ", GET, 0.5 s, timeout 5 s\n"), r[1]);
            assertTrue(r[1].contains("\nClosed loop (as fast as possible), 2 connections"), r[1]);
            assertTrue(r[1].contains("\nLatency ms, from the send to the end of the answer, "), r[1]);
            assertTrue(r[1].contains("  p50 "), r[1]);
            assertTrue(r[1].endsWith("Result written to " + json + "\n"), r[1]);
            JsonNode node = new ObjectMapper().readTree(json.toFile());
            long requests = node.get("requests").asLong();
            assertEquals(s.served(), requests);
            assertEquals(requests, LoadResult.decode(node.get("histograms").get("latency").asText()).getTotalCount());
            assertTrue(node.get("spec").get("ratePerSecond").isNull());
        }
    }

    @Test
    @DisplayName("a rate runs an open loop and says whether it fell behind")
    void openLoop() throws Exception {
        try (LoopbackServer s = LoopbackServer.fast()) {
            String[] r = run("-qps", "40", "-c", "2", "-t", "0.5s", s.uri().toString());
            assertEquals("0", r[0], r[2]);
            assertTrue(r[1].contains("\nOpen loop at 40 req/s, 2 connections"), r[1]);
            assertTrue(r[1].contains("(target 40, "), r[1]);
            assertTrue(r[1].contains("\nSchedule: 20 of 20 sent, "), r[1]);
            assertTrue(r[1].contains("\nFell behind: "), r[1]);
        }
    }

    @Test
    @DisplayName("bad options are refused naming the option or field, before any load")
    void badOptions() {
        String[] r = run("-c", "0", "http://127.0.0.1:1/");
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("connections (0) must be between 1 and 10000"), r[2]);
        r = run("-qps", "-5", "http://127.0.0.1:1/");
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("-qps (-5.0) must be 0 (closed loop) or a rate > 0"), r[2]);
        r = run("-t", "soon", "http://127.0.0.1:1/");
        assertEquals("2", r[0]);
        assertTrue(r[2].contains("'soon' is not a duration such as 30s, 500ms or 1m30s"), r[2]);
        r = run("https://127.0.0.1:1/");
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("targets (https://127.0.0.1:1/): the scheme must be http"), r[2]);
    }

    @Test
    @DisplayName("durations are read as fortio writes them")
    void durations() {
        GoDurationConverter c = new GoDurationConverter();
        assertEquals(Duration.ofSeconds(30), c.convert("30s"));
        assertEquals(Duration.ofSeconds(90), c.convert("1m30s"));
        assertEquals(Duration.ofMillis(500), c.convert("500ms"));
        assertEquals(Duration.ofMillis(1500), c.convert("1.5s"));
        assertEquals(Duration.ofHours(2), c.convert("2h"));
        assertEquals(Duration.ofSeconds(10), c.convert("10"));
        assertEquals(Duration.ofSeconds(30), c.convert("PT30S"));
        assertThrows(TypeConversionException.class, () -> c.convert("30 s"));
        assertThrows(TypeConversionException.class, () -> c.convert("-1s"));
    }
}
