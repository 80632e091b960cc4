package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What both studies' deployments on a cluster share: the manifests applied into the kit's namespace, the client, the
 * port-forwards, and the teardown. {@link #close} closes the port-forwards and deletes the namespace with everything
 * applied (unless {@code meshbench.keep}); it runs on every exit path and closing twice is harmless.
 */
abstract class AppliedOnCluster implements AutoCloseable {
    final KubernetesSettings settings;
    final KubernetesClient client;
    final ClusterOps ops;
    final PrintStream progress;
    /** The manifests applied now: a deployment that switches case replaces them ({@link #switchManifests}). */
    volatile List<ObjectNode> docs;
    volatile List<HasMetadata> resources;
    final PortForwards forwards;
    final Instant started = Instant.now();
    private boolean closed;

    AppliedOnCluster(KubernetesSettings settings, KubernetesClient client, ClusterOps ops, PrintStream progress, List<ObjectNode> docs,
            List<HasMetadata> resources) {
        this.settings = settings;
        this.client = client;
        this.ops = ops;
        this.progress = progress;
        this.docs = docs;
        this.resources = resources;
        this.forwards = new PortForwards(client, settings.clusterIps());
    }

    /** After a switch: the manifests applied now. */
    void switchManifests(List<ObjectNode> nextDocs, List<HasMetadata> nextResources) {
        this.docs = List.copyOf(nextDocs);
        this.resources = List.copyOf(nextResources);
    }

    /** The case or cell applied, for progress lines. */
    abstract String name();

    /** A cluster's components are restarted by Kubernetes, not watched for death by the kit: never set. */
    public Optional<String> failure() {
        return Optional.empty();
    }

    public KubernetesClient client() {
        return client;
    }

    /** The resources applied, in order. */
    public List<HasMetadata> resources() {
        return resources;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        forwards.close();
        try {
            ops.teardownOrKeep(settings.keep(), name(), progress);
        } finally {
            client.close();
        }
    }
}
