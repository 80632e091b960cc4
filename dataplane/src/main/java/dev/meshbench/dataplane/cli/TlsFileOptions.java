package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.pki.PkiException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The mesh CA and workload PEM files of the sidecar and the egress gateway (a picocli mixin). */
final class TlsFileOptions {
    static final String CA_FILE = "--ca-file";
    static final String CERT_FILE = "--cert-file";
    static final String KEY_FILE = "--key-file";

    @Option(names = CA_FILE, paramLabel = "CA.pem", description = "PEM file of the mesh CA; the three files are required for mutual TLS.")
    Path caFile;

    @Option(names = CERT_FILE, paramLabel = "WORKLOAD.crt", description = "PEM certificate chain of this workload.")
    Path certFile;

    @Option(names = KEY_FILE, paramLabel = "WORKLOAD.key", description = "PEM private key of this workload.")
    Path keyFile;

    /**
     * The TLS material, or {@code null} when no file is given and {@code needed} is false.
     *
     * @throws IllegalArgumentException naming the option
     */
    TlsMaterial material(boolean needed) {
        Map<String, Path> files = new LinkedHashMap<>();
        files.put(CA_FILE, caFile);
        files.put(CERT_FILE, certFile);
        files.put(KEY_FILE, keyFile);
        boolean any = files.values().stream().anyMatch(f -> f != null);
        if (!any && !needed) {
            return null;
        }
        files.forEach((option, file) -> {
            if (file == null) {
                throw new IllegalArgumentException(option + " is required " + (needed ? "for mutual TLS"
                        : "with " + CA_FILE + ", " + CERT_FILE + " and " + KEY_FILE) + " (give all three)");
            }
        });
        try {
            return TlsMaterial.fromPemFiles(caFile, certFile, keyFile);
        } catch (PkiException | IllegalArgumentException e) {
            throw new IllegalArgumentException(CA_FILE + "/" + CERT_FILE + "/" + KEY_FILE + ": " + e.getMessage(), e);
        }
    }
}
