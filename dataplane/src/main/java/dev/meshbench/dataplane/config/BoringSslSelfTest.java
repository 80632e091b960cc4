package dev.meshbench.dataplane.config;

import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import dev.meshbench.pki.IssuedCertificate;
import dev.meshbench.pki.TlsContexts;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.Version;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * Whether BoringSSL through netty-tcnative really works in this JVM. {@link OpenSsl#isAvailable()} only says the
 * native library loaded; a netty-tcnative older than the Netty in use loads fine and then fails every handshake
 * with a {@link NoSuchMethodError} (Netty 4.2.20 with netty-tcnative 2.0.74: {@code SSL.getVersionInt},
 * {@code SSL.getGroupName}). So, once per JVM, this runs one mutual-TLS handshake in memory, both sides on
 * BoringSSL, configured like the relays (TLS 1.3/1.2, client certificate required, PKIX trust of one CA, SNI sent,
 * no host name check), and checks what the relays read afterwards: both peers' certificates and the SNI.
 */
final class BoringSslSelfTest {
    private static final String SNI = "self-test.meshbench.test";
    private static final int MAX_ROUNDS = 20;

    /**
     * @param usable  BoringSSL can be used
     * @param problem why not (null when usable)
     */
    record Result(boolean usable, String problem) {
    }

    private BoringSslSelfTest() {
    }

    private static final class Holder {
        static final Result RESULT = run();
    }

    /** The outcome, computed on first use. */
    static Result result() {
        return Holder.RESULT;
    }

    private static Result run() {
        if (!OpenSsl.isAvailable()) {
            return new Result(false, "netty-tcnative does not load: " + TlsProvider.reason(OpenSsl.unavailabilityCause()));
        }
        try {
            handshake();
            return new Result(true, null);
        } catch (Exception | LinkageError e) {
            String hint = linkageError(e) ? " (this netty-tcnative does not match " + nettyHandler() + ")" : "";
            return new Result(false, "netty-tcnative loads (" + OpenSsl.versionString() + ") but a test handshake failed: "
                    + TlsProvider.reason(e) + hint);
        }
    }

    private static String nettyHandler() {
        Version v = Version.identify().get("netty-handler");
        return v == null ? "this Netty" : "netty-handler " + v.artifactVersion();
    }

    private static boolean linkageError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof LinkageError) {
                return true;
            }
        }
        return false;
    }

    private static void handshake() throws SSLException {
        CertificateAuthority ca = CertificateAuthority.create("meshbench BoringSSL self-test CA");
        IssuedCertificate server = ca.issue(CertificateSpec.workload("cluster.local", "self-test", "server"));
        IssuedCertificate client = ca.issue(CertificateSpec.workload("cluster.local", "self-test", "client"));
        String[] protocols = {"TLSv1.3", "TLSv1.2"};
        SslContext serverContext = SslContextBuilder.forServer(TlsContexts.keyManagers(server.privateKey(), server.chain()))
                .sslProvider(SslProvider.OPENSSL).protocols(protocols)
                .trustManager(TlsContexts.trustManagers(List.of(ca.certificate()))).clientAuth(ClientAuth.REQUIRE).build();
        SslContext clientContext = SslContextBuilder.forClient().sslProvider(SslProvider.OPENSSL).protocols(protocols)
                .keyManager(TlsContexts.keyManagers(client.privateKey(), client.chain()))
                .trustManager(TlsContexts.trustManagers(List.of(ca.certificate()))).endpointIdentificationAlgorithm(null).build();
        SSLEngine s = serverContext.newEngine(UnpooledByteBufAllocator.DEFAULT);
        SSLEngine c = clientContext.newEngine(UnpooledByteBufAllocator.DEFAULT, SNI, 443);
        SSLParameters p = c.getSSLParameters();
        p.setServerNames(List.of(new SNIHostName(SNI)));
        c.setSSLParameters(p);
        try {
            ByteBuffer toServer = ByteBuffer.allocate(1 << 16);
            ByteBuffer toClient = ByteBuffer.allocate(1 << 16);
            ByteBuffer none = ByteBuffer.allocate(0);
            ByteBuffer app = ByteBuffer.allocate(1 << 16);
            c.beginHandshake();
            s.beginHandshake();
            for (int round = 0; round < MAX_ROUNDS; round++) {
                c.wrap(none, toServer);
                tasks(c);
                toServer.flip();
                s.unwrap(toServer, app);
                toServer.compact();
                tasks(s);
                s.wrap(none, toClient);
                tasks(s);
                toClient.flip();
                try {
                    c.unwrap(toClient, app);
                } catch (SSLException alert) {
                    throw serverSideCause(s, none, toClient).orElse(alert);
                }
                toClient.compact();
                tasks(c);
                if (done(c) && done(s)) {
                    break;
                }
            }
            if (!done(c) || !done(s)) {
                throw new SSLException("handshake did not finish (client " + c.getHandshakeStatus() + ", server " + s.getHandshakeStatus() + ")");
            }
            if (c.getSession().getPeerCertificates().length == 0 || s.getSession().getPeerCertificates().length == 0) {
                throw new SSLException("a side saw no peer certificate");
            }
            if (!(s.getSession() instanceof ExtendedSSLSession ext) || ext.getRequestedServerNames().stream()
                    .noneMatch(n -> n instanceof SNIHostName h && h.getAsciiName().equals(SNI))) {
                throw new SSLException("the server side did not see the SNI " + SNI);
            }
        } finally {
            c.closeOutbound();
            s.closeOutbound();
        }
    }

    /** The server's own failure when the client only saw its alert (the server reports it on its next call). */
    private static Optional<SSLException> serverSideCause(SSLEngine s, ByteBuffer none, ByteBuffer out) {
        try {
            s.wrap(none, out);
            return Optional.empty();
        } catch (SSLException e) {
            return Optional.of(e);
        }
    }

    private static boolean done(SSLEngine e) {
        HandshakeStatus h = e.getHandshakeStatus();
        return h == HandshakeStatus.NOT_HANDSHAKING || h == HandshakeStatus.FINISHED;
    }

    private static void tasks(SSLEngine e) {
        Runnable t;
        while ((t = e.getDelegatedTask()) != null) {
            t.run();
        }
    }
}
