package dev.meshbench.pki;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/** Reads and writes PEM certificates and keys, with errors that name the file. */
public final class Pem {
    private Pem() {
    }

    public static void writeCertificates(Path file, List<X509Certificate> certificates) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            for (X509Certificate c : certificates) {
                w.writeObject(c);
            }
        } catch (IOException e) {
            throw new PkiException("encoding certificates for " + file + " failed", e);
        }
        write(file, out.toString(), false);
    }

    /** Writes an unencrypted PKCS#8 key, readable by its owner only where POSIX permissions exist. */
    public static void writePrivateKey(Path file, PrivateKey key) {
        write(file, privateKey(key, file.toString()), true);
    }

    /** An unencrypted PKCS#8 key as PEM text, for a Kubernetes Secret; never log it. */
    public static String privateKey(PrivateKey key) {
        return privateKey(key, "a Secret");
    }

    private static String privateKey(PrivateKey key, String what) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(new JcaPKCS8Generator(key, null));
        } catch (IOException e) {
            throw new PkiException("encoding the private key for " + what + " failed", e);
        }
        return out.toString();
    }

    /** Writes a public key as a PEM {@code PUBLIC KEY} (SubjectPublicKeyInfo), e.g. for JWT verifiers. */
    public static void writePublicKey(Path file, PublicKey key) {
        write(file, publicKey(key), false);
    }

    /** A public key as PEM {@code PUBLIC KEY} text. */
    public static String publicKey(PublicKey key) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(key);
        } catch (IOException e) {
            throw new PkiException("encoding a public key failed", e);
        }
        return out.toString();
    }

    public static PublicKey readPublicKey(Path file) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            Object o;
            while ((o = p.readObject()) != null) {
                if (o instanceof SubjectPublicKeyInfo info) {
                    return new JcaPEMKeyConverter().getPublicKey(info);
                }
            }
        } catch (NoSuchFileException e) {
            throw new PkiException("public key file " + file + " does not exist");
        } catch (IOException e) {
            throw new PkiException("reading the public key from " + file + " failed", e);
        }
        throw new PkiException("public key file " + file + " holds no PEM public key");
    }

    public static List<X509Certificate> readCertificates(Path file) {
        List<X509Certificate> certs = new ArrayList<>();
        JcaX509CertificateConverter conv = new JcaX509CertificateConverter();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            Object o;
            while ((o = p.readObject()) != null) {
                if (o instanceof X509CertificateHolder h) {
                    certs.add(conv.getCertificate(h));
                }
            }
        } catch (NoSuchFileException e) {
            throw new PkiException("certificate file " + file + " does not exist");
        } catch (IOException | CertificateException e) {
            throw new PkiException("reading certificates from " + file + " failed", e);
        }
        if (certs.isEmpty()) {
            throw new PkiException("certificate file " + file + " holds no PEM certificate");
        }
        return certs;
    }

    public static PrivateKey readPrivateKey(Path file) {
        JcaPEMKeyConverter conv = new JcaPEMKeyConverter();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            Object o;
            while ((o = p.readObject()) != null) {
                if (o instanceof PrivateKeyInfo info) {
                    return conv.getPrivateKey(info);
                }
                if (o instanceof PEMKeyPair pair) {
                    return conv.getKeyPair(pair).getPrivate();
                }
            }
        } catch (NoSuchFileException e) {
            throw new PkiException("key file " + file + " does not exist");
        } catch (IOException e) {
            throw new PkiException("reading the private key from " + file + " failed", e);
        }
        throw new PkiException("key file " + file + " holds no unencrypted PEM private key");
    }

    private static void write(Path file, String text, boolean secret) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (secret) {
                Files.deleteIfExists(file);
                try {
                    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                } catch (UnsupportedOperationException e) {
                    Files.createFile(file);
                }
            }
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                w.write(text);
            }
        } catch (FileAlreadyExistsException e) {
            throw new PkiException("could not replace " + file, e);
        } catch (IOException e) {
            throw new PkiException("writing " + file + " failed", e);
        }
    }
}
