package dev.meshbench.dataplane.relay;

import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.pki.TlsContexts;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;

/**
 * Netty TLS contexts for mesh mutual TLS, from a component's {@link TlsMaterial}. Peers are checked by the JDK's
 * PKIX trust manager against the mesh CA only (chain, validity, key usage); there is no trust-all path.
 */
public final class MeshTlsContexts {
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private MeshTlsContexts() {
    }

    /** Terminating side: presents the workload certificate and requires one from the client. */
    public static SslContext server(TlsMaterial m) throws SSLException {
        return SslContextBuilder.forServer(TlsContexts.keyManagers(m.key(), m.chain().toArray(X509Certificate[]::new)))
                .sslProvider(SslProvider.JDK)
                .protocols(PROTOCOLS)
                .trustManager(TlsContexts.trustManagers(m.trustedCas()))
                .clientAuth(ClientAuth.REQUIRE)
                .build();
    }

    /**
     * Originating side: presents the workload certificate. Host name verification is off on purpose (the SNI is
     * the external host, and mesh peers carry SPIFFE ids, not host names); callers check the peer's id instead.
     */
    public static SslContext client(TlsMaterial m) throws SSLException {
        return SslContextBuilder.forClient()
                .sslProvider(SslProvider.JDK)
                .protocols(PROTOCOLS)
                .keyManager(TlsContexts.keyManagers(m.key(), m.chain().toArray(X509Certificate[]::new)))
                .trustManager(TlsContexts.trustManagers(m.trustedCas()))
                .endpointIdentificationAlgorithm(null)
                .build();
    }
}
