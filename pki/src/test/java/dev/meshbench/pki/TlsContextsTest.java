package dev.meshbench.pki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsContextsTest {
    private static final CertificateAuthority CA = CertificateAuthority.create("test-ca");
    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    @DisplayName("a client that trusts the CA completes a handshake with host name verification")
    void handshakeWithTrustedCa() throws Exception {
        IssuedCertificate server = CA.issue(CertificateSpec.server("mongo", List.of("mongo.meshbench.test", "localhost")));
        Path caFile = CA.writeCertificatePem(dir.resolve("ca.pem"));
        assertEquals("echo", handshake(TlsContexts.server(server), TlsContexts.client(caFile, null, null), "localhost"));
    }

    @Test
    @DisplayName("a client that does not trust the CA fails the handshake")
    void untrustedCaFails() {
        IssuedCertificate server = CA.issue(CertificateSpec.server("mongo", List.of("localhost")));
        CertificateAuthority other = CertificateAuthority.create("other-ca");
        SSLHandshakeException e = assertThrows(SSLHandshakeException.class,
                () -> handshake(TlsContexts.server(server), TlsContexts.client(other.certificate(), null), "localhost"));
        assertTrue(e.getMessage().contains("PKIX"), e.getMessage());
    }

    @Test
    @DisplayName("a certificate for another host name fails host name verification")
    void wrongHostFails() {
        IssuedCertificate server = CA.issue(CertificateSpec.server("mongo", List.of("mongo.meshbench.test"))
                .withIpAddresses(List.of()));
        SSLHandshakeException e = assertThrows(SSLHandshakeException.class,
                () -> handshake(TlsContexts.server(server), TlsContexts.client(CA.certificate(), null), "localhost"));
        assertTrue(e.getMessage().contains("localhost"), e.getMessage());
    }

    @Test
    @DisplayName("an expired server certificate is rejected")
    void expiredFails() {
        Instant past = Instant.now().minus(Duration.ofDays(10));
        IssuedCertificate server = CA.issue(CertificateSpec.server("mongo", List.of("localhost"))
                .withValidity(past, past.plus(Duration.ofDays(1))));
        assertThrows(SSLHandshakeException.class,
                () -> handshake(TlsContexts.server(server), TlsContexts.client(CA.certificate(), null), "localhost"));
    }

    @Test
    @DisplayName("PEM files round-trip, and the key file is readable by its owner only")
    void pemRoundTrip() throws Exception {
        IssuedCertificate cert = CA.issue(CertificateSpec.workload("cluster.local", "default", "booking"));
        IssuedCertificate.PemFiles files = cert.writePem(dir, "booking");
        assertEquals(List.of(cert.chain()), Pem.readCertificates(files.certificateChain()));
        assertEquals(cert.privateKey(), Pem.readPrivateKey(files.privateKey()));
        assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                Files.getPosixFilePermissions(files.privateKey()));
        assertTrue(cert.certificate().getSubjectAlternativeNames().toString()
                .contains("spiffe://cluster.local/ns/default/sa/booking"));
        assertTrue(!cert.toString().contains("PRIVATE"), "toString must not show the key");
    }

    @Test
    @DisplayName("an RSA public key (for JWT verification) round-trips through PEM")
    void publicKeyRoundTrip() {
        java.security.KeyPair kp = KeyType.RSA_2048.generate();
        Path file = dir.resolve("jwt-public.pem");
        Pem.writePublicKey(file, kp.getPublic());
        assertEquals(kp.getPublic(), Pem.readPublicKey(file));
        assertThrows(PkiException.class, () -> Pem.readPublicKey(dir.resolve("missing.pem")));
    }

    @Test
    @DisplayName("reading a missing or empty PEM file names the file")
    void badPemFilesNameTheFile() throws IOException {
        Path missing = dir.resolve("nope.pem");
        assertTrue(assertThrows(PkiException.class, () -> Pem.readCertificates(missing)).getMessage().contains("nope.pem"));
        Path empty = Files.writeString(dir.resolve("empty.pem"), "hello");
        assertTrue(assertThrows(PkiException.class, () -> Pem.readPrivateKey(empty)).getMessage().contains("empty.pem"));
        assertThrows(PkiException.class, () -> TlsContexts.client(empty, empty, null));
    }

    @Test
    @DisplayName("an RSA CA and RSA leaf work too")
    void rsa() throws Exception {
        CertificateAuthority rsaCa = CertificateAuthority.create("rsa-ca", Duration.ofHours(1), KeyType.RSA_2048);
        IssuedCertificate server = rsaCa.issue(CertificateSpec.server("s", List.of("localhost")).withKeyType(KeyType.RSA_2048));
        assertEquals("echo", handshake(TlsContexts.server(server), TlsContexts.client(rsaCa.certificate(), null), "localhost"));
    }

    /** Handshakes a real TLS socket pair on loopback; the server writes "echo" back. */
    private String handshake(SSLContext serverCtx, SSLContext clientCtx, String hostName) throws Exception {
        try (SSLServerSocket ss = (SSLServerSocket) serverCtx.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Future<?> served = executor.submit(() -> {
                try (SSLSocket s = (SSLSocket) ss.accept()) {
                    s.getOutputStream().write("echo".getBytes());
                    s.getOutputStream().flush();
                    s.getInputStream().read();
                } catch (IOException ignored) {
                    // the client side reports the failure
                }
                return null;
            });
            try (SSLSocket c = (SSLSocket) clientCtx.getSocketFactory().createSocket()) {
                c.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), ss.getLocalPort()), 5000);
                c.setSoTimeout(5000);
                SSLParameters p = c.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS");
                p.setServerNames(List.of(new javax.net.ssl.SNIHostName(hostName)));
                c.setSSLParameters(p);
                c.startHandshake();
                byte[] buf = c.getInputStream().readNBytes(4);
                c.getOutputStream().write(1);
                return new String(buf);
            } finally {
                served.get(5, TimeUnit.SECONDS);
            }
        }
    }
}
