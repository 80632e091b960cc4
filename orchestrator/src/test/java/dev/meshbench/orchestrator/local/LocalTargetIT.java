package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.component.MeshNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.orchestrator.local.envoynginx.NginxConfigRenderer;
import dev.meshbench.orchestrator.local.envoynginx.NginxStatsReader;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.ComponentRole;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case as real processes on loopback: a real Acmeair session drives MongoDB traffic, and the per-hop
 * counters prove it took exactly the case's hops. Needs the packaged component jars (runs under failsafe).
 */
class LocalTargetIT {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final List<String> SERVICES = ComponentNames.SERVICES;

    @TempDir
    Path logs;

    private static LocalTarget target(ComponentJars jars) {
        return target(jars, DataPlanes.of(DataPlane.NETTY, true));
    }

    private static LocalTarget target(ComponentJars jars, LocalDataPlane dataPlane) {
        return new LocalTarget(new LocalTargetSettings(jars, Duration.ofSeconds(90), 200, 2, dataPlane));
    }

    static Stream<Arguments> casesOnEachDataPlane() {
        return Stream.of(DataPlane.values()).flatMap(d -> Stream.of(EgressCase.values()).map(c -> Arguments.of(d, c)));
    }

    @AfterEach
    void nothingLeftRunning() throws InterruptedException {
        ChildProcesses.assertNoneLeft();
    }

    @ParameterizedTest(name = "{0}, case {1}: MongoDB traffic takes exactly the case's hops, sidecars speak mTLS")
    @MethodSource("casesOnEachDataPlane")
    void trafficTakesTheCaseHops(DataPlane plane, EgressCase c) throws Exception {
        LocalAddresses addresses;
        TopologyPlan plan;
        LocalTarget target = target(ComponentJars.inBuildTree(ROOT), DataPlanes.of(plane, true));
        try (LocalDeployment d = target.deploy(c, logs)) {
            d.awaitReady(Duration.ofMinutes(2));
            addresses = d.addresses();
            plan = d.plan();
            // The Netty relays pick BoringSSL (netty-tcnative, linux x86_64) and say so; Envoy's is BoringSSL anyway.
            assertEquals("BoringSSL", d.dataPlane(target.dataPlane()).tlsProvider());
            assertEquals(expectedComponents(c), d.components().stream().map(Component::name).collect(Collectors.toSet()));

            Map<String, JsonNode> before = stats(d);
            new AcmeairSession(d.endpoints()).bookOneFlight("uid7@email.com");
            // Booking adds the reward miles after answering (as the original Acmeair): wait for its calls to flight.
            Map<String, JsonNode> after = stats(d);
            for (int i = 0; i < 40 && !grew(before, after, "sidecar-flight", "inbound-mesh", "bytesClientToUpstream"); i++) {
                Thread.sleep(250);
                after = stats(d);
            }

            for (String svc : SERVICES) {
                String sidecar = "sidecar-" + svc;
                assertTrue(grew(before, after, sidecar, "inbound", "bytesClientToUpstream"), svc + "'s HTTP must enter through " + sidecar);
                boolean hasMongoListener = after.get(sidecar).path("listeners").has("mongo");
                assertEquals(c.passes(HopKind.SIDECAR), hasMongoListener, sidecar + " carries MongoDB traffic only when the case says so");
                if (hasMongoListener) {
                    assertEquals(c.meshMtls() ? "mtls-originate" : "none", after.get(sidecar).at("/listeners/mongo/tls").asText());
                }
            }
            // Each request above touched these services' databases, so their MongoDB hops must have carried bytes.
            for (String svc : List.of("customer", "flight", "booking")) {
                if (c.passes(HopKind.SIDECAR)) {
                    assertTrue(grew(before, after, "sidecar-" + svc, "mongo", "bytesClientToUpstream"), svc + "'s MongoDB bytes through its sidecar");
                }
            }
            assertTrue(grew(before, after, "sidecar-auth", "to-customer", "bytesClientToUpstream"), "auth calls customer through its sidecar");
            assertTrue(grew(before, after, "sidecar-booking", "to-flight", "bytesClientToUpstream"), "booking calls flight through its sidecar");
            // Sidecar to sidecar is mutual TLS: the caller originates it, the callee's mesh listener terminates it.
            assertEquals("mtls-originate", after.get("sidecar-booking").at("/listeners/to-flight/tls").asText());
            assertEquals("mtls-terminate", after.get("sidecar-flight").at("/listeners/inbound-mesh/tls").asText());
            assertTrue(grew(before, after, "sidecar-flight", "inbound-mesh", "bytesClientToUpstream"), "booking's calls arrive over mTLS");
            if (plane == DataPlane.ENVOY) {
                assertTrue(after.get("sidecar-flight").at("/listeners/inbound-mesh/envoy/listener.inbound-mesh.ssl.handshake").asLong() > 0,
                        "Envoy completed TLS handshakes on the mesh listener: " + after.get("sidecar-flight"));
            }
            assertEquals(c.passes(HopKind.EGRESS_GATEWAY), after.containsKey("egress-gateway"));
            if (c.passes(HopKind.EGRESS_GATEWAY)) {
                assertTrue(grew(before, after, "egress-gateway", "egress", "bytesClientToUpstream"), "MongoDB bytes through the gateway");
                assertEquals(c.meshMtls() ? "mtls-terminate" : "none", after.get("egress-gateway").at("/listeners/egress/tls").asText());
            }
            assertEquals(c.passes(HopKind.SNI_PROXY), after.containsKey("sni-proxy"));
            if (c.passes(HopKind.SNI_PROXY) && plane == DataPlane.NETTY) {
                assertTrue(grew(before, after, "sni-proxy", "sni", "bytesClientToUpstream"), "MongoDB bytes through the SNI proxy");
            }
            for (JsonNode component : after.values()) {
                component.path("listeners").forEach(l -> l.path("refused").forEach(n -> assertEquals(0, n.asLong(), component.toString())));
            }
            // Every request entered through the one entry, which routed it by path to the service's sidecar.
            URI entry = d.endpoints().entry().orElseThrow(() -> new AssertionError("no entry: " + d.endpoints()));
            SERVICES.forEach(svc -> assertEquals(entry, d.endpoints().service(svc)));
            JsonNode in = after.get("ingress-gateway").at("/listeners/ingress");
            JsonNode inBefore = before.get("ingress-gateway").at("/listeners/ingress");
            long sent = in.path("requests").asLong() - inBefore.path("requests").asLong();
            assertTrue(sent > 0, "requests through the entry: " + in);
            assertEquals(sent, in.at("/responses/2xx").asLong() - inBefore.at("/responses/2xx").asLong(), in.toString());
            assertEquals(0, in.path("noRoute").asLong() + in.path("upstreamUnavailable").asLong(), in.toString());
            for (String svc : List.of("auth", "flight", "booking")) {
                assertTrue(in.at("/upstreamPools/sidecar-" + svc + "/requestsSent").asLong() > inBefore.at("/upstreamPools/sidecar-" + svc + "/requestsSent").asLong(),
                        "the entry sent " + svc + "'s requests to its sidecar: " + in);
            }

            // The kit loaded the database at each service's own port: the entry does not route the loaders.
            SERVICES.forEach(svc -> assertTrue(!d.serviceAdmin().service(svc).equals(entry), svc + "'s admin endpoint is the entry"));
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            for (String loader : List.of("/customer/loader/load?numCustomers=1", "/flight/loader/load?numDays=1", "/booking/loader/load?reset=true")) {
                java.net.http.HttpResponse<String> r = client.send(java.net.http.HttpRequest.newBuilder(entry.resolve(loader)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(404, r.statusCode(), "GET " + loader + " through the entry: " + r.body());
            }
            // A 2 MiB chunked body (no Content-Length) is refused as too large, by the entry or the service.
            byte[] big = ("login=" + "a".repeat(2 * 1024 * 1024) + "&password=password").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            java.net.http.HttpResponse<String> tooLarge = client.send(java.net.http.HttpRequest.newBuilder(entry.resolve("/auth/login"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big))).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(413, tooLarge.statusCode(), tooLarge.body());

            List<ResourceSample> samples = d.sampleResources();
            assertEquals(d.components().size(), samples.size(), "one CPU sample per component");
            assertTrue(samples.stream().allMatch(s -> s.cpuMillis() >= 0 && s.pid() > 0), samples.toString());
            // JVMs always have spent CPU by now; nginx's worker may not have reached a 10 ms clock tick in this short test.
            assertTrue(samples.stream().filter(s -> s.component().role() != ComponentRole.MESH).allMatch(s -> s.cpuMillis() > 0),
                    samples.toString());
            assertTrue(d.failure().isEmpty());
        }
        if (c.passes(HopKind.SNI_PROXY) && plane == DataPlane.ENVOY) {
            // nginx logs a session's bytes when it closes: after teardown every MongoDB session shows.
            JsonNode sni = AcmeairSession.JSON.readTree(NginxStatsReader.hopJson(
                    plan.component("sni-proxy"),
                    addresses, NginxConfigRenderer.accessLog(logs), logs.resolve("sni-proxy.log")));
            assertTrue(sni.at("/listeners/sni/bytesClientToUpstream").asLong() > 0, "MongoDB bytes through nginx: " + sni);
            assertEquals(0, sni.at("/listeners/sni/refused/sni").asLong(), sni.toString());
        }
    }

    @ParameterizedTest(name = "{0}: the egress gateway refuses a client without a mesh certificate, and counts it")
    @EnumSource(DataPlane.class)
    void gatewayRefusesClientWithoutMeshCertificate(DataPlane plane) throws Exception {
        try (LocalDeployment d = target(ComponentJars.inBuildTree(ROOT), DataPlanes.of(plane, true)).deploy(EgressCase.MTLS, logs)) {
            int port = d.addresses().port("egress-gateway", "egress");
            long refusedBefore = refusedTls(d, "egress-gateway", "egress");
            // Trusts the mesh CA (the gateway's certificate verifies), but presents no certificate of its own.
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance("PKIX");
            java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            try (var in = Files.newInputStream(d.meshCaPem())) {
                ks.setCertificateEntry("mesh-ca", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            tmf.init(ks);
            javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
                javax.net.ssl.SSLParameters p = s.getSSLParameters();
                p.setServerNames(List.of(new javax.net.ssl.SNIHostName(MeshNames.MONGO_HOST)));
                s.setSSLParameters(p);
                s.setSoTimeout(5000);
                assertThrows(IOException.class, () -> {
                    s.startHandshake();
                    s.getOutputStream().write(1);
                    s.getOutputStream().flush();
                    if (s.getInputStream().read() < 0) {
                        throw new IOException("closed by the gateway");
                    }
                });
            }
            for (int i = 0; i < 50 && refusedTls(d, "egress-gateway", "egress") <= refusedBefore; i++) {
                Thread.sleep(100);
            }
            assertTrue(refusedTls(d, "egress-gateway", "egress") > refusedBefore, d.stats("egress-gateway"));
        }
    }

    private static long refusedTls(LocalDeployment d, String component, String listener) throws IOException {
        return AcmeairSession.JSON.readTree(d.stats(component)).at("/listeners/" + listener + "/refused/tls").asLong();
    }

    @Test
    @DisplayName("killing the egress gateway mid-traffic fails requests, names the hop, and still tears down cleanly")
    void gatewayDies() throws Exception {
        try (LocalDeployment d = target(ComponentJars.inBuildTree(ROOT)).deploy(EgressCase.GATEWAY, logs)) {
            d.awaitReady(Duration.ofMinutes(2));
            AcmeairSession s = new AcmeairSession(d.endpoints());
            String day = LocalDate.now(ZoneOffset.UTC) + "T00:00:00Z";
            assertEquals(200, s.queryFlights("CDG", "JFK", day).statusCode());

            long gatewayPid = pidOf(d, "egress-gateway");
            ProcessHandle gateway = ProcessHandle.of(gatewayPid).orElseThrow();
            gateway.destroyForcibly(); // SIGKILL: the gateway dies on its own terms, not through the supervisor
            gateway.onExit().get();

            String failure = awaitFailure(d);
            assertTrue(failure.startsWith("egress-gateway (pid " + gatewayPid + ") was killed by SIGKILL (exit status 137: sent "
                    + "from outside the kit"), failure);

            // The flight service's pooled connections die with the gateway; new ones are refused at the sidecar. Each try
            // asks for a pair not asked before, so the flight cache cannot answer it.
            List<String> to = List.of("LHR", "FRA", "NRT", "HKG", "DXB", "SFO", "AMS", "BOM", "DEL", "SIN", "SYD", "GRU",
                    "YYZ", "MEX", "ORD", "LAX", "ATL", "MAD", "FCO", "ZRH");
            HttpResponse<String> r = null;
            for (int i = 0; i < to.size(); i++) {
                r = s.queryFlights("CDG", to.get(i), day);
                if (r.statusCode() >= 500) {
                    break;
                }
                Thread.sleep(250);
            }
            assertTrue(r.statusCode() >= 500, "a query after the gateway died must fail, got " + r.statusCode() + " " + r.body());
            assertTrue(r.body().contains("MongoDB"), r.body());
            String sidecarLog = Files.readString(logs.resolve("sidecar-flight.log"));
            assertTrue(sidecarLog.contains("egress-gateway"), "the sidecar's log names the hop that failed:\n" + sidecarLog);
        }
    }

    @Test
    @DisplayName("a component that cannot start stops the deployment with its name, and leaves nothing running")
    void componentFailsToStart() throws IOException {
        ComponentJars real = ComponentJars.inBuildTree(ROOT);
        Path broken = Files.writeString(logs.resolve("dataplane.jar"), "not a jar");
        ComponentJars jars = new ComponentJars(real.java(), real.embeddedMongo(), real.acmeairServices(), broken);
        TargetException e = assertThrows(TargetException.class, () -> target(jars).deploy(EgressCase.SIDECAR, logs.resolve("logs")));
        assertTrue(e.getMessage().startsWith("starting sidecar-customer failed: sidecar-customer exited with code"), e.getMessage());
        assertTrue(e.getMessage().contains("jarfile"), e.getMessage());
    }

    private static long pidOf(LocalDeployment d, String component) {
        return d.sampleResources().stream().filter(s -> s.component().name().equals(component)).findFirst()
                .map(ResourceSample::pid).orElseThrow();
    }

    private static String awaitFailure(LocalDeployment d) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (d.failure().isPresent()) {
                return d.failure().get();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no failure reported after a component died");
    }

    private static Set<String> expectedComponents(EgressCase c) {
        Set<String> names = new HashSet<>(Set.of("mongo", "ingress-gateway"));
        for (String s : SERVICES) {
            names.add(s);
            names.add("sidecar-" + s);
        }
        switch (c) {
            case BYPASS, SIDECAR -> { }
            case GATEWAY, MTLS -> names.add("egress-gateway");
            case SNI -> names.addAll(List.of("egress-gateway", "sni-proxy"));
        }
        return names;
    }

    private static Map<String, JsonNode> stats(LocalDeployment d) throws IOException {
        Map<String, JsonNode> out = new TreeMap<>();
        for (var e : d.hopStats().entrySet()) {
            out.put(e.getKey(), AcmeairSession.JSON.readTree(e.getValue()));
        }
        return out;
    }

    private static boolean grew(Map<String, JsonNode> before, Map<String, JsonNode> after, String component, String listener, String counter) {
        String p = "/listeners/" + listener + "/" + counter;
        long b = before.get(component).at(p).asLong(-1);
        long a = after.get(component).at(p).asLong(-1);
        assertFalse(a < 0, component + " has no " + p + ": " + after.get(component));
        return a > b;
    }
}
