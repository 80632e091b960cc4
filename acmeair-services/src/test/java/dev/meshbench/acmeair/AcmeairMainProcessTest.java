package dev.meshbench.acmeair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.http.Json;
import dev.meshbench.acmeair.security.JwtKeys;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.component.testing.ClosedPort;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("acmeair-services as a process")
class AcmeairMainProcessTest {
    @TempDir
    Path dir;

    static Process launch(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), AcmeairMain.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    @Test
    @DisplayName("a service prints its ready line even when MongoDB is unreachable, reports 503 naming it, and exits when stdin closes")
    void serviceProcess() throws Exception {
        // Held, not listening, until the service process is gone: its MongoDB port must stay refused.
        ClosedPort nobody = new ClosedPort();
        int closed = nobody.port();
        JwtKeys.KeyFiles keys = JwtKeys.generate(dir);
        Process p = launch(List.of("customer", "--port", "0", "--mongo-uri", "mongodb://mongo.meshbench.test:" + closed + "/?tls=true",
                "--mongo-host-alias", "mongo.meshbench.test=127.0.0.1", "--mongo-timeout-ms", "1000",
                "--jwt-public-key", keys.publicKey().toString(), "--exit-on-stdin-eof"));
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            ReadyLine ready = null;
            for (String line; ready == null && (line = out.readLine()) != null; ) {
                ready = ReadyLine.parse(line).orElse(null);
            }
            assertNotNull(ready, "no ready line");
            assertEquals("customer", ready.component());
            assertEquals("/metrics", ready.get("metrics").orElseThrow());
            assertEquals("/customer/ready", ready.get("ready").orElseThrow());
            String base = "http://" + ready.get("address").orElseThrow();
            HttpResponse<String> r = Http.get(base + "/customer/ready");
            assertEquals(503, r.statusCode(), r.body());
            JsonNode body = Json.MAPPER.readTree(r.body());
            assertTrue(body.get("detail").asText().contains("mongo.meshbench.test:" + closed), r.body());
            assertEquals(200, Http.get(base + "/metrics").statusCode());

            p.getOutputStream().close();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "did not exit after stdin closed");
            assertEquals(0, p.exitValue());
        } finally {
            p.destroyForcibly();
            nobody.close();
        }
    }

    @Test
    @DisplayName("bad options end the process with code 2 and one line naming what is missing")
    void badOptions() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), AcmeairMain.class.getName(), "booking", "--port", "0"));
        Process p = new ProcessBuilder(cmd).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue(), err);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("booking: reading options failed: the booking service needs --mongo-uri (MONGO_URI)"), err);
    }
}
