package dev.meshbench.istioconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Renders a kustomization with {@code kubectl kustomize <dir>}, as the orchestrator renders a run's overlay
 * ({@code orchestrator/.../kubernetes/KubectlKustomize}, which this module cannot use: the orchestrator depends on it).
 * kubectl is required, as it is for every user of the Kubernetes target.
 */
final class KubectlKustomize {

    private KubectlKustomize() {
    }

    /**
     * The rendered documents, in kustomize's order.
     *
     * @throws AssertionError if kubectl cannot be started (not on PATH) or fails, with its error output
     */
    static List<JsonNode> render(Path dir) {
        Process process;
        try {
            process = new ProcessBuilder("kubectl", "kustomize", dir.toString()).start();
        } catch (IOException e) {
            throw new AssertionError("kubectl kustomize " + dir + ": cannot start kubectl (install kubectl 1.27 or later, "
                    + "it has kustomize v5 built in): " + e.getMessage(), e);
        }
        try {
            CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> text(process.getErrorStream()));
            String out = text(process.getInputStream());
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("kubectl kustomize " + dir + ": no answer within 60 s");
            }
            if (process.exitValue() != 0) {
                throw new AssertionError("kubectl kustomize " + dir + " failed (exit " + process.exitValue() + "): "
                        + errors.join().strip());
            }
            return parse(out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new AssertionError("interrupted while kubectl kustomize " + dir + " ran", e);
        }
    }

    private static String text(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading kubectl's output", e);
        }
    }

    private static List<JsonNode> parse(String yaml) {
        List<JsonNode> out = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = KitManifests.YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc != null && doc.isObject() && !doc.isEmpty()) {
                    out.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("parsing kubectl kustomize's output", e);
        }
        return out;
    }
}
