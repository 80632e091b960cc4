package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.orchestrator.deploy.TargetException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.LocalPortForward;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The port-forwards a deployment opened to Services of the cluster (through the API server, to one pod each),
 * closed together when it ends; closing twice is harmless.
 */
final class PortForwards implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PortForwards.class);

    private final KubernetesClient client;
    private final List<LocalPortForward> open = new ArrayList<>();

    PortForwards(KubernetesClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /**
     * Forwards a free loopback port to {@code port} of Service {@code namespace/service}; {@code hint} (may be empty)
     * is added to the error, e.g. the property that avoids the forward.
     *
     * @return {@code http://127.0.0.1:<local port>}
     */
    synchronized URI open(String namespace, String service, int port, String hint) {
        try {
            LocalPortForward f = client.services().inNamespace(namespace).withName(service).portForward(port, 0);
            open.add(f);
            return URI.create("http://127.0.0.1:" + f.getLocalPort());
        } catch (KubernetesClientException e) {
            throw new TargetException("port-forwarding to Service " + namespace + "/" + service + " port " + port + hint + " failed: "
                    + ClusterOps.reason(e), e);
        }
    }

    @Override
    public synchronized void close() {
        for (LocalPortForward f : open) {
            try {
                f.close();
            } catch (IOException | RuntimeException e) {
                LOG.debug("closing a port-forward: {}", e.toString());
            }
        }
        open.clear();
    }
}
