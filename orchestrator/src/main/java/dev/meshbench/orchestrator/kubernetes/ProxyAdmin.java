package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.orchestrator.deploy.TargetException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads an Istio proxy's own Envoy admin API ({@code config_dump}, {@code clusters}, {@code stats}) in a pod: what the
 * proxy really has, not what the control plane meant to send it.
 */
@FunctionalInterface
interface ProxyAdmin {
    /** The container Istio injects (sidecars) or runs (gateways) its proxy in. */
    String CONTAINER = "istio-proxy";

    /**
     * {@code GET path} of the Envoy admin of the proxy in pod {@code namespace/pod}; its body.
     *
     * @param path relative to the admin's root, query included, e.g. {@code config_dump?resource=dynamic_listeners}
     * @throws TargetException the pod or proxy could not be asked, naming it and why
     */
    String get(String namespace, String pod, String path);

    /**
     * Through the API server, as {@code kubectl exec <pod> -c istio-proxy -- pilot-agent request GET <path>} (Istio's own
     * way to its Envoy's admin, which listens on the pod's loopback only).
     */
    static ProxyAdmin exec(KubernetesClient client, Duration timeout) {
        return (namespace, pod, path) -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            CompletableFuture<Void> closed = new CompletableFuture<>();
            String what = "asking the proxy of pod " + namespace + "/" + pod + " for " + path;
            try (ExecWatch watch = client.pods().inNamespace(namespace).withName(pod).inContainer(CONTAINER).writingOutput(out)
                    .writingError(err).usingListener(new ExecListener() {
                        @Override
                        public void onFailure(Throwable t, Response failureResponse) {
                            closed.completeExceptionally(t);
                        }

                        @Override
                        public void onClose(int code, String reason) {
                            closed.complete(null);
                        }
                    }).exec("pilot-agent", "request", "GET", path)) {
                long deadline = System.nanoTime() + timeout.toNanos();
                Integer exit;
                try {
                    exit = watch.exitCode().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    throw new TargetException(what + " failed: pilot-agent did not exit within " + timeout.toSeconds() + " s", e);
                }
                // The exit code arrives on its own channel; the output is complete once the stream has closed.
                try {
                    closed.get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    throw new TargetException(what + " failed: pilot-agent exited with " + exit + " but its output did not end within "
                            + timeout.toSeconds() + " s (" + out.size() + " bytes so far)", e);
                }
                if (exit == null || exit != 0) {
                    throw new TargetException(what + " failed: pilot-agent exited with " + exit + ": "
                            + MongoRoutes.abbreviate(err.toString(StandardCharsets.UTF_8)));
                }
                return out.toString(StandardCharsets.UTF_8);
            } catch (KubernetesClientException e) {
                throw new TargetException(what + " failed: " + ClusterOps.reason(e), e);
            } catch (ExecutionException e) {
                throw new TargetException(what + " failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException(what + " interrupted");
            }
        };
    }
}
