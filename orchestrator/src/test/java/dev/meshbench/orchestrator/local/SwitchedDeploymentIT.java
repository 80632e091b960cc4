package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.AcmeairApi;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.Switch;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.run.PathProof;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One deployment switched through every case and back, as real processes on loopback: after each switch a real
 * Acmeair session's MongoDB traffic takes exactly the new case's hops (the proxies' own counters, {@link PathProof}),
 * the egress gateway and SNI proxy run only while the case uses them, every service's MongoDB client names where it
 * connects, and the services and MongoDB are the same processes throughout. A proxy that does not take its new
 * configuration (stopped with SIGSTOP, as a proxy that hangs) fails the switch, naming it.
 */
class SwitchedDeploymentIT {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final List<EgressCase> ROUND = List.of(EgressCase.SIDECAR, EgressCase.GATEWAY, EgressCase.MTLS, EgressCase.SNI,
            EgressCase.BYPASS, EgressCase.SNI, EgressCase.SIDECAR);

    @TempDir
    Path logs;

    @AfterEach
    void nothingLeftRunning() throws InterruptedException {
        ChildProcesses.assertNoneLeft();
    }

    private static LocalDeployment deploy(DataPlane plane, Path logs, Duration timeout) {
        LocalTarget target = new LocalTarget(new LocalTargetSettings(ComponentJars.inBuildTree(ROOT), timeout, 200, 2,
                DataPlanes.of(plane, true)));
        return target.deploy(EgressCase.BYPASS, List.of(EgressCase.values()), logs);
    }

    private static Set<String> names(LocalDeployment d) {
        return d.components().stream().map(Component::name).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Where each service's MongoDB client connects now, as the service itself says ({@code GET /admin/mongo}). */
    private static Map<String, String> mongoClients(LocalDeployment d) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        Map<String, String> out = new java.util.TreeMap<>();
        for (String svc : ComponentNames.SERVICES) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(d.serviceAdmin().service(svc).resolve(AcmeairApi.MONGO_SWITCH_PATH))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), svc + ": " + r.body());
            out.put(svc, AcmeairSession.JSON.readTree(r.body()).path("uri").asText());
        }
        return out;
    }

    @ParameterizedTest(name = "{0}: every case switched in underneath the same services, each path proven from the proxies' counters")
    @EnumSource(DataPlane.class)
    void switchesThroughEveryCase(DataPlane plane) throws Exception {
        try (LocalDeployment d = deploy(plane, logs, Duration.ofSeconds(90))) {
            d.awaitReady(Duration.ofMinutes(2));
            Map<String, Long> pids = new java.util.TreeMap<>();
            d.sampleResources().stream().filter(s -> !s.component().role().equals(dev.meshbench.results.ComponentRole.MESH))
                    .forEach(s -> pids.put(s.component().name(), s.pid()));
            assertEquals(5, pids.size(), "MongoDB and the four services: " + pids);
            int mongoPort = d.addresses().port(ComponentNames.MONGO, "mongo");
            new AcmeairSession(d.endpoints()).bookOneFlight("uid11@email.com");
            List<String> switches = new ArrayList<>();
            Long gatewayPid = null;
            for (EgressCase c : ROUND) {
                Switch s = d.apply(c);
                switches.add(c.id() + " " + s.seconds() + " s");
                // gateway, mtls and sni change the egress gateway's mode: while it runs, on either data plane
                java.util.Optional<Long> gateway = d.sampleResources().stream().filter(x -> x.component().name().equals("egress-gateway"))
                        .map(dev.meshbench.orchestrator.deploy.ResourceSample::pid).findFirst();
                if (gatewayPid != null && gateway.isPresent()) {
                    assertEquals(gatewayPid, gateway.get(), c.id() + ": the egress gateway reconfigured, not restarted: " + s.done());
                    assertFalse(s.cold().contains("egress-gateway"), c.id() + ": no cold egress gateway to warm up again");
                }
                gatewayPid = gateway.orElse(null);
                assertEquals(c, d.egressCase());
                assertEquals(c.passes(HopKind.EGRESS_GATEWAY), names(d).contains("egress-gateway"), c.id() + ": " + names(d));
                assertEquals(c.passes(HopKind.SNI_PROXY), names(d).contains("sni-proxy"), c.id() + ": " + names(d));
                for (Map.Entry<String, String> m : mongoClients(d).entrySet()) {
                    int port = URI.create(m.getValue().replace("mongodb://", "http://")).getPort();
                    assertEquals(c == EgressCase.BYPASS, port == mongoPort, c.id() + ": " + m);
                    if (c != EgressCase.BYPASS) {
                        assertEquals(d.addresses().port(ComponentNames.sidecarOf(m.getKey()), "mongo"), port, c.id() + ": " + m);
                    }
                }
                Map<String, String> before = d.hopStats();
                new AcmeairSession(d.endpoints()).bookOneFlight("uid12@email.com");
                Map<String, String> after = d.hopStats();
                assertEquals(List.of(), PathProof.gaps(c, before, after), c.id() + " after the switch from " + s.from().id());
            }
            Map<String, Long> pidsAfter = new java.util.TreeMap<>();
            d.sampleResources().stream().filter(s -> !s.component().role().equals(dev.meshbench.results.ComponentRole.MESH))
                    .forEach(s -> pidsAfter.put(s.component().name(), s.pid()));
            assertEquals(pids, pidsAfter, "MongoDB and the services never restarted: " + switches);
            assertTrue(d.failure().isEmpty(), d.failure().toString());
        }
    }

    @ParameterizedTest(name = "{0}: a sidecar that does not take its new configuration fails the switch, named")
    @EnumSource(DataPlane.class)
    void staleProxyIsDetected(DataPlane plane) throws Exception {
        try (LocalDeployment d = deploy(plane, logs, Duration.ofSeconds(90))) {
            d.awaitReady(Duration.ofMinutes(2));
            long pid = d.sampleResources().stream().filter(s -> s.component().name().equals("sidecar-booking")).findFirst().orElseThrow().pid();
            ProcessHandle.of(pid).orElseThrow();
            new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
            try {
                TargetException e = assertThrows(TargetException.class, () -> d.apply(EgressCase.SIDECAR, Duration.ofSeconds(8)));
                assertTrue(e.getMessage().contains("sidecar-booking"), e.getMessage());
            } finally {
                new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor();
            }
            assertFalse(d.egressCase() == EgressCase.SIDECAR, "a switch that failed does not claim its case");
        }
    }
}
