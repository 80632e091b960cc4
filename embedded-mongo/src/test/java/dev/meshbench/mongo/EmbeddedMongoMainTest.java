package dev.meshbench.mongo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.ReadyLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    @DisplayName("rejects missing --dir and a bad port, naming the option")
    void rejectsBadArguments() {
        IllegalArgumentException noDir = assertThrows(IllegalArgumentException.class, () -> EmbeddedMongoMain.parse(new String[0]));
        assertTrue(noDir.getMessage().contains("--dir"), noDir.getMessage());
        IllegalArgumentException badPort = assertThrows(IllegalArgumentException.class,
                () -> EmbeddedMongoMain.parse(new String[] {"--dir", "x", "--port", "70000"}));
        assertTrue(badPort.getMessage().contains("70000"), badPort.getMessage());
        IllegalArgumentException badName = assertThrows(IllegalArgumentException.class,
                () -> EmbeddedMongoMain.parse(new String[] {"--dir", "x", "--server-name", "under_score"}));
        assertTrue(badName.getMessage().contains("under_score"), badName.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> EmbeddedMongoMain.parse(new String[] {"--dir", "x", "--verbose"}));
        assertTrue(unknown.getMessage().contains("--verbose"), unknown.getMessage());
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
        assertTrue(lines.get(0).startsWith("mongo: reading arguments failed: --port 'not-a-port' is not a number"), err);
    }
}
