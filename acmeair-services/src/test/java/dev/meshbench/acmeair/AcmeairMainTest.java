package dev.meshbench.acmeair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

@DisplayName("acmeair-services command line")
class AcmeairMainTest {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    int run(String... args) {
        CommandLine cli = AcmeairMain.commandLine(Map.of());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    String errorLine() {
        String text = err.toString().strip();
        assertEquals(1, text.lines().count(), text);
        return text;
    }

    @Test
    @DisplayName("bad input of any command: exit 2, one line naming the command and the option")
    void badInput() {
        assertEquals(2, run("payments"));
        assertEquals("acmeair-services: reading options failed: unknown command 'payments' (use auth, customer, flight, booking, all, "
                + "jwt-keys, graph-node)", errorLine());
        err.getBuffer().setLength(0);
        assertEquals(2, run("all", "--base-port", "80"));
        assertEquals("all: reading options failed: --base-port 80 must be 0 or from 1024 to 65530", errorLine());
        err.getBuffer().setLength(0);
        assertEquals(2, run("all", "--flight-cache", "maybe"));
        assertEquals("all: reading options failed: --flight-cache 'maybe' must be true or false", errorLine());
        err.getBuffer().setLength(0);
        assertEquals(2, run("jwt-keys"));
        assertEquals("jwt-keys: reading options failed: --dir is required", errorLine());
        err.getBuffer().setLength(0);
        assertEquals(2, run());
        assertTrue(err.toString().contains("graph-node"), err.toString());
    }

    @Test
    @DisplayName("help names every command, and a service's help its environment variables")
    void help() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString().contains("booking") && out.toString().contains("graph-node"), out.toString());
        out.getBuffer().setLength(0);
        assertEquals(0, run("booking", "--help"));
        for (String variable : new String[] {"BIND_HOST", "PORT", "MONGO_URI", "MONGO_HOST_ALIASES", "JWT_PUBLIC_KEY", "ADDED_LATENCY_MS"}) {
            assertTrue(out.toString().contains(variable), variable + " in " + out);
        }
        out.getBuffer().setLength(0);
        assertEquals(0, run("help", "graph-node"));
        assertTrue(out.toString().contains("GRAPH_FILE"), out.toString());
    }
}
