package dev.meshbench.pki;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;

/** Key algorithms the kit issues certificates for. */
public enum KeyType {
    /** ECDSA on P-256: what Istio workloads can use, and cheap to generate per run. */
    EC_P256("SHA256withECDSA"),
    /** RSA 2048: Istio's default workload key, and what RS256 JWTs need. */
    RSA_2048("SHA256withRSA");

    private final String signatureAlgorithm;

    KeyType(String signatureAlgorithm) {
        this.signatureAlgorithm = signatureAlgorithm;
    }

    public String signatureAlgorithm() {
        return signatureAlgorithm;
    }

    public KeyPair generate() {
        try {
            return switch (this) {
                case EC_P256 -> {
                    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
                    g.initialize(new ECGenParameterSpec("secp256r1"));
                    yield g.generateKeyPair();
                }
                case RSA_2048 -> {
                    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
                    g.initialize(2048);
                    yield g.generateKeyPair();
                }
            };
        } catch (GeneralSecurityException e) {
            throw new PkiException("generating a " + this + " key pair failed", e);
        }
    }
}
