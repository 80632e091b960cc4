package dev.meshbench.dataplane.config;

import dev.meshbench.pki.IssuedCertificate;
import dev.meshbench.pki.Pem;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * A component's mesh identity: its workload certificate chain and key, and the CA(s) it trusts for peers.
 *
 * @param trustedCas CA certificates a peer's chain must lead to
 * @param key        the workload's private key (never printed)
 * @param chain      the workload certificate first, then its issuers
 */
public record TlsMaterial(List<X509Certificate> trustedCas, PrivateKey key, List<X509Certificate> chain) {
    public TlsMaterial {
        trustedCas = List.copyOf(trustedCas);
        chain = List.copyOf(chain);
        Objects.requireNonNull(key, "key");
        if (trustedCas.isEmpty()) {
            throw new IllegalArgumentException("TLS material needs at least one trusted CA certificate");
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("TLS material needs a certificate chain");
        }
    }

    public static TlsMaterial of(X509Certificate ca, IssuedCertificate workload) {
        return new TlsMaterial(List.of(ca), workload.privateKey(), List.of(workload.chain()));
    }

    /** Reads PEM files; errors name the file (from {@link Pem}). */
    public static TlsMaterial fromPemFiles(Path caFile, Path certFile, Path keyFile) {
        return new TlsMaterial(Pem.readCertificates(caFile), Pem.readPrivateKey(keyFile), Pem.readCertificates(certFile));
    }

    @Override
    public String toString() {
        return "TlsMaterial[" + chain.get(0).getSubjectX500Principal().getName() + "]";
    }
}
