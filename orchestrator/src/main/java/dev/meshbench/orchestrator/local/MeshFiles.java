package dev.meshbench.orchestrator.local;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
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

    public Path certChain(String component) {
        return Objects.requireNonNull(certChains.get(component), () -> "no workload certificate issued for " + component);
    }

    public Path key(String component) {
        return Objects.requireNonNull(keys.get(component), () -> "no workload key issued for " + component);
    }
}
