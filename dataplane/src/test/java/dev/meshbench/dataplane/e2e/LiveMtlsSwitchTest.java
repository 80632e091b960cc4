package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.cli.DataplaneMain;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.loopback.AppTlsClient;
import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.dataplane.loopback.MeshIdentities;
import dev.meshbench.dataplane.testing.AdminClient;
import dev.meshbench.dataplane.testing.Eventually;
import dev.meshbench.dataplane.testing.TlsProviders;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Switching a running sidecar's {@code mongo} listener between the study's cases with {@code PUT /config}: relaying plain
 * to MongoDB (case sidecar), originating mutual TLS to a real mTLS-terminating egress gateway (case mtls), and back; also
 * a running egress gateway's routes. The app is a TLS client verifying MongoDB's host name end to end; MongoDB is a TLS
 * echo server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("switching the Mongo path of a running sidecar or gateway between cases")
class LiveMtlsSwitchTest {
    private static final String MONGO = "mongo.meshbench.test";

    @TempDir
    static Path dir;
    private MeshIdentities ids;
    private EchoServer mongo;
    private List<String> tlsFiles;

    @BeforeAll
    void start() {
        ids = MeshIdentities.create(MONGO);
        mongo = EchoServer.start(ids.server(), EchoServer.Mode.ECHO);
        Path ca = ids.meshCa().writeCertificatePem(dir.resolve("mesh-ca.pem"));
        var sidecar = ids.sidecar().writePem(dir, "sidecar-booking");
        tlsFiles = List.of("--ca-file", ca.toString(), "--cert-file", sidecar.certificateChain().toString(),
                "--key-file", sidecar.privateKey().toString());
    }

    @AfterAll
    void stop() {
        mongo.close();
    }

    private static DataplaneBootstrap launch(List<String> args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        DataplaneMain.Launch l = DataplaneMain.launch(args.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertNotNull(l.running(), err.toString(StandardCharsets.UTF_8));
        return l.running();
    }

    /** One app connection through {@code entry}: TLS to MongoDB, host name verified, one echo. */
    private void appRoundTrip(InetSocketAddress entry) throws Exception {
        try (AppTlsClient app = AppTlsClient.connect(entry, MONGO, ids.externalCa().certificate())) {
            assertArrayEquals(new byte[] {4, 2}, app.roundTrip(new byte[] {4, 2}));
        }
    }

    /** The sidecar's arguments after the command name: the orchestrator passes the TLS files from the start, in every case. */
    private List<String> sidecarArgs(TlsProvider provider, String mongoListener) {
        List<String> a = new ArrayList<>(List.of("--name", "sidecar-booking", "--admin-port", "0", "--io-threads", "1",
                "--listener", mongoListener, "--listener", "name=inbound,port=0,upstream=127.0.0.1:9,upstream-name=booking"));
        a.addAll(tlsFiles);
        a.addAll(List.of("--tls-provider", provider.word(), "--exit-on-stdin-eof", "--drain-seconds", "0.2"));
        return a;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.meshbench.dataplane.testing.TlsProviders#both")
    @DisplayName("a sidecar started with TLS files and a plain mongo listener switches it to mtls-originate through a real mTLS "
            + "gateway, and back, the app's TLS working end to end in each case")
    void plainToMtlsAndBack(TlsProvider provider) throws Exception {
        TlsProviders.assumeUsable(provider);
        try (DataplaneBootstrap gateway = new DataplaneBootstrap(new ComponentConfig("egress-gateway", null, 0, 1,
                List.of(ListenerConfig.mtlsTerminating("egress", 0, RouteTable.of(MONGO, Upstream.of(HostAndPort.of(mongo.address()), "mongo")))),
                ids.gatewayTls(), provider))) {
            String gatewayAddress = HostAndPort.of(gateway.start().listener("egress")).toString();
            String plain = "name=mongo,port=0,upstream=" + HostAndPort.of(mongo.address()) + ",upstream-name=mongo";
            String mtls = "name=mongo,port=0,upstream=" + gatewayAddress + ",upstream-name=egress-gateway,tls=mtls-originate,sni=" + MONGO
                    + ",peer-id=" + ids.gatewayId();
            List<String> start = new ArrayList<>(List.of("sidecar"));
            start.addAll(sidecarArgs(provider, plain));
            try (DataplaneBootstrap sidecar = launch(start)) {
                InetSocketAddress entry = sidecar.addresses().listener("mongo");
                AdminClient admin = new AdminClient(sidecar.addresses().admin());
                appRoundTrip(entry);
                assertEquals(0, gateway.stats("egress").accepted(), "case sidecar: the gateway is off the path");

                HttpResponse<String> toMtls = admin.putConfig("mtls", sidecarArgs(provider, mtls));
                assertEquals(200, toMtls.statusCode(), toMtls.body());
                assertEquals(entry, sidecar.addresses().listener("mongo"));
                appRoundTrip(entry);
                assertEquals(1, gateway.stats("egress").accepted(), "case mtls: through the gateway");
                assertEquals(0, gateway.stats("egress").refusedTotal(), "the gateway accepted the sidecar's certificate");
                assertTrue(sidecar.statsJson().contains("\"mongo\":{\"address\":\"127.0.0.1:" + entry.getPort() + "\",\"tls\":\"mtls-originate\""),
                        sidecar.statsJson());

                HttpResponse<String> back = admin.putConfig("sidecar", sidecarArgs(provider, plain));
                assertEquals(200, back.statusCode(), back.body());
                appRoundTrip(entry);
                assertEquals(1, gateway.stats("egress").accepted(), "case sidecar again: the gateway is off the path");
                Eventually.await("every app connection of the sidecar is closed", () -> sidecar.stats("mongo").active() == 0);
                assertEquals(3, sidecar.stats("mongo").accepted(), "counted across the three configurations");
                assertEquals(0, sidecar.stats("mongo").refusedTotal());
            }
        }
    }

    @Test
    @DisplayName("a running SNI-passthrough egress gateway takes new routes; started without TLS files, --mode mtls is refused with 409")
    void gatewayRoutes() throws Exception {
        EchoServer other = EchoServer.start(ids.server(), EchoServer.Mode.ECHO);
        try (other; DataplaneBootstrap gateway = launch(List.of("egress-gateway", "--name", "egress-gateway", "--io-threads", "1",
                "--mode", "sni-passthrough", "--route", "*.meshbench.test=" + HostAndPort.of(mongo.address()) + ",upstream-name=mongo"))) {
            InetSocketAddress entry = gateway.addresses().listener("egress");
            AdminClient admin = new AdminClient(gateway.addresses().admin());
            long mongoBefore = mongo.accepted();
            appRoundTrip(entry);
            assertEquals(mongoBefore + 1, mongo.accepted());

            String route = MONGO + "=" + HostAndPort.of(other.address()) + ",upstream-name=other";
            HttpResponse<String> moved = admin.putConfig("v2", List.of("--mode", "sni-passthrough", "--route", route));
            assertEquals(200, moved.statusCode(), moved.body());
            assertEquals("{\"version\":\"v2\",\"listeners\":[{\"name\":\"egress\",\"address\":\"127.0.0.1:" + entry.getPort()
                    + "\",\"spec\":\"--mode sni-passthrough --route " + route + "\"}]}\n", moved.body());
            appRoundTrip(entry);
            assertEquals(1, other.accepted(), "routed by the new table");
            assertEquals(mongoBefore + 1, mongo.accepted());

            HttpResponse<String> mode = admin.putConfig("v3", List.of("--mode", "mtls", "--route", route));
            assertEquals(409, mode.statusCode(), mode.body());
            assertEquals("egress-gateway: listener egress uses mutual TLS (mtls-terminate), but the process was started without "
                    + "--ca-file, --cert-file and --key-file; restart it with them\n", mode.body());
            appRoundTrip(entry);
            assertEquals(2, other.accepted(), "the refused configuration changed nothing");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.meshbench.dataplane.testing.TlsProviders#both")
    @DisplayName("an egress gateway started with its TLS files switches --mode while it runs: SNI passthrough (case gateway), "
            + "mutual TLS from a sidecar (case mtls), and back, on the same port, the app's TLS verified end to end each time")
    void gatewayModeWhileRunning(TlsProvider provider) throws Exception {
        TlsProviders.assumeUsable(provider);
        var gw = ids.gateway().writePem(dir, "egress-gateway-" + provider.word());
        List<String> gatewayFiles = List.of("--ca-file", dir.resolve("mesh-ca.pem").toString(), "--cert-file",
                gw.certificateChain().toString(), "--key-file", gw.privateKey().toString());
        String route = MONGO + "=" + HostAndPort.of(mongo.address()) + ",upstream-name=mongo";
        List<String> start = new ArrayList<>(List.of("egress-gateway", "--name", "egress-gateway", "--io-threads", "1", "--mode",
                "sni-passthrough", "--route", route, "--tls-provider", provider.word(), "--drain-seconds", "0.2"));
        start.addAll(gatewayFiles);
        try (DataplaneBootstrap gateway = launch(start)) {
            InetSocketAddress entry = gateway.addresses().listener("egress");
            AdminClient admin = new AdminClient(gateway.addresses().admin());
            appRoundTrip(entry);
            assertEquals(1, gateway.stats("egress").accepted(), "case gateway: the app's own TLS passed through");

            List<String> mtls = new ArrayList<>(List.of("--mode", "mtls", "--route", route));
            mtls.addAll(gatewayFiles);
            HttpResponse<String> toMtls = admin.putConfig("mtls", mtls);
            assertEquals(200, toMtls.statusCode(), toMtls.body());
            assertEquals(entry, gateway.addresses().listener("egress"), "the same port");
            String originate = "name=mongo,port=0,upstream=" + HostAndPort.of(entry) + ",upstream-name=egress-gateway,tls=mtls-originate,sni="
                    + MONGO + ",peer-id=" + ids.gatewayId();
            List<String> sidecarStart = new ArrayList<>(List.of("sidecar"));
            sidecarStart.addAll(sidecarArgs(provider, originate));
            try (DataplaneBootstrap sidecar = launch(sidecarStart)) {
                appRoundTrip(sidecar.addresses().listener("mongo"));
            }
            assertEquals(2, gateway.stats("egress").accepted(), "case mtls: the sidecar's tunnel");
            assertEquals(0, gateway.stats("egress").refusedTotal(), "the sidecar's certificate accepted");
            long refused = gateway.stats("egress").refusedTotal();
            try (AppTlsClient app = AppTlsClient.connect(entry, MONGO, ids.externalCa().certificate())) {
                app.roundTrip(new byte[] {1});
                org.junit.jupiter.api.Assertions.fail("an app without a mesh certificate got through a gateway in mtls mode");
            } catch (Exception expected) {
                Eventually.await("the gateway refused the app without a mesh certificate", () -> gateway.stats("egress").refusedTotal() > refused);
            }

            HttpResponse<String> back = admin.putConfig("gateway", List.of("--mode", "sni-passthrough", "--route", route));
            assertEquals(200, back.statusCode(), back.body());
            appRoundTrip(entry);
            assertTrue(gateway.statsJson().contains("\"egress\":{\"address\":\"127.0.0.1:" + entry.getPort() + "\""), gateway.statsJson());
        }
    }
}
