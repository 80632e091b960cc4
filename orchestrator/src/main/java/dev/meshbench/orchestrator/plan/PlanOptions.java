package dev.meshbench.orchestrator.plan;

import java.util.Objects;

/**
 * What shapes a case's topology besides the case itself.
 *
 * @param dataPlane   which proxies run the mesh
 * @param sidecarMtls whether sidecars speak mutual TLS to each other (Istio's auto-mTLS; off in the study's Istio 1.0)
 * @param workers     worker threads of every proxy (Envoy's {@code --concurrency}, nginx worker processes, Netty
 *                    event loops); Istio's sidecar default is 2
 * @param ingress     whether one entry (an ingress gateway routing the client API by path, as Acmeair's own Istio manifests
 *                    put in front of the services) carries the load generator's requests to the services' sidecars;
 *                    without it the load goes to each service's sidecar directly
 */
public record PlanOptions(DataPlane dataPlane, boolean sidecarMtls, int workers, boolean ingress) {
    /** The most worker threads a proxy may get: beyond it a loopback run on a laptop only measures contention. */
    public static final int MAX_WORKERS = dev.meshbench.model.settings.Catalogue.MAX_PROXY_WORKERS;

    public PlanOptions {
        Objects.requireNonNull(dataPlane, "dataPlane");
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("proxy workers (" + workers + ") must be between 1 and " + MAX_WORKERS);
        }
    }
}
