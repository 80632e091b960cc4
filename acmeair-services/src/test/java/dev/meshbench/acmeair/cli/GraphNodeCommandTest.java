package dev.meshbench.acmeair.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.acmeair.graph.GraphNodeOptions;
import dev.meshbench.component.cli.ComponentCommandLine;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParameterException;

@DisplayName("graph-node options")
class GraphNodeCommandTest {
    static String refused(List<String> args, Map<String, String> env) {
        return ComponentCommandLine.describe(assertThrows(ParameterException.class, () -> GraphNodeCommand.options(args, env)));
    }

    @Test
    @DisplayName("reads every option from the command line, --call repeatable with comma-separated URLs")
    void commandLine() {
        GraphNodeOptions o = GraphNodeCommand.options(List.of("--graph", "g.yaml", "--service=front", "--port", "9080",
                "--bind-host", "0.0.0.0", "--call", "a=http://10.0.0.1:8080,http://10.0.0.2:8080/x", "--call=b=http://b",
                "--pause-every", "100", "--pause-ms", "250", "--exit-on-stdin-eof"), Map.of());
        assertEquals(new GraphNodeOptions(Path.of("g.yaml"), "front", "0.0.0.0", 9080,
                Map.of("a", List.of(URI.create("http://10.0.0.1:8080/"), URI.create("http://10.0.0.2:8080/x")),
                        "b", List.of(URI.create("http://b/"))), 100, 250, true), o);
    }

    @Test
    @DisplayName("falls back to environment variables, and the command line wins")
    void environment() {
        Map<String, String> env = Map.of("GRAPH_FILE", "/etc/graph/graph.yaml", "SERVICE_NAME", "back", "PORT", "9080",
                "BIND_HOST", "0.0.0.0", "PAUSE_EVERY", "10", "PAUSE_MS", "5");
        GraphNodeOptions o = GraphNodeCommand.options(List.of("--port", "0"), env);
        assertEquals(new GraphNodeOptions(Path.of("/etc/graph/graph.yaml"), "back", "0.0.0.0", 0, Map.of(), 10, 5, false), o);
    }

    @Test
    @DisplayName("defaults: 127.0.0.1, no pause, no --call")
    void defaults() {
        GraphNodeOptions o = GraphNodeCommand.options(List.of("--graph", "g.yaml", "--service", "a", "--port", "0"), Map.of());
        assertEquals("127.0.0.1", o.host());
        assertEquals(0, o.pauseEvery());
        assertTrue(o.calls().isEmpty());
        assertFalse(o.exitOnStdinEof());
    }

    @Test
    @DisplayName("refuses missing required options, naming option and variable")
    void required() {
        assertEquals("--graph (GRAPH_FILE) is required", refused(List.of("--service", "a", "--port", "0"), Map.of()));
        assertEquals("--service (SERVICE_NAME) is required", refused(List.of("--graph", "g.yaml", "--port", "0"), Map.of()));
        assertEquals("--port (PORT) is required: the port to listen on, 0 for a free one",
                refused(List.of("--graph", "g.yaml", "--service", "a"), Map.of()));
    }

    @Test
    @DisplayName("refuses malformed --call values")
    void badCall() {
        List<String> base = List.of("--graph", "g.yaml", "--service", "a", "--port", "0", "--call");
        assertEquals("--call 'b' must be SERVICE=URL[,URL...], e.g. backend=http://127.0.0.1:9081",
                refused(concat(base, "b"), Map.of()));
        assertEquals("--call b: 'ftp://x' is not an http(s) URL with a host, e.g. http://127.0.0.1:9081",
                refused(concat(base, "b=ftp://x"), Map.of()));
        assertEquals("--call b is given twice; list its URLs in one --call, comma-separated",
                refused(List.of("--graph", "g.yaml", "--service", "a", "--port", "0", "--call", "b=http://x", "--call", "b=http://y"), Map.of()));
    }

    @Test
    @DisplayName("refuses a pause without its partner, a zero pause period, unknown options, bad numbers")
    void badOthers() {
        List<String> base = List.of("--graph", "g.yaml", "--service", "a");
        assertEquals("--pause-every (PAUSE_EVERY) and --pause-ms (PAUSE_MS) go together; --pause-ms is missing",
                refused(concat(base, "--port", "0", "--pause-every", "3"), Map.of()));
        assertEquals("--pause-every 0 must be at least 1", refused(concat(base, "--port", "0", "--pause-every", "0", "--pause-ms", "1"), Map.of()));
        assertEquals("unknown option '--host'", refused(concat(base, "--port", "0", "--host", "0.0.0.0"), Map.of()));
        assertEquals("--port 'http' is not a whole number", refused(concat(base, "--port", "http"), Map.of()));
        assertEquals("--port 70000 must be between 0 and 65535", refused(concat(base, "--port", "70000"), Map.of()));
    }

    @Test
    @DisplayName("the variables the Kubernetes manifests set are enough; a bad one is refused naming it")
    void kubernetesVariables() {
        Map<String, String> env = Map.of("GRAPH_FILE", "/etc/meshbench/graphs/double.yaml", "SERVICE_NAME", "go-sample", "PORT", "8080",
                "BIND_HOST", "0.0.0.0");
        assertEquals(new GraphNodeOptions(Path.of("/etc/meshbench/graphs/double.yaml"), "go-sample", "0.0.0.0", 8080, Map.of(), 0, 0, false),
                GraphNodeCommand.options(List.of(), env));
        assertEquals("--port (PORT) 'eighty' is not a whole number", refused(List.of(), Map.of("GRAPH_FILE", "g.yaml", "SERVICE_NAME", "a",
                "PORT", "eighty")));
        assertEquals("--pause-ms (PAUSE_MS) -5 must not be negative", refused(List.of("--graph", "g.yaml", "--service", "a", "--port", "0",
                "--pause-every", "2"), Map.of("PAUSE_MS", "-5")));
    }

    static List<String> concat(List<String> a, String... b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(List.of(b));
        return all;
    }
}
