package dev.meshbench.dataplane.relay;

import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.pki.TlsContexts;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;

/**
 * Netty TLS contexts for mesh mutual TLS, from a component's {@link TlsMaterial}, with either {@link TlsProvider}.
 * Peers are checked by the JDK's PKIX trust manager against the mesh CA only (chain, validity, key usage), also
 * with BoringSSL, which hands every peer chain to that same trust manager; there is no trust-all path.
 */
public final class MeshTlsContexts {
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private MeshTlsContexts() {
    }

    /** Terminating side: presents the workload certificate and requires one from the client. */
    public static SslContext server(TlsMaterial m, TlsProvider provider) throws SSLException {
        return SslContextBuilder.forServer(TlsContexts.keyManagers(m.key(), m.chain().toArray(X509Certificate[]::new)))
                .sslProvider(provider.sslProvider())
                .protocols(PROTOCOLS)
                .trustManager(TlsContexts.trustManagers(m.trustedCas()))
                .clientAuth(ClientAuth.REQUIRE)
                .build();
    }

    /**
     * Originating side: presents the workload certificate. Host name verification is off on purpose (the SNI is
     * the external host, and mesh peers carry SPIFFE ids, not host names); callers check the peer's id instead.
     */
    public static SslContext client(TlsMaterial m, TlsProvider provider) throws SSLException {
        return SslContextBuilder.forClient()
                .sslProvider(provider.sslProvider())
                .protocols(PROTOCOLS)
                .keyManager(TlsContexts.keyManagers(m.key(), m.chain().toArray(X509Certificate[]::new)))
                .trustManager(TlsContexts.trustManagers(m.trustedCas()))
                .endpointIdentificationAlgorithm(null)
                .build();
    }
}
