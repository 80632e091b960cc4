package dev.meshbench.dataplane.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.ReadyLine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DataplaneMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private DataplaneMain.Launch launch(String... args) {
        return DataplaneMain.launch(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    @Test
    @DisplayName("prints a ready line with the admin address and each listener's real port")
    void readyLine() {
        DataplaneMain.Launch l = launch("sidecar", "--name", "sidecar-booking",
                "--listener", "name=mongo,port=0,upstream=127.0.0.1:40123,upstream-name=egress-gateway",
                "--listener", "name=inbound,port=0,upstream=127.0.0.1:8080");
        assertNotNull(l.running(), err.toString());
        try {
            ReadyLine ready = ReadyLine.parse(out.toString(StandardCharsets.UTF_8).trim()).orElseThrow();
            assertEquals("sidecar-booking", ready.component());
            var bound = l.running().addresses();
            assertEquals("127.0.0.1:" + bound.admin().getPort(), ready.get("address").orElseThrow());
            assertEquals("127.0.0.1:" + bound.listener("mongo").getPort(), ready.get("listener.mongo").orElseThrow());
            assertEquals("127.0.0.1:" + bound.listener("inbound").getPort(), ready.get("listener.inbound").orElseThrow());
            assertTrue(bound.listener("mongo").getPort() > 0);
        } finally {
            l.running().close();
        }
    }

    @Test
    @DisplayName("a port already in use exits 2 with one line naming component, listener and port")
    void portInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            DataplaneMain.Launch l = launch("sni-proxy", "--name", "sni-proxy", "--listen-port", String.valueOf(port),
                    "--route", "*=127.0.0.1:1");
            assertNull(l.running());
            assertEquals(2, l.exitCode());
            String line = err.toString(StandardCharsets.UTF_8).trim();
            assertEquals(1, line.lines().count(), line);
            assertTrue(line.startsWith("sni-proxy: binding listener sni to 127.0.0.1:" + port + " failed: "), line);
            assertEquals("", out.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    @DisplayName("bad input exits 2 with one line naming the option; --help exits 0")
    void badInput() {
        DataplaneMain.Launch l = launch("egress-gateway", "--name", "gw", "--mode", "sideways", "--route", "*=127.0.0.1:1");
        assertEquals(2, l.exitCode());
        String line = err.toString(StandardCharsets.UTF_8).trim();
        assertEquals(1, line.lines().count(), line);
        assertTrue(line.startsWith("dataplane egress-gateway: --mode must be sni-passthrough or mtls (got 'sideways')"), line);
        assertEquals(2, launch("proxy").exitCode());
        assertEquals(2, launch().exitCode());
        assertEquals(0, launch("sidecar", "--help").exitCode());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--listener name=N,port=P"));
    }
}
