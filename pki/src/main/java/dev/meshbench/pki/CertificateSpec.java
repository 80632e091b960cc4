package dev.meshbench.pki;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a leaf certificate should say. Build with {@link #server(String, List)} or
 * {@link #client(String)} and adjust with the {@code with*} methods.
 *
 * @param commonName  subject CN
 * @param dnsNames    subjectAltName DNS entries (host names a client verifies)
 * @param ipAddresses subjectAltName IP entries
 * @param uris        subjectAltName URI entries (SPIFFE workload identities)
 * @param serverAuth  allowed for TLS servers
 * @param clientAuth  allowed for TLS clients
 * @param notBefore   start of validity
 * @param notAfter    end of validity
 * @param keyType     key algorithm
 */
public record CertificateSpec(String commonName, List<String> dnsNames, List<String> ipAddresses, List<URI> uris,
        boolean serverAuth, boolean clientAuth, Instant notBefore, Instant notAfter, KeyType keyType) {

    /** Certificates issued per run live a day unless told otherwise. */
    public static final Duration DEFAULT_VALIDITY = Duration.ofDays(1);

    public CertificateSpec {
        Objects.requireNonNull(commonName, "commonName");
        if (commonName.isBlank()) {
            throw new IllegalArgumentException("certificate common name must not be blank");
        }
        dnsNames = List.copyOf(dnsNames);
        ipAddresses = List.copyOf(ipAddresses);
        uris = List.copyOf(uris);
        Objects.requireNonNull(notBefore, "notBefore");
        Objects.requireNonNull(notAfter, "notAfter");
        if (!notAfter.isAfter(notBefore)) {
            throw new IllegalArgumentException("certificate for " + commonName + ": notAfter (" + notAfter
                    + ") must be after notBefore (" + notBefore + ")");
        }
        if (!serverAuth && !clientAuth) {
            throw new IllegalArgumentException("certificate for " + commonName + " must allow server or client auth");
        }
        Objects.requireNonNull(keyType, "keyType");
    }

    /** A server certificate for the given host names (and 127.0.0.1 / ::1 when "localhost" is among them). */
    public static CertificateSpec server(String commonName, List<String> dnsNames) {
        Instant now = Instant.now();
        List<String> ips = dnsNames.contains("localhost") ? List.of("127.0.0.1", "::1") : List.of();
        return new CertificateSpec(commonName, dnsNames, ips, List.of(), true, false,
                now.minus(Duration.ofMinutes(5)), now.plus(DEFAULT_VALIDITY), KeyType.EC_P256);
    }

    /** A client certificate. */
    public static CertificateSpec client(String commonName) {
        Instant now = Instant.now();
        return new CertificateSpec(commonName, List.of(), List.of(), List.of(), false, true,
                now.minus(Duration.ofMinutes(5)), now.plus(DEFAULT_VALIDITY), KeyType.EC_P256);
    }

    /**
     * A workload certificate in the spirit of Istio's: a SPIFFE URI SAN
     * {@code spiffe://<trustDomain>/ns/<namespace>/sa/<serviceAccount>}, usable as client and server.
     */
    public static CertificateSpec workload(String trustDomain, String namespace, String serviceAccount) {
        Instant now = Instant.now();
        URI spiffe = URI.create("spiffe://" + trustDomain + "/ns/" + namespace + "/sa/" + serviceAccount);
        return new CertificateSpec(serviceAccount, List.of(), List.of(), List.of(spiffe), true, true,
                now.minus(Duration.ofMinutes(5)), now.plus(DEFAULT_VALIDITY), KeyType.EC_P256);
    }

    public CertificateSpec withValidity(Instant from, Instant to) {
        return new CertificateSpec(commonName, dnsNames, ipAddresses, uris, serverAuth, clientAuth, from, to, keyType);
    }

    public CertificateSpec withIpAddresses(List<String> ips) {
        return new CertificateSpec(commonName, dnsNames, ips, uris, serverAuth, clientAuth, notBefore, notAfter, keyType);
    }

    public CertificateSpec withKeyType(KeyType type) {
        return new CertificateSpec(commonName, dnsNames, ipAddresses, uris, serverAuth, clientAuth, notBefore, notAfter, type);
    }

    public CertificateSpec withClientAuth(boolean allowed) {
        return new CertificateSpec(commonName, dnsNames, ipAddresses, uris, serverAuth, allowed, notBefore, notAfter, keyType);
    }
}
