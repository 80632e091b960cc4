package dev.meshbench.orchestrator.plan;

import java.net.URI;
import java.util.Objects;

/**
 * A workload's mesh identity, as Istio derives it from namespace and service account.
 *
 * @param namespace      Kubernetes namespace ({@code acmeair}, {@code istio-system})
 * @param serviceAccount service account ({@code booking}, {@code istio-egressgateway})
 */
public record Identity(String namespace, String serviceAccount) {
    /** Istio's default trust domain. */
    public static final String TRUST_DOMAIN = "cluster.local";

    public Identity {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(serviceAccount, "serviceAccount");
    }

    /** {@code spiffe://cluster.local/ns/<namespace>/sa/<serviceAccount>}: the URI SAN of its certificate. */
    public URI spiffeId() {
        return URI.create("spiffe://" + TRUST_DOMAIN + "/ns/" + namespace + "/sa/" + serviceAccount);
    }
}
