package dev.meshbench.mongo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.ReadyLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@DisplayName("EmbeddedMongoMain")
class EmbeddedMongoMainTest {
    @TempDir
    Path dir;

    @Test
    @DisplayName("runs as its own process: prints the ready line, writes the CA and exits when stdin closes")
    void runsAsProcess() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), EmbeddedMongoMain.class.getName(),
                "--host", "127.0.0.1", "--port", "0", "--dir", dir.toString(), "--server-name", "mongo.meshbench.test",
                "--exit-on-stdin-eof").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            ReadyLine ready = null;
            for (String line; ready == null && (line = out.readLine()) != null; ) {
                ready = ReadyLine.parse(line).orElse(null);
            }
            assertTrue(ready != null, "no ready line before the process ended");
            assertEquals("mongo", ready.component());
            assertTrue(ready.get("address").orElseThrow().matches("127\\.0\\.0\\.1:[1-9][0-9]*"), ready.toString());
            assertEquals(dir.resolve("mongo-ca.pem").toAbsolutePath().toString(), ready.get("ca").orElseThrow());
            assertEquals("mongo.meshbench.test", ready.get("server-name").orElseThrow());
            assertTrue(Files.readString(dir.resolve("mongo-ca.pem")).contains("BEGIN CERTIFICATE"));

            p.getOutputStream().close();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "process did not exit after stdin closed");
            assertEquals(0, p.exitValue());
        } finally {
            p.destroyForcibly();
        }
    }

    /** Runs the command line in this JVM; every case here is refused before anything starts. */
    static String refused(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = EmbeddedMongoMain.commandLine(new EmbeddedMongoMain(), Map.of());
        cli.setErr(new PrintWriter(err, true));
        assertEquals(2, cli.execute(args), err.toString());
        assertEquals(1, err.toString().lines().count(), err.toString());
        return err.toString().strip();
    }

    @Test
    @DisplayName("rejects missing --dir and a bad port, naming the option")
    void rejectsBadArguments() {
        String noDir = refused();
        assertTrue(noDir.contains("--dir"), noDir);
        String badPort = refused("--dir", "x", "--port", "70000");
        assertTrue(badPort.contains("70000"), badPort);
        String badName = refused("--dir", "x", "--server-name", "under_score");
        assertTrue(badName.contains("under_score"), badName);
        String unknown = refused("--dir", "x", "--verbose");
        assertTrue(unknown.contains("--verbose"), unknown);
    }

    @Test
    @DisplayName("--help prints the options and the ready line, and exits 0")
    void help() {
        StringWriter out = new StringWriter();
        CommandLine cli = EmbeddedMongoMain.commandLine(new EmbeddedMongoMain(), Map.of());
        cli.setOut(new PrintWriter(out, true));
        assertEquals(0, cli.execute("--help"));
        assertTrue(out.toString().contains("--server-name=NAME"), out.toString());
        assertTrue(out.toString().contains("MESHBENCH-READY component=mongo"), out.toString());
    }

    @Test
    @DisplayName("exits with code 2 and one stderr line when it cannot start")
    void failsWithExitCode2() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), EmbeddedMongoMain.class.getName(),
                "--port", "not-a-port", "--dir", dir.toString()).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue());
        List<String> lines = err.lines().toList();
        assertEquals(1, lines.size(), err);
        assertTrue(lines.get(0).startsWith("mongo: reading arguments failed: --port 'not-a-port' is not a whole number"), err);
    }
}
