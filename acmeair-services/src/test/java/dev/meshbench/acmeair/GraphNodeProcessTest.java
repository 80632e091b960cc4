package dev.meshbench.acmeair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.ReadyLine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("graph-node as a process")
class GraphNodeProcessTest {
    static final Path DOUBLE = Path.of("..", "istio-config", "latency", "graphs", "double.yaml");

    @TempDir
    Path dir;

    static ProcessBuilder command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), AcmeairMain.class.getName(), "graph-node"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        for (String var : List.of("GRAPH_FILE", "SERVICE_NAME", "PORT", "BIND_HOST", "PAUSE_EVERY", "PAUSE_MS")) {
            pb.environment().remove(var);
        }
        return pb;
    }

    /** Runs a graph-node that must refuse to start; returns its stderr, after checking exit code 2 and one line. */
    static String refusal(String... args) throws Exception {
        Process p = command(args).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "did not exit");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue(), err);
        assertEquals(1, err.lines().count(), err);
        return err.strip();
    }

    @Test
    @DisplayName("prints its ready line, serves the graph's response, and exits when stdin closes")
    void serves() throws Exception {
        Process p = command("--graph", DOUBLE.toString(), "--service", "go-sample-dependency", "--port", "0", "--exit-on-stdin-eof")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String readyLine = null;
            for (String line; readyLine == null && (line = out.readLine()) != null; ) {
                readyLine = ReadyLine.parse(line).isPresent() ? line : null;
            }
            assertNotNull(readyLine, "no ready line");
            assertTrue(readyLine.matches("MESHBENCH-READY component=go-sample-dependency address=127\\.0\\.0\\.1:\\d+ metrics=/metrics"
                    + " ready=/health/ready"), readyLine);
            String base = "http://" + ReadyLine.parse(readyLine).orElseThrow().get("address").orElseThrow();
            assertEquals(200, Http.get(base + "/health/ready").statusCode());
            HttpResponse<String> r = Http.get(base + "/");
            assertEquals(200, r.statusCode());
            assertEquals("x", r.body());

            p.getOutputStream().close();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "did not exit after stdin closed");
            assertEquals(0, p.exitValue());
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    @DisplayName("an unknown --service: exit 2, one line naming the service, the graph and its services")
    void unknownService() throws Exception {
        assertEquals("graph-node: reading options failed: --service 'frontend' is not a service of " + DOUBLE
                + " (services: go-sample, go-sample-dependency)", refusal("--graph", DOUBLE.toString(), "--service", "frontend", "--port", "0"));
    }

    @Test
    @DisplayName("a bad graph: exit 2, one line with the file, line and reason")
    void badGraph() throws Exception {
        Path graph = Files.writeString(dir.resolve("bad.yaml"), "apiVersion: v1alpha1\nkind: MockServiceGraph\nservices:\n"
                + "  - name: a\n    isEntrypoint: true\n    script: [call: b]\n");
        assertEquals("graph-node: reading the graph failed: " + graph + ":6: service 'a' calls 'b', which is not a service of this graph"
                + " (services: a)", refusal("--graph", graph.toString(), "--service", "a", "--port", "0"));
    }

    @Test
    @DisplayName("a missing graph file or a missing --graph: exit 2, one line naming it")
    void missingGraph() throws Exception {
        Path none = dir.resolve("none.yaml");
        assertEquals("graph-node: reading the graph failed: --graph " + none + ": no such file",
                refusal("--graph", none.toString(), "--service", "a", "--port", "0"));
        assertEquals("graph-node: reading options failed: --graph (GRAPH_FILE) is required", refusal("--service", "a", "--port", "0"));
    }
}
