package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.ListenerBindException;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.dataplane.loopback.MeshIdentities;
import dev.meshbench.dataplane.stats.HopStats;
import dev.meshbench.dataplane.stats.Refusal;
import dev.meshbench.dataplane.loopback.AppTlsClient;
import dev.meshbench.dataplane.testing.Eventually;
import dev.meshbench.dataplane.testing.LogCapture;
import dev.meshbench.dataplane.testing.TlsProviders;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import dev.meshbench.pki.IssuedCertificate;
import dev.meshbench.pki.TlsContexts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedKeyManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Who may use the mTLS gateway, and what the SNI proxy and an mTLS-originating sidecar refuse. Every check of a
 * relay's own TLS runs with each TLS provider ({@code boringssl}, {@code jdk}): the peer checks (chain to the mesh
 * CA, validity, client certificate required, SPIFFE id of the upstream) must not depend on it.
 *
 * <p>Each test gets its own MongoDB stand-in, gateways and SNI proxy, all closed (their event loops ended) before the
 * next test starts: a relay works on after a test's last assertion (the gateway opens its upstream connection once
 * a tunnel's handshake is done, which a sidecar that then refuses the gateway does not wait for; a closing app's
 * close_notify is relayed after the app saw its echo), and with shared servers that connection, those bytes or that
 * log line were counted by whichever test ran next. Only the certificates, which nothing changes, are shared.
 */
class MtlsGatewaySecurityTest {
    private static final String MONGO = "mongo.meshbench.test";
    private static final String PROVIDERS = "dev.meshbench.dataplane.testing.TlsProviders#both";

    private static MeshIdentities ids;
    private EchoServer echo;
    private Upstream mongo;
    private final Map<TlsProvider, DataplaneBootstrap> gateways = new EnumMap<>(TlsProvider.class);
    private DataplaneBootstrap startedSniProxy;

    @BeforeAll
    static void identities() {
        ids = MeshIdentities.create(MONGO);
    }

    @BeforeEach
    void start() {
        echo = EchoServer.start(ids.server(), EchoServer.Mode.ECHO);
        mongo = Upstream.of(HostAndPort.of(echo.address()), "mongo");
    }

    @AfterEach
    void stop() {
        gateways.values().forEach(DataplaneBootstrap::close);
        if (startedSniProxy != null) {
            startedSniProxy.close();
        }
        echo.close();
    }

    /** This test's SNI proxy to its MongoDB stand-in, started on first use. */
    private DataplaneBootstrap sniProxy() throws ListenerBindException {
        if (startedSniProxy == null) {
            startedSniProxy = new DataplaneBootstrap(new ComponentConfig("sni-proxy", null, 0, 1,
                    List.of(ListenerConfig.sniPassthrough("sni", 0, RouteTable.of("*.meshbench.test", mongo))), null));
            startedSniProxy.start();
        }
        return startedSniProxy;
    }

    /** This test's mTLS gateway running on {@code provider}, started on first use (skips the test where it cannot run). */
    private DataplaneBootstrap gateway(TlsProvider provider) throws ListenerBindException {
        TlsProviders.assumeUsable(provider);
        DataplaneBootstrap gw = gateways.get(provider);
        if (gw == null) {
            gw = new DataplaneBootstrap(new ComponentConfig("egress-gateway", null, 0, 1,
                    List.of(ListenerConfig.mtlsTerminating("egress", 0, RouteTable.of(MONGO, mongo))), ids.gatewayTls(), provider));
            gateways.put(provider, gw);
            gw.start();
            assertEquals(provider, gw.tlsProvider());
        }
        return gw;
    }

    /**
     * A mesh client (a sidecar's role) that trusts the mesh CA and presents {@code cert} (or nothing). It presents
     * its certificate even when the server asks for another CA (the JDK's own key manager would silently send none),
     * so the gateway really has to judge it.
     */
    private SSLContext meshClient(IssuedCertificate cert) {
        try {
            KeyManager[] km = null;
            if (cert != null) {
                X509ExtendedKeyManager keys = (X509ExtendedKeyManager) TlsContexts.keyManagers(cert.privateKey(), cert.chain())
                        .getKeyManagers()[0];
                km = new KeyManager[] {new AlwaysPresentingKeyManager(keys)};
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(km, TlsContexts.trustManagers(List.of(ids.meshCa().certificate())).getTrustManagers(), null);
            return ctx;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Offers its only key whatever CA names the server lists. */
    private static final class AlwaysPresentingKeyManager extends X509ExtendedKeyManager {
        private final X509ExtendedKeyManager keys;
        private final String alias;

        AlwaysPresentingKeyManager(X509ExtendedKeyManager keys) {
            this.keys = keys;
            this.alias = keys.getClientAliases("EC", null)[0];
        }

        @Override
        public String[] getClientAliases(String keyType, java.security.Principal[] issuers) {
            return new String[] {alias};
        }

        @Override
        public String chooseClientAlias(String[] keyType, java.security.Principal[] issuers, java.net.Socket socket) {
            return alias;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, java.security.Principal[] issuers, javax.net.ssl.SSLEngine engine) {
            return alias;
        }

        @Override
        public String[] getServerAliases(String keyType, java.security.Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, java.security.Principal[] issuers, java.net.Socket socket) {
            return null;
        }

        @Override
        public java.security.cert.X509Certificate[] getCertificateChain(String a) {
            return keys.getCertificateChain(a);
        }

        @Override
        public java.security.PrivateKey getPrivateKey(String a) {
            return keys.getPrivateKey(a);
        }
    }

    /**
     * Uses the gateway as a sidecar would: mutual TLS to the gateway with {@code sni}, and inside that tunnel the app's
     * own TLS to MongoDB (host name verified) and one echo. True when the echo came back.
     */
    private boolean tunnelWorks(InetSocketAddress gatewayAddress, SSLContext client, String sni) {
        try (AppTlsClient tunnel = AppTlsClient.connect(gatewayAddress, sni, client, false);
                SSLSocket app = (SSLSocket) TlsContexts.client(ids.externalCa().certificate(), null).getSocketFactory()
                        .createSocket(tunnel.socket(), MONGO, gatewayAddress.getPort(), true)) {
            SSLParameters p = app.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            p.setServerNames(List.of(new SNIHostName(MONGO)));
            app.setSSLParameters(p);
            app.getOutputStream().write(new byte[] {1, 2, 3});
            app.getOutputStream().flush();
            return java.util.Arrays.equals(new byte[] {1, 2, 3}, app.getInputStream().readNBytes(3));
        } catch (IOException e) {
            return false;
        }
    }

    /** Returns the gateway's log line about the refusal. */
    private String assertRefusedTls(DataplaneBootstrap gateway, SSLContext client) {
        HopStats before = gateway.stats("egress");
        long echoBefore = echo.accepted();
        String line;
        try (LogCapture log = new LogCapture()) {
            assertEquals(false, tunnelWorks(gateway.addresses().listener("egress"), client, MONGO));
            Eventually.await("the gateway counted a TLS refusal",
                    () -> gateway.stats("egress").refused(Refusal.TLS) == before.refused(Refusal.TLS) + 1);
            Eventually.await("the refusal is logged", () -> log.text().contains("egress-gateway/egress: refused connection from"), log::text);
            line = log.text().lines().filter(l -> l.contains("egress-gateway/egress: refused")).findFirst().orElseThrow();
        }
        assertTrue(line.contains("mTLS handshake failed"), line);
        Eventually.await("the gateway closed it", () -> gateway.stats("egress").active() == 0);
        HopStats after = gateway.stats("egress");
        assertEquals(before.bytesClientToUpstream(), after.bytesClientToUpstream(), "nothing relayed");
        assertEquals(echoBefore, echo.accepted(), "MongoDB never saw the connection");
        return line;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROVIDERS)
    @DisplayName("accepts a sidecar with a current workload certificate from the mesh CA (control case)")
    void acceptsMeshWorkload(TlsProvider provider) throws ListenerBindException {
        DataplaneBootstrap gateway = gateway(provider);
        long echoBefore = echo.accepted();
        assertTrue(tunnelWorks(gateway.addresses().listener("egress"), meshClient(ids.sidecar()), MONGO));
        assertEquals(echoBefore + 1, echo.accepted());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROVIDERS)
    @DisplayName("rejects a client without a certificate, and counts it")
    void rejectsNoCertificate(TlsProvider provider) throws ListenerBindException {
        String line = assertRefusedTls(gateway(provider), meshClient(null));
        // JDK: "Empty client certificate chain"; BoringSSL: "...:PEER_DID_NOT_RETURN_A_CERTIFICATE".
        assertTrue(line.contains(provider == TlsProvider.JDK ? "Empty client certificate chain" : "PEER_DID_NOT_RETURN_A_CERTIFICATE"), line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROVIDERS)
    @DisplayName("rejects a client whose certificate comes from another CA, and counts it")
    void rejectsOtherCa(TlsProvider provider) throws ListenerBindException {
        CertificateAuthority rogue = CertificateAuthority.create("rogue CA");
        IssuedCertificate impostor = rogue.issue(CertificateSpec.workload(MeshIdentities.TRUST_DOMAIN, "meshbench", "booking"));
        String line = assertRefusedTls(gateway(provider), meshClient(impostor));
        assertTrue(line.contains("mTLS handshake failed: PKIX path building failed"), "the mesh CA's trust manager judged it: " + line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROVIDERS)
    @DisplayName("rejects a client with an expired certificate from the mesh CA, and counts it")
    void rejectsExpired(TlsProvider provider) throws ListenerBindException {
        Instant now = Instant.now();
        IssuedCertificate expired = ids.meshCa().issue(CertificateSpec.workload(MeshIdentities.TRUST_DOMAIN, "meshbench", "booking")
                .withValidity(now.minus(Duration.ofDays(2)), now.minus(Duration.ofDays(1))));
        String line = assertRefusedTls(gateway(provider), meshClient(expired));
        assertTrue(line.contains("mTLS handshake failed: PKIX path validation failed") && line.contains("validity check failed"),
                "the mesh CA's trust manager judged it: " + line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROVIDERS)
    @DisplayName("refuses an mTLS tunnel whose server name has no route, counted under sni")
    void refusesUnroutedTunnel(TlsProvider provider) throws ListenerBindException {
        DataplaneBootstrap gateway = gateway(provider);
        long before = gateway.stats("egress").refused(Refusal.SNI);
        assertEquals(false, tunnelWorks(gateway.addresses().listener("egress"), meshClient(ids.sidecar()), "other.example.org"));
        Eventually.await("sni refusal counted", () -> gateway.stats("egress").refused(Refusal.SNI) == before + 1);
    }

    @Test
    @DisplayName("the SNI proxy refuses an unknown server name: closed, counted and logged with the hop")
    void sniProxyRefusesUnknownName() throws IOException, ListenerBindException {
        DataplaneBootstrap sniProxy = sniProxy();
        InetSocketAddress proxy = sniProxy.addresses().listener("sni");
        long echoBefore = echo.accepted();
        try (LogCapture log = new LogCapture()) {
            assertThrows(IOException.class, () -> AppTlsClient.connect(proxy, "mongo.elsewhere.org", ids.externalCa().certificate()).close());
            Eventually.await("sni refusal counted", () -> sniProxy.stats("sni").refused(Refusal.SNI) == 1);
            Eventually.await("refusal logged", () -> log.text().contains("sni-proxy/sni: refused connection from 127.0.0.1:"),
                    log::text);
            assertTrue(log.text().contains("no route for server name mongo.elsewhere.org"), log.text());
        }
        assertEquals(echoBefore, echo.accepted());
        try (AppTlsClient ok = AppTlsClient.connect(proxy, MONGO, ids.externalCa().certificate())) {
            assertArrayEquals(new byte[] {7, 7}, ok.roundTrip(new byte[] {7, 7}), "a known name still passes");
        }
    }

    @Test
    @DisplayName("the SNI proxy refuses bytes that are not a usable ClientHello: closed, counted once under clientHello, not as TLS")
    void sniProxyRefusesNonClientHello() throws IOException, ListenerBindException {
        DataplaneBootstrap sniProxy = sniProxy();
        InetSocketAddress proxy = sniProxy.addresses().listener("sni");
        byte[][] inputs = {
            {21, 9, 9, 9, 9}, // an alert record of no TLS or SSL version (Netty: NotSslRecordException)
            {22, 3, 1, 0, 4, 1, 0x01, 0x00, 0x00}, // a ClientHello announcing 65536 bytes (Netty: TooLongFrameException)
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)};
        HopStats before = sniProxy.stats("sni");
        long echoBefore = echo.accepted();
        for (byte[] input : inputs) {
            try (Socket s = new Socket(proxy.getAddress(), proxy.getPort())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(input);
                int answer;
                try {
                    answer = s.getInputStream().read();
                } catch (SocketException reset) {
                    answer = -1;
                }
                assertEquals(-1, answer, "closed without an answer");
            }
        }
        Eventually.await("three clientHello refusals counted",
                () -> sniProxy.stats("sni").refused(Refusal.CLIENT_HELLO) == before.refused(Refusal.CLIENT_HELLO) + inputs.length);
        HopStats after = sniProxy.stats("sni");
        assertEquals(before.refused(Refusal.TLS), after.refused(Refusal.TLS), "the relay did not count the decoder's failure as a TLS refusal");
        assertEquals(before.refusedTotal() + inputs.length, after.refusedTotal(), "each counted once");
        assertEquals(echoBefore, echo.accepted(), "no upstream connection");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROVIDERS)
    @DisplayName("a sidecar refuses to tunnel to a gateway whose SPIFFE id is not the expected one")
    void sidecarChecksGatewayIdentity(TlsProvider provider) throws Exception {
        DataplaneBootstrap gateway = gateway(provider);
        InetSocketAddress gatewayAddress = gateway.addresses().listener("egress");
        UpstreamTls.MutualTls wrongPeer = new UpstreamTls.MutualTls(MONGO, URI.create("spiffe://cluster.local/ns/x/sa/impostor"));
        try (DataplaneBootstrap sidecar = new DataplaneBootstrap(new ComponentConfig("sidecar-booking", null, 0, 1,
                List.of(ListenerConfig.mtlsOriginating("mongo", 0, Upstream.of(HostAndPort.of(gatewayAddress), "egress-gateway"), wrongPeer)),
                ids.sidecarTls(), provider));
                LogCapture log = new LogCapture()) {
            InetSocketAddress entry = sidecar.start().listener("mongo");
            long gatewayBytesBefore = gateway.stats("egress").bytesClientToUpstream();
            assertThrows(IOException.class, () -> AppTlsClient.connect(entry, MONGO, ids.externalCa().certificate()).close());
            Eventually.await("upstream TLS refusal counted", () -> sidecar.stats("mongo").refused(Refusal.UPSTREAM_TLS) == 1);
            Eventually.await("logged", () -> log.text().contains("sidecar-booking/mongo: upstream " + HostAndPort.of(gatewayAddress)
                    + " (egress-gateway) peer is spiffe://cluster.local/ns/istio-system/sa/istio-egressgateway, expected "
                    + "spiffe://cluster.local/ns/x/sa/impostor"), log::text);
            // The gateway may already have opened its upstream connection (the tunnel itself was valid for it), but no
            // app byte went through: the sidecar refuses before reading from the app.
            assertEquals(0, sidecar.stats("mongo").bytesClientToUpstream(), "no app byte left the sidecar");
            assertEquals(gatewayBytesBefore, gateway.stats("egress").bytesClientToUpstream(), "no app byte reached the gateway");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(PROVIDERS)
    @DisplayName("a sidecar refuses a gateway whose certificate comes from another CA, before any app byte leaves")
    void sidecarChecksGatewayChain(TlsProvider provider) throws Exception {
        TlsProviders.assumeUsable(provider);
        CertificateAuthority rogue = CertificateAuthority.create("rogue CA");
        // Carries the real gateway's SPIFFE id: only the chain gives it away.
        IssuedCertificate impostorCert = rogue.issue(CertificateSpec.workload(MeshIdentities.TRUST_DOMAIN, "istio-system", "istio-egressgateway"));
        try (DataplaneBootstrap impostor = new DataplaneBootstrap(new ComponentConfig("impostor-gateway", null, 0, 1,
                List.of(ListenerConfig.mtlsTerminating("egress", 0, RouteTable.of(MONGO, mongo))),
                TlsMaterial.of(rogue.certificate(), impostorCert), provider))) {
            InetSocketAddress impostorAddress = impostor.start().listener("egress");
            try (DataplaneBootstrap sidecar = new DataplaneBootstrap(new ComponentConfig("sidecar-booking", null, 0, 1,
                    List.of(ListenerConfig.mtlsOriginating("mongo", 0, Upstream.of(HostAndPort.of(impostorAddress), "egress-gateway"),
                            new UpstreamTls.MutualTls(MONGO, ids.gatewayId()))), ids.sidecarTls(), provider));
                    LogCapture log = new LogCapture()) {
                InetSocketAddress entry = sidecar.start().listener("mongo");
                long echoBefore = echo.accepted();
                assertThrows(IOException.class, () -> AppTlsClient.connect(entry, MONGO, ids.externalCa().certificate()).close());
                Eventually.await("upstream TLS refusal counted", () -> sidecar.stats("mongo").refused(Refusal.UPSTREAM_TLS) == 1);
                Eventually.await("logged", () -> log.text().contains("sidecar-booking/mongo: upstream " + HostAndPort.of(impostorAddress)
                        + " (egress-gateway) mTLS handshake failed: PKIX path building failed"), log::text);
                assertEquals(0, sidecar.stats("mongo").bytesClientToUpstream(), "no app byte left the sidecar");
                assertEquals(0, impostor.stats("egress").bytesClientToUpstream(), "nothing reached the impostor's upstream");
                assertEquals(echoBefore, echo.accepted(), "MongoDB never saw a connection");
            }
        }
    }
}
