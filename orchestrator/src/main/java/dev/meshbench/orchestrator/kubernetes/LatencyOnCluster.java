package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.orchestrator.latency.LatencyCell;
import dev.meshbench.orchestrator.local.CpuSets;
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.results.DataPlaneInfo;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the latency study checks and records before it runs on a cluster ({@code meshbench.target=kubernetes}),
 * before anything is created: the local target's settings that a cluster cannot honour are refused by name, every
 * selected cell must have manifests in {@code istio-config/latency/cells}.
 */
public final class LatencyOnCluster {
    private LatencyOnCluster() {
    }

    /**
     * Refuses what only the local target can do: choosing the data plane or its proxies' workers (the cluster runs
     * Istio's), turning sidecar mTLS off (Istio's auto-mTLS decides; the cells apply no PeerAuthentication), and CPU
     * sets (the cluster's scheduler places the pods).
     */
    public static void refuseLocalOnly(Map<String, String> props) {
        String dataPlane = props.get(RunSettings.P_DATAPLANE);
        if (dataPlane != null) {
            throw new IllegalArgumentException(RunSettings.P_DATAPLANE + "=" + dataPlane + ": on a cluster the data plane is Istio's (its "
                    + "sidecars and ingress gateway, recorded as '" + KubernetesTarget.DATA_PLANE + "'); leave " + RunSettings.P_DATAPLANE
                    + " unset with " + RunSettings.P_TARGET + "=kubernetes");
        }
        String workers = props.get(RunSettings.P_PROXY_WORKERS);
        if (workers != null) {
            throw new IllegalArgumentException(RunSettings.P_PROXY_WORKERS + "=" + workers + ": on a cluster Istio sets its proxies' "
                    + "concurrency (proxy.istio.io/config); leave " + RunSettings.P_PROXY_WORKERS + " unset with " + RunSettings.P_TARGET
                    + "=kubernetes");
        }
        String mtls = props.get(RunSettings.P_SIDECAR_MTLS);
        if (mtls != null && !mtls.trim().equalsIgnoreCase("true")) {
            throw new IllegalArgumentException(RunSettings.P_SIDECAR_MTLS + "=" + mtls + ": on a cluster Istio's auto-mTLS decides (on "
                    + "unless a PeerAuthentication says otherwise; the latency cells apply none)");
        }
        for (String key : List.of(CpuSets.P_LOADGEN, CpuSets.P_SERVICES, CpuSets.P_MESH, CpuSets.P_MONGO)) {
            if (props.get(key) != null && !props.get(key).isBlank()) {
                throw new IllegalArgumentException(key + "=" + props.get(key) + ": CPU sets are for the local target; on a cluster "
                        + "the scheduler places the pods");
            }
        }
    }

    /** Renders every cell once, so that a cell without manifests (a graph of the user's own) stops the run before any cell. */
    public static void checkCells(List<LatencyCell> cells, KubernetesSettings settings) {
        for (LatencyCell cell : cells) {
            LatencyManifests.render(cell, settings.namespace(), settings.images(), KubectlKustomize.find(settings.kubectl()),
                    java.util.Optional.empty());
        }
    }

    /**
     * The data plane cells on a cluster run: Istio's proxies; versions are read from the cluster per cell, and
     * {@link dev.meshbench.orchestrator.latency.LatencyRunner} sets each cell's own ingress.
     */
    public static DataPlaneInfo plannedDataPlane() {
        return KubernetesTarget.plannedDataPlane(false);
    }

    /** The cluster settings a cell's results record (no kubeconfig, nothing secret). */
    public static Map<String, String> recordedSettings(KubernetesSettings s) {
        Map<String, String> out = new TreeMap<>();
        out.put(RunSettings.P_TARGET, "kubernetes");
        out.put(KubernetesSettings.P_NAMESPACE, s.namespace());
        out.put(KubernetesSettings.P_IMAGE_SERVICES, s.images().getOrDefault(KubernetesSettings.SERVICES_IMAGE,
                "istio-config's default (latency/services/<graph>/kustomization.yaml)"));
        String access = s.clusterIps() ? "none: ClusterIP" : "none: port-forward";
        out.put(KubernetesSettings.P_INGRESS_URL, s.ingressUrl().map(Object::toString).orElse(access));
        out.put(KubernetesSettings.P_ENTRYPOINT_URL, s.entrypointUrl().map(Object::toString).orElse(access));
        out.put(KubernetesSettings.P_SERVICE_ACCESS, s.clusterIps() ? "cluster-ip" : "port-forward");
        out.put(KubernetesSettings.P_INGRESS_GATEWAY_NAMESPACE, s.ingressGatewayNamespace());
        out.put(KubernetesSettings.P_PROMETHEUS_URL, s.prometheusUrl().map(Object::toString)
                .orElse(access + " to " + s.prometheusService()));
        out.put(KubernetesSettings.P_KEEP, Boolean.toString(s.keep()));
        return out;
    }
}
