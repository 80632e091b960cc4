package dev.meshbench.pki;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made for one run: its key never leaves memory unless a caller writes it, and
 * nothing it issues is meant to outlive the run. Thread-safe.
 */
public final class CertificateAuthority {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KeyPair keyPair;
    private final X509Certificate certificate;
    private final KeyType keyType;

    private CertificateAuthority(KeyPair keyPair, X509Certificate certificate, KeyType keyType) {
        this.keyPair = keyPair;
        this.certificate = certificate;
        this.keyType = keyType;
    }

    /** A new self-signed CA named {@code commonName}, valid for a day. */
    public static CertificateAuthority create(String commonName) {
        return create(commonName, CertificateSpec.DEFAULT_VALIDITY, KeyType.EC_P256);
    }

    public static CertificateAuthority create(String commonName, Duration validity, KeyType keyType) {
        if (commonName == null || commonName.isBlank()) {
            throw new IllegalArgumentException("CA common name must not be blank");
        }
        KeyPair kp = keyType.generate();
        X500Name name = name(commonName, "meshbench per-run CA");
        Instant now = Instant.now();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(validity)), name, kp.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(kp.getPublic()));
            X509Certificate cert = sign(b, kp, keyType);
            return new CertificateAuthority(kp, cert, keyType);
        } catch (GeneralSecurityException | java.io.IOException | OperatorCreationException e) {
            throw new PkiException("creating CA " + commonName + " failed", e);
        }
    }

    /** The CA certificate (what clients trust). */
    public X509Certificate certificate() {
        return certificate;
    }

    /** Issues a leaf certificate as the spec says, with a fresh key. */
    public IssuedCertificate issue(CertificateSpec spec) {
        KeyPair kp = spec.keyType().generate();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(certificate, serial(),
                    Date.from(spec.notBefore()), Date.from(spec.notAfter()), name(spec.commonName(), "meshbench"), kp.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(kp.getPublic()));
            List<KeyPurposeId> purposes = new ArrayList<>();
            if (spec.serverAuth()) {
                purposes.add(KeyPurposeId.id_kp_serverAuth);
            }
            if (spec.clientAuth()) {
                purposes.add(KeyPurposeId.id_kp_clientAuth);
            }
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purposes.toArray(KeyPurposeId[]::new)));
            List<GeneralName> sans = new ArrayList<>();
            for (String dns : spec.dnsNames()) {
                sans.add(new GeneralName(GeneralName.dNSName, dns));
            }
            for (String ip : spec.ipAddresses()) {
                sans.add(new GeneralName(GeneralName.iPAddress, ipLiteral(ip)));
            }
            for (URI uri : spec.uris()) {
                sans.add(new GeneralName(GeneralName.uniformResourceIdentifier, uri.toString()));
            }
            if (!sans.isEmpty()) {
                // Critical when the subject is otherwise meaningless is RFC 5280's rule; we keep a CN, so non-critical.
                b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans.toArray(GeneralName[]::new)));
            }
            return new IssuedCertificate(kp.getPrivate(), sign(b, keyPair, keyType), certificate);
        } catch (GeneralSecurityException | java.io.IOException | OperatorCreationException e) {
            throw new PkiException("issuing a certificate for " + spec.commonName() + " failed", e);
        }
    }

    /** Writes the CA certificate (never its key) as PEM, for clients to trust. */
    public Path writeCertificatePem(Path file) {
        Pem.writeCertificates(file, List.of(certificate));
        return file;
    }

    private static String ipLiteral(String ip) {
        try {
            // Validates the literal without a DNS lookup (the argument is a literal, so none happens).
            return InetAddress.getByName(ip).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address literal: " + ip, e);
        }
    }

    private static X500Name name(String cn, String org) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, org).addRDN(BCStyle.CN, cn).build();
    }

    private static BigInteger serial() {
        return new BigInteger(96, RANDOM).abs().add(BigInteger.ONE);
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer, KeyType type)
            throws OperatorCreationException, GeneralSecurityException {
        var signerOp = new JcaContentSignerBuilder(type.signatureAlgorithm()).build(signer.getPrivate());
        X509Certificate cert = new JcaX509CertificateConverter().getCertificate(b.build(signerOp));
        cert.verify(signer.getPublic());
        return cert;
    }
}
