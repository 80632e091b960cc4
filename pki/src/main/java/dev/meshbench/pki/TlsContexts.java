package dev.meshbench.pki;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * JDK {@link SSLContext}s from the kit's certificates. Trust always comes from a named CA through the JDK's
 * PKIX trust manager (chain, validity and, in the caller's engine, host name checks): there is no trust-all
 * variant.
 */
public final class TlsContexts {
    private static final char[] IN_MEMORY_PASSWORD = "in-memory".toCharArray();

    private TlsContexts() {
    }

    /** Trusts only the given CA certificates. */
    public static TrustManagerFactory trustManagers(List<X509Certificate> cas) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            int i = 0;
            for (X509Certificate ca : cas) {
                ks.setCertificateEntry("ca-" + i++, ca);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            return tmf;
        } catch (GeneralSecurityException | IOException e) {
            throw new PkiException("building a trust store failed", e);
        }
    }

    public static KeyManagerFactory keyManagers(PrivateKey key, X509Certificate[] chain) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("key", key, IN_MEMORY_PASSWORD, chain);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, IN_MEMORY_PASSWORD);
            return kmf;
        } catch (GeneralSecurityException | IOException e) {
            throw new PkiException("building a key store failed", e);
        }
    }

    /** A client context that trusts the CA in {@code caPem} and, if given, presents a client certificate. */
    public static SSLContext client(Path caPem, Path clientCertPem, Path clientKeyPem) {
        List<X509Certificate> cas = Pem.readCertificates(caPem);
        KeyManagerFactory kmf = null;
        if (clientCertPem != null || clientKeyPem != null) {
            if (clientCertPem == null || clientKeyPem == null) {
                throw new PkiException("a client certificate needs both a certificate file and a key file (got cert="
                        + clientCertPem + ", key=" + clientKeyPem + ")");
            }
            List<X509Certificate> chain = Pem.readCertificates(clientCertPem);
            kmf = keyManagers(Pem.readPrivateKey(clientKeyPem), chain.toArray(X509Certificate[]::new));
        }
        return context(kmf, trustManagers(cas));
    }

    /** A client context from in-memory material. */
    public static SSLContext client(X509Certificate ca, IssuedCertificate clientCert) {
        KeyManagerFactory kmf = clientCert == null ? null : keyManagers(clientCert.privateKey(), clientCert.chain());
        return context(kmf, trustManagers(List.of(ca)));
    }

    /** A server context presenting {@code serverCert}. */
    public static SSLContext server(IssuedCertificate serverCert) {
        return context(keyManagers(serverCert.privateKey(), serverCert.chain()), null);
    }

    private static SSLContext context(KeyManagerFactory kmf, TrustManagerFactory tmf) {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new PkiException("initialising a TLS context failed", e);
        }
    }
}
