package dev.meshbench.orchestrator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code meshbench run}'s refusals: each names what is wrong, exits 2, and starts nothing. */
class RunCommandTest {
    @TempDir
    Path root;

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = MeshbenchMain.commandLine();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        String[] all = new String[args.length + 2];
        all[0] = "run";
        all[1] = "--project-root=" + root;
        System.arraycopy(args, 0, all, 2, args.length);
        return cli.execute(all);
    }

    @Test
    @DisplayName("a -D that is not a meshbench setting is refused, naming it")
    void foreignSetting() {
        assertEquals(2, run("--case", "sni", "-Dclients=1,2"));
        assertTrue(err.toString().contains("-Dclients=1,2: not a meshbench setting"), err.toString());
    }

    @Test
    @DisplayName("an unknown case is refused as meshbench:run refuses it, naming the allowed ids; no results folder appears")
    void unknownCase() {
        assertEquals(2, run("--case", "istio"));
        assertTrue(err.toString().contains("meshbench.cases=istio: 'istio' is not a case; allowed: bypass, sidecar, gateway, mtls, sni, all"),
                err.toString());
        assertFalse(Files.exists(root.resolve("results")));
    }

    @Test
    @DisplayName("a bad setting is refused before anything starts, naming the property and the rule")
    void badSetting() {
        assertEquals(2, run("--case", "sni", "-Dmeshbench.stepSeconds=0"));
        assertTrue(err.toString().contains("meshbench.stepSeconds=0: "), err.toString());
        assertFalse(Files.exists(root.resolve("results")));
    }

    @Test
    @DisplayName("one study at a time: --case with --latency is a usage error")
    void oneStudy() {
        assertEquals(2, run("--case", "sni", "--latency"));
        assertTrue(err.toString().contains("mutually exclusive"), err.toString());
    }

    @Test
    @DisplayName("without JMeter laid out under the project root, the run says where it looked and how to get it")
    void noJMeter() {
        assertEquals(2, run("--case", "sni"));
        assertTrue(err.toString().contains(root.resolve("orchestrator/target/config.json") + " does not exist: JMeter is laid out "
                + "when the orchestrator module is packaged"), err.toString());
    }
}
