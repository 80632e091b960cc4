package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Identity;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import dev.meshbench.pki.IssuedCertificate;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a deployment's per-run mesh PKI lives (a private temporary folder, deleted at teardown).
 *
 * @param caPem      the mesh CA certificate
 * @param certChains workload certificate chain (PEM) per component that uses mesh mTLS
 * @param keys       private key (PEM, PKCS#8) per such component
 */
public record MeshFiles(Path caPem, Map<String, Path> certChains, Map<String, Path> keys) {
    public MeshFiles {
        Objects.requireNonNull(caPem, "caPem");
        certChains = Collections.unmodifiableMap(new LinkedHashMap<>(certChains));
        keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
    }

    /**
     * Writes {@code ca}'s certificate and a SPIFFE workload certificate and key, issued by {@code ca}, for every
     * component of {@code plan} that uses mesh mTLS, into {@code dir} ({@code mesh-ca.pem}, {@code <component>.*}).
     */
    public static MeshFiles issue(TopologyPlan plan, CertificateAuthority ca, Path dir) {
        return issue(List.of(plan), ca, dir);
    }

    /**
     * As {@link #issue(TopologyPlan, CertificateAuthority, Path)} for every component that uses mesh mTLS in any of the
     * plans, one certificate each: a deployment switched between them never waits for one, and a Netty relay, whose
     * certificate files are given when it starts, has them from the start.
     */
    public static MeshFiles issue(List<TopologyPlan> plans, CertificateAuthority ca, Path dir) {
        Path caPem = ca.writeCertificatePem(dir.resolve("mesh-ca.pem"));
        Map<String, Path> chains = new LinkedHashMap<>();
        Map<String, Path> keys = new LinkedHashMap<>();
        for (TopologyPlan plan : plans) {
            for (ComponentPlan c : plan.components()) {
                if (c.usesMeshMtls() && !chains.containsKey(c.name())) {
                    Identity id = c.identity().orElseThrow();
                    IssuedCertificate cert = ca.issue(CertificateSpec.workload(Identity.TRUST_DOMAIN, id.namespace(), id.serviceAccount()));
                    IssuedCertificate.PemFiles files = cert.writePem(dir, c.name());
                    chains.put(c.name(), files.certificateChain());
                    keys.put(c.name(), files.privateKey());
                }
            }
        }
        return new MeshFiles(caPem, chains, keys);
    }

    /** Whether a workload certificate was issued for {@code component}. */
    public boolean has(String component) {
        return certChains.containsKey(component);
    }

    public Path certChain(String component) {
        return Objects.requireNonNull(certChains.get(component), () -> "no workload certificate issued for " + component);
    }

    public Path key(String component) {
        return Objects.requireNonNull(keys.get(component), () -> "no workload key issued for " + component);
    }
}
