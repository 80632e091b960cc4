package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.orchestrator.deploy.TargetException;
import io.fabric8.kubernetes.api.model.Service;
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
 * How a deployment reaches Services of the cluster that no URL setting names: port-forwards (through the API server,
 * to one pod each), closed together when it ends (closing twice is harmless), or, with
 * {@code meshbench.kubernetes.serviceAccess=cluster-ip}, the Service's ClusterIP, when this machine is in the
 * cluster's network and a forward would only limit the rate.
 */
final class PortForwards implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PortForwards.class);

    private final KubernetesClient client;
    private final boolean clusterIps;
    private final List<LocalPortForward> open = new ArrayList<>();

    PortForwards(KubernetesClient client, boolean clusterIps) {
        this.client = Objects.requireNonNull(client, "client");
        this.clusterIps = clusterIps;
    }

    /** How {@link #open} reaches a Service, for progress lines: "a port-forward" or "its ClusterIP". */
    String how() {
        return clusterIps ? "its ClusterIP" : "a port-forward";
    }

    /**
     * What a progress line adds after naming a forwarded entry: empty with ClusterIPs, else that the forward limits
     * the rate and the settings that avoid it ({@code urlProperty}, or ClusterIPs).
     */
    String rateNote(String urlProperty) {
        return clusterIps ? "" : "; a port-forward goes through the API server to one pod and limits the rate: set -D" + urlProperty
                + " or -D" + KubernetesSettings.P_SERVICE_ACCESS + "=cluster-ip for figures to compare";
    }

    /**
     * Forwards a free loopback port to {@code port} of Service {@code namespace/service}, or with ClusterIPs returns
     * the Service's; {@code hint} (may be empty) is added to the error, e.g. the property that avoids the forward.
     *
     * @return {@code http://127.0.0.1:<local port>}, or {@code http://<cluster IP>:<port>}
     * @throws TargetException no such Service, a Service without a ClusterIP, or the forward failed
     */
    synchronized URI open(String namespace, String service, int port, String hint) {
        if (clusterIps) {
            return clusterIp(namespace, service, port, hint);
        }
        try {
            LocalPortForward f = client.services().inNamespace(namespace).withName(service).portForward(port, 0);
            open.add(f);
            return URI.create("http://127.0.0.1:" + f.getLocalPort());
        } catch (KubernetesClientException e) {
            throw new TargetException("port-forwarding to Service " + namespace + "/" + service + " port " + port + hint + " failed: "
                    + ClusterOps.reason(e), e);
        }
    }

    /**
     * After the pods behind Service {@code namespace/service} were replaced: a port-forward goes to the pod it found
     * when opened, so {@code old}'s forward is closed and one to a ready pod of the Service opened on the same local
     * port, so that whoever was given {@code old} (the load generator) keeps using it; on another port only when that one
     * cannot be bound again. A ClusterIP stays as it is.
     *
     * @return where the Service is reached now
     * @throws TargetException no ready pod, or the forward failed
     */
    synchronized URI reopen(URI old, String namespace, String service, int port) {
        if (clusterIps) {
            return old;
        }
        for (java.util.Iterator<LocalPortForward> it = open.iterator(); it.hasNext();) {
            LocalPortForward f = it.next();
            if (f.getLocalPort() == old.getPort()) {
                try {
                    f.close();
                } catch (IOException | RuntimeException e) {
                    LOG.debug("closing the port-forward on {}: {}", old, e.toString());
                }
                it.remove();
            }
        }
        String pod = readyPod(namespace, service);
        try {
            LocalPortForward f;
            try {
                f = client.pods().inNamespace(namespace).withName(pod).portForward(port, old.getPort());
            } catch (RuntimeException bindFailed) {
                LOG.warn("port {} for Service {}/{} could not be bound again ({}); forwarding from another", old.getPort(), namespace,
                        service, bindFailed.toString());
                f = client.pods().inNamespace(namespace).withName(pod).portForward(port, 0);
            }
            open.add(f);
            return URI.create("http://127.0.0.1:" + f.getLocalPort());
        } catch (KubernetesClientException e) {
            throw new TargetException("port-forwarding to pod " + namespace + "/" + pod + " (Service " + service + ") port " + port
                    + " failed: " + ClusterOps.reason(e), e);
        }
    }

    /** A pod behind the Service that is ready and not being deleted. */
    private String readyPod(String namespace, String service) {
        try {
            Service s = client.services().inNamespace(namespace).withName(service).get();
            if (s == null || s.getSpec() == null || s.getSpec().getSelector() == null) {
                throw new TargetException("Service " + namespace + "/" + service + " does not exist or selects no pods");
            }
            return client.pods().inNamespace(namespace).withLabels(s.getSpec().getSelector()).list().getItems().stream()
                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                            && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                    .map(p -> p.getMetadata().getName()).sorted().findFirst()
                    .orElseThrow(() -> new TargetException("no ready pod behind Service " + namespace + "/" + service));
        } catch (KubernetesClientException e) {
            throw new TargetException("finding a ready pod of Service " + namespace + "/" + service + " failed: " + ClusterOps.reason(e), e);
        }
    }

    private URI clusterIp(String namespace, String service, int port, String hint) {
        Service s;
        try {
            s = client.services().inNamespace(namespace).withName(service).get();
        } catch (KubernetesClientException e) {
            throw new TargetException("reading Service " + namespace + "/" + service + hint + " failed: " + ClusterOps.reason(e), e);
        }
        if (s == null) {
            throw new TargetException("Service " + namespace + "/" + service + hint + " does not exist");
        }
        String ip = s.getSpec() == null ? null : s.getSpec().getClusterIP();
        if (ip == null || ip.isBlank() || "None".equals(ip)) {
            throw new TargetException("Service " + namespace + "/" + service + " has no ClusterIP (headless?), so -D"
                    + KubernetesSettings.P_SERVICE_ACCESS + "=cluster-ip cannot reach it" + hint);
        }
        return URI.create("http://" + (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port);
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
