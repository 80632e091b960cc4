package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.component.MeshNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.model.ComponentNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real nginx ({@code -Dmeshbench.nginx.binary} or {@code nginx} on PATH or in /usr/sbin, with the stream module)
 * with the rendered SNI proxy config. Skipped, with the reason, when there is no such nginx. Every nginx started here
 * listens on a free loopback port and is stopped, with its workers, before the test ends.
 */
class NginxConfigTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String render(TopologyPlan plan, LocalAddresses addrs, Path dir, Path nginx) {
        return NginxConfigRenderer.render(plan, plan.component(ComponentNames.SNI_PROXY), addrs, dir, 2, NginxModules.streamModule(nginx));
    }

    @Test
    @DisplayName("nginx -t accepts case sni's SNI proxy config")
    void configTest(@TempDir Path dir) throws Exception {
        Path nginx = EnvoyFixtures.nginxOrSkip();
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, true);
        Path conf = dir.resolve("sni-proxy.nginx.conf");
        Files.writeString(conf, render(plan, EnvoyFixtures.fixedAddresses(plan), dir, nginx), StandardCharsets.UTF_8);
        List<String> cmd = new ArrayList<>(List.of(nginx.toString()));
        cmd.addAll(NginxCommand.testArgs(conf, dir));
        EnvoyFixtures.Finished r = EnvoyFixtures.runToEnd(cmd, Duration.ofSeconds(30));
        assertEquals(0, r.exitCode(), r.output());
    }

    @Test
    @DisplayName("the installed nginx's version reads like 'nginx 1.22.1'")
    void version() {
        Path nginx = EnvoyFixtures.nginxOrSkip();
        assertTrue(NativeBinaries.nginxVersion(nginx).matches("nginx \\d+\\.\\d+\\.\\d+"), NativeBinaries.nginxVersion(nginx));
    }

    @Test
    @DisplayName("forwards a ClientHello for a *.meshbench.test name to MongoDB and refuses an unknown one without connecting")
    void routesAndRefuses(@TempDir Path dir) throws Exception {
        Path nginx = EnvoyFixtures.nginxOrSkip();
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, true);
        ComponentPlan sni = plan.component(ComponentNames.SNI_PROXY);
        try (EnvoyFixtures.EchoServer mongo = new EnvoyFixtures.EchoServer(0)) {
            LocalAddresses addrs = EnvoyFixtures.withPort(EnvoyFixtures.freeAddresses(plan), new Endpoint("mongo", "mongo"), mongo.port());
            Path conf = dir.resolve("sni-proxy.nginx.conf");
            Files.writeString(conf, render(plan, addrs, dir, nginx), StandardCharsets.UTF_8);
            List<String> cmd = new ArrayList<>(List.of(nginx.toString()));
            cmd.addAll(NginxCommand.args(conf, dir));
            Path errorLog = dir.resolve("sni-proxy.log");
            Path accessLog = NginxConfigRenderer.accessLog(dir);
            int port = addrs.port(sni.name(), "sni");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(errorLog.toFile()).start();
            List<ProcessHandle> family = new ArrayList<>();
            try {
                assertTrue(EnvoyFixtures.await(Duration.ofSeconds(15), () -> !p.isAlive() || EnvoyFixtures.listening(port)),
                        "nginx did not listen: " + Files.readString(errorLog));
                assertTrue(p.isAlive(), "nginx exited: " + Files.readString(errorLog));
                assertTrue(Files.exists(NginxConfigRenderer.pidFile(dir)), "the pid file is in the work folder");
                // The probe above is a session too: it closes before sending anything, which nginx logs as status 200
                // with no upstream, and which counts as no refusal (the local target's readiness check does the same).
                assertTrue(EnvoyFixtures.await(Duration.ofSeconds(10), () -> lines(accessLog).size() == 1), "probe logged");

                EnvoyFixtures.sendClientHello(port, MeshNames.MONGO_HOST);
                EnvoyFixtures.sendClientHello(port, "unknown.example");
                assertTrue(EnvoyFixtures.await(Duration.ofSeconds(10), () -> lines(accessLog).size() == 3), "sessions logged: " + lines(accessLog));
                family.addAll(p.descendants().toList());
                assertFalse(family.isEmpty(), "nginx runs worker processes");

                List<String> sessions = lines(accessLog);
                String routed = sessions.stream().filter(l -> l.contains(" mongo.meshbench.test ")).findFirst().orElseThrow();
                String refused = sessions.stream().filter(l -> l.contains(" unknown.example ")).findFirst().orElseThrow();
                String[] r = routed.split(" ", -1);
                assertEquals("200", r[2], routed);
                assertEquals("127.0.0.1:" + mongo.port(), r[5], routed);
                assertTrue(Long.parseLong(r[3]) > 0, "the ClientHello was forwarded: " + routed);
                String[] u = refused.split(" ", -1);
                assertEquals("500", u[2], refused);
                assertEquals("-", u[5], "no upstream for an unknown name: " + refused);
                assertEquals("0", u[3], refused);
                assertEquals(1, mongo.accepted.get(), "only the known name reached MongoDB");

                JsonNode hop = JSON.readTree(NginxStatsReader.hopJson(sni, addrs, accessLog, errorLog)).at("/listeners/sni");
                assertEquals(3, hop.path("accepted").asLong(), hop.toString());
                assertEquals(1, hop.at("/refused/sni").asLong(), "the unknown name only, not the probe: " + hop);
                assertEquals(2, hop.at("/nginx/statuses/200").asLong(), "the probe and the routed session: " + hop);
                assertEquals(0, hop.at("/refused/upstreamConnect").asLong(), hop.toString());
                assertEquals(3, hop.at("/nginx/connected").asLong(), hop.toString());
                assertEquals(1, hop.at("/nginx/upstreamConnected").asLong(), hop.toString());
                assertEquals(0, hop.path("active").asLong(), hop.toString());
            } finally {
                family.addAll(p.descendants().toList());
                assertTrue(EnvoyFixtures.stop(p), "nginx stopped");
            }
            for (ProcessHandle h : family) {
                assertFalse(h.isAlive(), "nginx worker " + h.pid() + " still running");
            }
            assertFalse(Files.exists(NginxConfigRenderer.pidFile(dir)), "nginx removed its pid file on a clean stop");
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList() : List.of();
        } catch (java.io.IOException e) {
            return List.of();
        }
    }
}
