package dev.meshbench.orchestrator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.CaseIds;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class RenderCommandTest {
    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new RenderCommand());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    void printsTheCasesManifestsWithTheRunsNamespaceAndNoKey() {
        String[] r = run("--case", "mtls", "-Dmeshbench.namespace=perf-3", "-Dmeshbench.flightCache=false");
        assertEquals("0", r[0], r[2]);
        String yaml = r[1];
        assertTrue(yaml.startsWith("# meshbench: case mtls (4. mTLS sidecar <-> egress gateway), istio-config/cases/mtls, 19 resources"), yaml);
        assertTrue(yaml.contains("kind: Gateway") && yaml.contains("mode: ISTIO_MUTUAL") && yaml.contains("name: acmeair-routes"), yaml);
        assertTrue(yaml.contains("name: perf-3") && yaml.contains("namespace: perf-3"), yaml);
        assertTrue(yaml.contains("FLIGHT_CACHE: \"false\""), yaml);
        assertTrue(yaml.contains("private.pem: \"<generated per run, not shown>\""), yaml);
        assertFalse(yaml.contains("BEGIN PRIVATE KEY"), "a key was printed");
    }

    @Test
    void localTargetPrintsTheTopologyPlan() {
        String[] r = run("--case", "sni", "--target", "local", "-Dmeshbench.dataplane=netty");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].startsWith("case sni | data plane netty"), r[1]);
    }

    @Test
    @DisplayName("--help names the case ids EgressCase has")
    void helpNamesTheCases() {
        String[] r = run("--help");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("Case id: " + String.join(", ", CaseIds.ALL) + "."), r[1]);
    }
}
