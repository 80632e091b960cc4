package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.orchestrator.deploy.Target;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A Kubernetes cluster with Istio: each case is {@code istio-config}'s overlay, applied by server-side apply into
 * one namespace of the kit's own; CPU per pod and container comes from Prometheus. With {@code ingress} the load
 * enters through Istio's ingress gateway (base's Gateway and path-prefix VirtualService), without it it goes to each
 * service directly.
 */
public final class KubernetesTarget implements Target {
    /** The data plane's name in results: Istio's Envoy proxies, nginx as SNI proxy. */
    public static final String DATA_PLANE = "istio";

    private final KubernetesSettings settings;
    private final int customers;
    private final int flightDays;
    private final WorkloadInfo workload;
    private final boolean ingress;
    private final Supplier<KubernetesClient> clients;
    private final ClusterOps.Applier applier;
    private final java.util.function.Function<KubernetesClient, ProxyAdmin> proxyAdmin;
    private final PrintStream progress;

    /**
     * @param ingress whether the load goes through Istio's ingress gateway ({@code meshbench.ingress},
     *                {@code PlanOptions.ingress()}); without it {@code meshbench.ingressUrl} is refused, naming both
     * @param clients makes the client a deployment uses and closes (tests pass the mock server's)
     * @param applier how resources are written ({@link ClusterOps.Applier#SERVER_SIDE} on a real cluster)
     * @throws IllegalArgumentException {@code ingressUrl} set with {@code ingress} off
     */
    public KubernetesTarget(KubernetesSettings settings, int customers, int flightDays, WorkloadInfo workload, boolean ingress,
            Supplier<KubernetesClient> clients, ClusterOps.Applier applier, PrintStream progress) {
        this(settings, customers, flightDays, workload, ingress, clients, applier, client -> ProxyAdmin.exec(client, PROXY_READ_TIMEOUT),
                progress);
    }

    /** How long one read of a proxy's Envoy admin may take. */
    static final java.time.Duration PROXY_READ_TIMEOUT = java.time.Duration.ofSeconds(20);

    /**
     * As above, reading the proxies' Envoy admin with {@code proxyAdmin} (made with each deployment's client; tests
     * pass Envoys of their own).
     */
    KubernetesTarget(KubernetesSettings settings, int customers, int flightDays, WorkloadInfo workload, boolean ingress,
            Supplier<KubernetesClient> clients, ClusterOps.Applier applier,
            java.util.function.Function<KubernetesClient, ProxyAdmin> proxyAdmin, PrintStream progress) {
        this.proxyAdmin = Objects.requireNonNull(proxyAdmin, "proxyAdmin");
        this.settings = Objects.requireNonNull(settings, "settings");
        if (!ingress && settings.ingressUrl().isPresent()) {
            throw new IllegalArgumentException(KubernetesSettings.P_INGRESS_URL + "=" + settings.ingressUrl().get() + " with "
                    + RunSettings.P_INGRESS + "=false: the URL is where this machine reaches Istio's ingress gateway, which "
                    + RunSettings.P_INGRESS + "=false bypasses (the load goes to each service directly); drop one of the two");
        }
        this.ingress = ingress;
        this.customers = customers;
        this.flightDays = flightDays;
        this.workload = Objects.requireNonNull(workload, "workload");
        this.clients = Objects.requireNonNull(clients, "clients");
        this.applier = Objects.requireNonNull(applier, "applier");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** A target whose clients come from the settings' kubeconfig, or the usual places. */
    public static KubernetesTarget of(KubernetesSettings settings, int customers, int flightDays, WorkloadInfo workload,
            boolean ingress, PrintStream progress) {
        return new KubernetesTarget(settings, customers, flightDays, workload, ingress, () -> client(settings),
                ClusterOps.Applier.SERVER_SIDE, progress);
    }

    static KubernetesClient client(KubernetesSettings s) {
        Config config;
        if (s.kubeconfig().isPresent()) {
            Path file = s.kubeconfig().get();
            try {
                config = Config.fromKubeconfig(file.toFile());
            } catch (RuntimeException e) {
                throw new TargetException(KubernetesSettings.P_KUBECONFIG + "=" + file + ": cannot be read: " + e.getMessage(), e);
            }
        } else {
            config = Config.autoConfigure(null);
        }
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    @Override
    public dev.meshbench.results.TargetKind kind() {
        return dev.meshbench.results.TargetKind.KUBERNETES;
    }

    @Override
    public KubernetesDeployment deploy(EgressCase egressCase, Path logDir) {
        return deploy(egressCase, List.of(egressCase), logDir);
    }

    /**
     * Deploys {@code first} into the namespace, every case of {@code reachable} rendered (with one JWT key pair) so that
     * {@link KubernetesDeployment#apply} switches to it in the same namespace.
     */
    @Override
    public KubernetesDeployment deploy(EgressCase first, List<EgressCase> reachable, Path logDir) {
        return KubernetesDeployment.start(first, reachable, settings, customers, flightDays, workload, ingress, clients.get(), applier,
                proxyAdmin, progress);
    }

    @Override
    public boolean switchesCases() {
        return true;
    }

    /** The services' pods restart: istio-init sets the sidecar's exclusion when a pod starts. */
    @Override
    public Optional<String> bypassSwitch() {
        return Optional.of(BYPASS_SWITCH);
    }

    /** {@link #bypassSwitch()}'s words. */
    public static final String BYPASS_SWITCH = "the services' pods restarted with istio-init's excluded CIDR ("
            + KubernetesDeployment.EXCLUDE_OUTBOUND + ") added or removed; their JVMs start cold";

    /** Istio's proxies; their versions are read from the cluster when the case is deployed. */
    @Override
    public DataPlaneInfo dataPlane() {
        return plannedDataPlane(ingress);
    }

    /** The kubelet's cAdvisor counter of each container's cgroup, read from Prometheus at its scrape interval. */
    @Override
    public String cpuMethod() {
        return "cAdvisor " + dev.meshbench.orchestrator.kubernetes.prometheus.ContainerCpu.METRIC + " from Prometheus";
    }

    /**
     * Istio's proxies as planned on any cluster: auto-mTLS on, BoringSSL (Envoy's), versions read per deployment;
     * {@code ingress}: whether the load goes through the ingress gateway.
     */
    static DataPlaneInfo plannedDataPlane(boolean ingress) {
        return new DataPlaneInfo(DATA_PLANE, Map.of(), null, true, ingress, "BoringSSL");
    }

    public KubernetesSettings settings() {
        return settings;
    }

    /** Whether the load goes through Istio's ingress gateway. */
    public boolean ingress() {
        return ingress;
    }
}
