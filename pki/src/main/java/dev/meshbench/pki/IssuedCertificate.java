package dev.meshbench.pki;

import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * A leaf certificate with its private key and the CA that issued it.
 *
 * @param privateKey  the leaf's key
 * @param certificate the leaf certificate
 * @param issuer      the issuing CA's certificate
 */
public record IssuedCertificate(PrivateKey privateKey, X509Certificate certificate, X509Certificate issuer) {
    public IssuedCertificate {
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(issuer, "issuer");
    }

    /** Leaf then issuer, as a TLS peer presents them. */
    public X509Certificate[] chain() {
        return new X509Certificate[] {certificate, issuer};
    }

    /**
     * Writes {@code <dir>/<baseName>.crt} (leaf + CA chain) and {@code <dir>/<baseName>.key} (PKCS#8, owner-only
     * permissions where the file system has them).
     */
    public PemFiles writePem(Path dir, String baseName) {
        Path cert = dir.resolve(baseName + ".crt");
        Path key = dir.resolve(baseName + ".key");
        Pem.writeCertificates(cert, List.of(chain()));
        Pem.writePrivateKey(key, privateKey);
        return new PemFiles(cert, key);
    }

    /** Where a certificate chain and its key were written. */
    public record PemFiles(Path certificateChain, Path privateKey) {
    }

    @Override
    public String toString() {
        // Never print the key.
        return "IssuedCertificate[" + certificate.getSubjectX500Principal().getName() + "]";
    }
}
