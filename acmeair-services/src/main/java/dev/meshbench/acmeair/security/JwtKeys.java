package dev.meshbench.acmeair.security;

import dev.meshbench.pki.KeyType;
import dev.meshbench.pki.Pem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * The RSA key pair that signs and verifies Acmeair's JWTs, as PEM files: the private key (PKCS#8, owner-only) for
 * auth, the public key ({@code PUBLIC KEY}, or a {@code CERTIFICATE} carrying it) for customer and booking.
 */
public final class JwtKeys {
    public static final String PRIVATE_FILE = "jwt-private.pem";
    public static final String PUBLIC_FILE = "jwt-public.pem";

    private JwtKeys() {
    }

    /** Where {@link #generate(Path)} wrote the pair. */
    public record KeyFiles(Path privateKey, Path publicKey) {
    }

    /** Makes a fresh RSA 2048 pair and writes {@code jwt-private.pem} and {@code jwt-public.pem} into {@code dir}. */
    public static KeyFiles generate(Path dir) {
        KeyPair kp = KeyType.RSA_2048.generate();
        Path priv = dir.resolve(PRIVATE_FILE).toAbsolutePath();
        Path pub = dir.resolve(PUBLIC_FILE).toAbsolutePath();
        Pem.writePrivateKey(priv, kp.getPrivate());
        writePublicKey(pub, kp.getPublic());
        return new KeyFiles(priv, pub);
    }

    public static void writePublicKey(Path file, PublicKey key) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded());
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalStateException("writing JWT public key " + file + " failed: " + e.getMessage(), e);
        }
    }

    public static RSAPrivateKey readPrivateKey(Path file) {
        PrivateKey k = Pem.readPrivateKey(file);
        if (k instanceof RSAPrivateKey rsa) {
            return rsa;
        }
        throw new IllegalArgumentException("JWT private key " + file + " is " + k.getAlgorithm() + ", RS256 needs an RSA key");
    }

    public static RSAPublicKey readPublicKey(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalArgumentException("reading JWT public key " + file + " failed: " + e.getMessage(), e);
        }
        PublicKey key;
        if (text.contains("-----BEGIN CERTIFICATE-----")) {
            key = Pem.readCertificates(file).get(0).getPublicKey();
        } else {
            int start = text.indexOf("-----BEGIN PUBLIC KEY-----");
            int end = text.indexOf("-----END PUBLIC KEY-----");
            if (start < 0 || end < start) {
                throw new IllegalArgumentException("JWT public key " + file + " holds neither a PEM PUBLIC KEY nor a CERTIFICATE");
            }
            String b64 = text.substring(start + "-----BEGIN PUBLIC KEY-----".length(), end).replaceAll("\\s", "");
            try {
                key = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(b64)));
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw new IllegalArgumentException("JWT public key " + file + " is not an RSA public key: " + e.getMessage(), e);
            }
        }
        if (key instanceof RSAPublicKey rsa) {
            return rsa;
        }
        throw new IllegalArgumentException("JWT public key " + file + " is " + key.getAlgorithm() + ", RS256 needs an RSA key");
    }
}
