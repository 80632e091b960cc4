package dev.meshbench.component.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@DisplayName("component command lines")
class ComponentCommandLineTest {
    @Command(name = "node")
    static final class Node implements Callable<Integer> {
        @Option(names = "--port", converter = Converters.Port.class)
        @EnvironmentVariable("PORT")
        int port;

        @Option(names = "--alias", split = ",")
        @EnvironmentVariable("ALIASES")
        List<String> aliases = List.of();

        @Option(names = "--name")
        String name;

        @Mixin
        ComponentOptions component;

        @Override
        public Integer call() {
            return 0;
        }
    }

    @Command(name = "tool", subcommands = Node.class)
    static final class Tool {
    }

    final StringWriter err = new StringWriter();

    int run(Object command, Map<String, String> env, String... args) {
        CommandLine cli = new CommandLine(command);
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        ComponentCommandLine.configure(cli, env, (failed, message) -> failed.getCommandSpec().qualifiedName() + ": " + message);
        return cli.execute(args);
    }

    String error() {
        String text = err.toString().strip();
        assertEquals(1, text.lines().count(), text);
        return text;
    }

    @Test
    @DisplayName("an option falls back to its environment variable; the command line wins; a blank variable is no value")
    void environment() {
        Node n = new Node();
        assertEquals(0, run(n, Map.of("PORT", " 8080 ", "ALIASES", "a=1,b=2")));
        assertEquals(8080, n.port);
        assertEquals(List.of("a=1", "b=2"), n.aliases);
        n = new Node();
        assertEquals(0, run(n, Map.of("PORT", "8080", "ALIASES", "a=1"), "--port", "9", "--alias=c=3", "--exit-on-stdin-eof"));
        assertEquals(9, n.port);
        assertEquals(List.of("c=3"), n.aliases);
        assertTrue(n.component.exitOnStdinEof());
        n = new Node();
        assertEquals(0, run(n, Map.of("PORT", "  ")));
        assertEquals(0, n.port);
    }

    @Test
    @DisplayName("a bad variable is reported naming option and variable; a bad variable the command line overrides is never read")
    void badVariable() {
        assertEquals(2, run(new Node(), Map.of("PORT", "http")));
        assertEquals("node: --port (PORT) 'http' is not a whole number", error());
        assertEquals(0, run(new Node(), Map.of("PORT", "http"), "--port", "1"));
    }

    @Test
    @DisplayName("bad input: exit 2 and one line naming the option")
    void badInput() {
        assertEquals(2, run(new Node(), Map.of(), "--port", "70000"));
        assertEquals("node: --port 70000 must be between 0 and 65535", error());
        err.getBuffer().setLength(0);
        assertEquals(2, run(new Node(), Map.of(), "--bogus=1"));
        assertEquals("node: unknown option '--bogus'", error());
        err.getBuffer().setLength(0);
        assertEquals(2, run(new Node(), Map.of(), "--name", "a", "--name", "b"));
        assertEquals("node: --name is given twice", error());
        err.getBuffer().setLength(0);
        assertEquals(2, run(new Node(), Map.of(), "--name"));
        assertEquals("node: --name needs a value", error());
        err.getBuffer().setLength(0);
        assertEquals(2, run(new Node(), Map.of(), "--name", "--port", "1"));
        assertEquals("node: --name needs a value", error());
        err.getBuffer().setLength(0);
        assertEquals(2, run(new Node(), Map.of(), "extra"));
        assertEquals("node: unexpected argument 'extra'", error());
        err.getBuffer().setLength(0);
        assertEquals(2, run(new Tool(), Map.of(), "nodes"));
        assertEquals("tool: unknown command 'nodes' (use node)", error());
        err.getBuffer().setLength(0);
        assertEquals(2, run(new Tool(), Map.of("PORT", "x"), "node"));
        assertEquals("tool node: --port (PORT) 'x' is not a whole number", error());
    }
}
