package dev.meshbench.istioconfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Istio's CRD schemas as the tests find them ({@link IstioCrdSchemaTest#crdFile(Path)}): the file looked at, and its
 * validator where the file exists.
 *
 * @param file      where the CRD file was looked for
 * @param validator null where the file is absent
 */
record IstioSchemas(Path file, CrdSchemaValidator validator) {

    /** The schemas for the checkout holding module directory {@code moduleDir}. */
    static IstioSchemas load(Path moduleDir) throws IOException {
        Path file = IstioCrdSchemaTest.crdFile(moduleDir.getParent());
        return new IstioSchemas(file, Files.isRegularFile(file) ? CrdSchemaValidator.load(file) : null);
    }

    /** Skips the calling test, saying where the CRD file was looked for and how to give it, if it is absent. */
    void assume() {
        Assumptions.assumeTrue(validator != null, () -> "Istio CRD schemas not found at " + file
                + ": put Istio's istio-crds.gen.yaml there (shared/istio-crds/ beside the checkout) or pass -D"
                + IstioCrdSchemaTest.PROPERTY + "=<path to istio-crds.gen.yaml>");
    }
}
