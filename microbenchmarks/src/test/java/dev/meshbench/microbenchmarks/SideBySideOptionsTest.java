package dev.meshbench.microbenchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.microbenchmarks.SideBySide.Options;
import dev.meshbench.microbenchmarks.SideBySide.OptionsCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@link SideBySide}'s command line, read in this JVM; nothing here starts a proxy or sends load. */
@DisplayName("SideBySide options")
class SideBySideOptionsTest {
    /** The options a good command line gives; nothing on stderr. */
    private static Options parsed(String... args) {
        OptionsCommand command = new OptionsCommand();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = SideBySide.commandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        assertEquals(0, cli.execute(args), err.toString());
        assertEquals("", err.toString());
        assertEquals("", out.toString());
        return command.options;
    }

    /** The one error line of a refused command line (exit 2, no options). */
    private static String refused(String... args) {
        OptionsCommand command = new OptionsCommand();
        StringWriter err = new StringWriter();
        CommandLine cli = SideBySide.commandLine(command);
        cli.setErr(new PrintWriter(err, true));
        assertEquals(2, cli.execute(args), err.toString());
        assertNull(command.options);
        assertEquals(1, err.toString().lines().count(), err.toString());
        String line = err.toString().strip();
        assertTrue(line.startsWith("side-by-side: ") && line.endsWith(" (see --help)"), line);
        return line;
    }

    @Test
    @DisplayName("without options: the defaults")
    void defaults() {
        assertEquals(new Options(64, 10, 5, 4, 5, List.of(), Optional.empty()), parsed());
    }

    @Test
    @DisplayName("reads every option, long and short names")
    void everyOption() {
        Options o = parsed("--connections", "8", "--seconds", "3", "--warmup", "0", "--client-warmup", "2",
                "--netty-threads", "2", "--rows", "direct", "--dataplane-jar", "x/dataplane.jar");
        assertEquals(new Options(8, 3, 0, 2, 2, List.of("direct"), Optional.of(Path.of("x/dataplane.jar"))), o);
        Options shortNames = parsed("-c", "16", "-t", "20");
        assertEquals(16, shortNames.connections());
        assertEquals(20, shortNames.seconds());
        assertEquals(7, parsed("--warmup=7").warmupSeconds());
    }

    @Test
    @DisplayName("--rows splits at commas and adds up over repeats, in order, repeats kept")
    void rows() {
        assertEquals(List.of("a", "b", "c"), parsed("--rows", "a,b", "--rows", "c").rows());
        assertEquals(List.of("direct", "netty-tcp-1t", "direct"), parsed("--rows", "direct,netty-tcp-1t,direct").rows());
    }

    @Test
    @DisplayName("an unknown option is refused, naming it")
    void unknownOption() {
        assertEquals("side-by-side: unknown option '--verbose' (see --help)", refused("--seconds", "3", "--verbose"));
        assertTrue(refused("--rate=100").contains("'--rate'"));
    }

    @Test
    @DisplayName("a value that is not a whole number is refused, naming the option and the value")
    void notANumber() {
        assertEquals("side-by-side: --seconds 'x' is not a whole number (see --help)", refused("--seconds", "x"));
        String shortName = refused("-c", "1.5");
        assertTrue(shortName.contains("--connections") && shortName.contains("'1.5'"), shortName);
    }

    @Test
    @DisplayName("values out of range are refused, naming the option and the value")
    void outOfRange() {
        assertEquals("side-by-side: --warmup (-1) must be 0 or more (see --help)", refused("--warmup", "-1"));
        assertEquals("side-by-side: --client-warmup (-2) must be 0 or more (see --help)", refused("--client-warmup", "-2"));
        assertEquals("side-by-side: --connections (0) must be at least 1 (see --help)", refused("--connections", "0"));
        assertEquals("side-by-side: --seconds (0) must be at least 1 (see --help)", refused("-t", "0"));
        assertEquals("side-by-side: --netty-threads (0) must be at least 1 (see --help)", refused("--netty-threads", "0"));
    }

    @Test
    @DisplayName("an option without its value is refused, naming it")
    void missingValue() {
        assertEquals("side-by-side: --seconds needs a value (see --help)", refused("--seconds"));
    }

    @Test
    @DisplayName("--help prints every option with its default and the Envoy note on stdout, and exits 0")
    void help() {
        for (String flag : List.of("--help", "-h")) {
            OptionsCommand command = new OptionsCommand();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cli = SideBySide.commandLine(command);
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            assertEquals(0, cli.execute("--seconds", "3", flag), err.toString());
            assertNull(command.options, "--help runs nothing");
            assertEquals("", err.toString());
            String help = out.toString();
            assertTrue(help.contains("java -cp microbenchmarks/target/benchmarks.jar dev.meshbench.microbenchmarks.SideBySide"), help);
            assertTrue(help.contains("--rows=ROW[,ROW...]"), help);
            for (String option : List.of("--connections", "-c", "--seconds", "-t", "--warmup", "--client-warmup", "--netty-threads",
                    "--rows", "--dataplane-jar", "--help")) {
                assertTrue(help.contains(option), option + " missing in:\n" + help);
            }
            for (String text : List.of("closed loop (default 64)", "Measured seconds per row (default 10)",
                    "warms the proxies' JIT", "this JVM's JIT compiler", "netty-tcp-Nt (default 4)",
                    "a row may repeat", "-Dmeshbench.dataplane.jar, else dataplane/target/dataplane.jar")) {
                assertTrue(help.contains(text), "'" + text + "' missing in:\n" + help);
            }
            assertTrue(help.contains("Envoy: -Dmeshbench.envoy.binary=/path/to/envoy, else 'envoy' on PATH; without it the envoy rows are skipped."),
                    help);
        }
    }
}
