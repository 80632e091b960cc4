package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.model.Service;
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.orchestrator.deploy.AcmeairData;
import dev.meshbench.orchestrator.deploy.AdminEndpoints;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.orchestrator.deploy.Endpoints;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.pki.KeyType;
import dev.meshbench.pki.Pem;
import dev.meshbench.results.ClusterInfo;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One case on a cluster. {@link #start} checks the prerequisites, removes what another case added, and applies this
 * case's manifests; {@link #awaitReady} waits for the rollouts (and Istio's egress and ingress gateways where the
 * case and {@code ingress} use them), opens the entry to the services, loads the database and waits until Prometheus
 * has series for every component. {@link #close} tears everything down unless {@code keep} is set; it runs on every
 * exit path (the runner's shutdown hook covers Ctrl-C).
 *
 * <p>The entry: with {@code ingress} ({@code meshbench.ingress=true}, the default) every service's load goes to
 * Istio's ingress gateway, which routes the client API only ({@code istio-config/base/ingress.yaml}): to
 * {@code meshbench.ingressUrl} if set (the gateway as this machine reaches it), else to a port-forward (or the
 * ClusterIP, {@code meshbench.kubernetes.serviceAccess}) to the
 * gateway's Service on the Gateway's port; its pods' {@code istio-proxy} is the component {@code ingress-gateway}
 * (role mesh). Without {@code ingress}, a port-forward to each service's Service, straight to its pod.
 */
public final class KubernetesDeployment extends AppliedOnCluster implements Deployment {
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesDeployment.class);
    private static final int SERVICE_PORT = 8080;

    private final EgressCase egressCase;
    private final int customers;
    private final int flightDays;
    private final WorkloadInfo workload;
    private final boolean ingress;
    private final List<io.fabric8.kubernetes.api.model.apps.Deployment> ingressGateways;
    private final Map<String, URI> serviceEndpoints = new LinkedHashMap<>();
    private final Map<String, URI> serviceAdmin = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private List<io.fabric8.kubernetes.api.model.apps.Deployment> istioGateways = List.of();
    private ClusterCpu cpu;

    private KubernetesDeployment(EgressCase egressCase, KubernetesSettings settings, int customers, int flightDays,
            WorkloadInfo workload, List<io.fabric8.kubernetes.api.model.apps.Deployment> ingressGateways, KubernetesClient client,
            ClusterOps.Applier applier, PrintStream progress, List<ObjectNode> docs, List<HasMetadata> resources) {
        super(settings, client, new ClusterOps(client, settings.namespace(), applier), progress, docs, resources);
        this.egressCase = egressCase;
        this.customers = customers;
        this.flightDays = flightDays;
        this.workload = workload;
        this.ingress = !ingressGateways.isEmpty();
        this.ingressGateways = ingressGateways;
    }

    /**
     * Checks (with {@code ingress}, Istio's ingress gateway too), switches and applies; on failure tears down what it
     * created and closes the client before throwing.
     */
    static KubernetesDeployment start(EgressCase c, KubernetesSettings s, int customers, int flightDays, WorkloadInfo workload,
            boolean ingress, KubernetesClient client, ClusterOps.Applier applier, PrintStream progress) {
        ClusterOps ops = new ClusterOps(client, s.namespace(), applier);
        List<io.fabric8.kubernetes.api.model.apps.Deployment> ingressGateways;
        try {
            ops.checkPrerequisites(c, s.egressGatewayNamespace());
            ingressGateways = ingress
                    ? ops.istioGateways(s.ingressGatewayNamespace(), ClusterOps.ISTIO_INGRESS_GATEWAY, "no ingress gateway", "case "
                            + c.id() + " sends the load through Istio's ingress gateway (-D" + RunSettings.P_INGRESS + "=true): install it "
                            + "(istioctl's default profile has it), name its namespace with -D"
                            + KubernetesSettings.P_INGRESS_GATEWAY_NAMESPACE + ", or send the load to each service directly with -D"
                            + RunSettings.P_INGRESS + "=false")
                    : List.of();
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        KeyPair jwt = KeyType.RSA_2048.generate();
        List<ObjectNode> docs = CaseManifests.render(c, s, workload,
                Map.of("private.pem", Pem.privateKey(jwt.getPrivate()), "public.pem", Pem.publicKey(jwt.getPublic())));
        if (CpuRequests.scale(docs, s.cpuRequestScale()) > 0) {
            progress.printf("[%s] CPU requests of the kit's containers scaled by %s (-D%s); limits unchanged%n", c.id(),
                    s.cpuRequestScale(), KubernetesSettings.P_CPU_REQUEST_SCALE);
        }
        List<HasMetadata> resources = CaseManifests.typed(docs, client.getKubernetesSerialization());
        KubernetesDeployment d = new KubernetesDeployment(c, s, customers, flightDays, workload, ingressGateways, client, applier,
                progress, docs, resources);
        try {
            List<String> removed = ops.removeOtherCases(c);
            if (!removed.isEmpty()) {
                progress.printf("[%s] removed what another case added: %s%n", c.id(), String.join(", ", removed));
            }
            progress.printf("[%s] applying %d resources of istio-config/%s to namespace %s at %s%n", c.id(), resources.size(),
                    c.istioConfigDir(), s.namespace(), client.getMasterUrl());
            ops.apply(resources);
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    @Override
    public EgressCase egressCase() {
        return egressCase;
    }

    public ClusterOps ops() {
        return ops;
    }

    /**
     * Waits for the rollouts only (and Istio's egress gateway in cases gateway and mtls, its ingress gateway with
     * {@code ingress}): what a check of the rollouts alone needs.
     */
    public void awaitRollouts(Duration timeout) {
        if (egressCase.passes(HopKind.EGRESS_GATEWAY) && egressCase != EgressCase.SNI) {
            istioGateways = client.apps().deployments().inNamespace(settings.egressGatewayNamespace())
                    .withLabels(ClusterOps.ISTIO_EGRESS_GATEWAY).list().getItems();
        }
        List<io.fabric8.kubernetes.api.model.apps.Deployment> gateways = new ArrayList<>(istioGateways);
        gateways.addAll(ingressGateways);
        String which = istioGateways.isEmpty()
                ? (ingress ? " and Istio's ingress gateway" : "")
                : (ingress ? " and Istio's egress and ingress gateways" : " and Istio's egress gateway");
        progress.printf("[%s] waiting for %d rollouts%s%n", egressCase.id(),
                resources.stream().filter(io.fabric8.kubernetes.api.model.apps.Deployment.class::isInstance).count(), which);
        ops.awaitRollouts(resources, gateways, timeout);
    }

    @Override
    public void awaitReady(Duration timeout) {
        awaitRollouts(settings.readyTimeout());
        openEntry();
        awaitServices(timeout);
        openAdmin();
        AcmeairData.load(http, serviceAdmin(), customers, flightDays, workload, egressCase.id(), progress);
        startCpu();
    }

    /** Where each service's load goes (see the class comment); one progress line says where. */
    void openEntry() {
        if (!ingress) {
            for (String svc : ComponentNames.SERVICES) {
                serviceEndpoints.put(svc, forwards.open(settings.namespace(), svc, SERVICE_PORT, ""));
            }
            progress.printf("[%s] load goes to each service directly (-D%s=false), through %s each %s%n", egressCase.id(),
                    RunSettings.P_INGRESS, forwards.how(), serviceEndpoints.values());
            return;
        }
        URI entry;
        if (settings.ingressUrl().isPresent()) {
            entry = settings.ingressUrl().get();
            progress.printf("[%s] load goes to %s (-D%s): Istio's ingress gateway, which routes the client API of %s to the services%n",
                    egressCase.id(), entry, KubernetesSettings.P_INGRESS_URL, services());
        } else {
            String ns = settings.ingressGatewayNamespace();
            String service = ops.istioGatewayService(ns, ClusterOps.ISTIO_INGRESS_GATEWAY).getMetadata().getName();
            int port = LatencyManifests.gatewayPort(docs).orElseThrow(() -> new IllegalStateException("case " + egressCase.id()
                    + ": its manifests have no Gateway on Istio's ingress gateway (istio-config/base/ingress.yaml)"));
            entry = forwards.open(ns, service, port, " (or set -D" + KubernetesSettings.P_INGRESS_URL + ")");
            progress.printf("[%s] load goes to %s: %s of Istio's ingress gateway, Service %s/%s port %d, which routes "
                    + "the client API of %s to the services%s%n", egressCase.id(), entry, forwards.how(), ns, service, port, services(),
                    forwards.rateNote(KubernetesSettings.P_INGRESS_URL));
        }
        ComponentNames.SERVICES.forEach(svc -> serviceEndpoints.put(svc, entry));
    }

    /**
     * Each service's admin endpoint (its loaders), never the entry: a port-forward to its Service, the one the load
     * uses without the entry, else one more per service (closed with the others at {@link #close}).
     */
    void openAdmin() {
        if (!serviceAdmin.isEmpty()) {
            return;
        }
        if (!ingress) {
            serviceAdmin.putAll(serviceEndpoints);
            return;
        }
        for (String svc : ComponentNames.SERVICES) {
            serviceAdmin.put(svc, forwards.open(settings.namespace(), svc, SERVICE_PORT, ""));
        }
        progress.printf("[%s] the kit loads the database through %s of each service %s, not through the entry%n",
                egressCase.id(), forwards.how(), serviceAdmin.values());
    }

    private static String services() {
        return String.join(", ", ComponentNames.SERVICES);
    }

    private void awaitServices(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String svc : ComponentNames.SERVICES) {
            // Through the entry when there is one: its readiness path is public on purpose (AcmeairApi), and a 200
            // there says the VirtualService's route has reached Istio's gateway.
            URI uri = serviceEndpoints.get(svc).resolve(Service.byId(svc).readyPath());
            AcmeairData.awaitReady(http, svc, uri, deadline, timeout, 500, Optional::empty);
        }
    }

    /**
     * CPU of the pods running now, once every rollout is complete: Prometheus keeps the series of pods a case or an
     * earlier run deleted minutes ago, and their names fit the same Deployments ({@link #ownedBy}).
     */
    private void startCpu() {
        java.util.Set<String> current = new java.util.HashSet<>();
        for (String ns : namespaces()) {
            client.pods().inNamespace(ns).list().getItems().stream()
                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null && "Running".equals(p.getStatus().getPhase()))
                    .forEach(p -> current.add(ns + "/" + p.getMetadata().getName()));
        }
        cpu = ClusterCpu.start(settings, forwards, namespaces(),
                labels -> current.contains(labels.getOrDefault("namespace", "") + "/" + labels.getOrDefault("pod", ""))
                        ? componentOf(labels) : Optional.empty(),
                components(), started.minusSeconds(60));
    }

    /** The kit's namespace, and where the Istio gateways the case uses run. */
    List<String> namespaces() {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        out.add(settings.namespace());
        if (!istioGateways.isEmpty()) {
            out.add(settings.egressGatewayNamespace());
        }
        if (ingress) {
            out.add(settings.ingressGatewayNamespace());
        }
        return List.copyOf(out);
    }

    /**
     * Places a container series: a service's own container, its {@code istio-proxy}, the egress gateway and SNI proxy,
     * Istio's ingress gateway (with {@code ingress}).
     */
    Optional<Component> componentOf(Map<String, String> labels) {
        String ns = labels.getOrDefault("namespace", "");
        String pod = labels.getOrDefault("pod", "");
        String container = labels.getOrDefault("container", "");
        if (ns.equals(settings.namespace())) {
            for (String svc : ComponentNames.SERVICES) {
                if (ownedBy(pod, svc)) {
                    if (container.equals(svc)) {
                        return Optional.of(new Component(svc, ComponentRole.APP));
                    }
                    return "istio-proxy".equals(container)
                            ? Optional.of(new Component(ComponentNames.sidecarOf(svc), ComponentRole.MESH)) : Optional.empty();
                }
            }
            if (egressCase == EgressCase.SNI && ownedBy(pod, KIT_GATEWAY)) {
                return switch (container) {
                    case "istio-proxy" -> Optional.of(new Component(ComponentNames.EGRESS_GATEWAY, ComponentRole.MESH));
                    case ComponentNames.SNI_PROXY -> Optional.of(new Component(ComponentNames.SNI_PROXY, ComponentRole.MESH));
                    default -> Optional.empty();
                };
            }
        }
        if (ns.equals(settings.egressGatewayNamespace()) && "istio-proxy".equals(container) && podOf(pod, istioGateways)) {
            return Optional.of(new Component(ComponentNames.EGRESS_GATEWAY, ComponentRole.MESH));
        }
        if (ns.equals(settings.ingressGatewayNamespace()) && "istio-proxy".equals(container) && podOf(pod, ingressGateways)) {
            return Optional.of(new Component(ComponentNames.INGRESS_GATEWAY, ComponentRole.MESH));
        }
        return Optional.empty();
    }

    /** Whether {@code pod} belongs to one of {@code deployments} (see {@link #ownedBy}). */
    static boolean podOf(String pod, List<io.fabric8.kubernetes.api.model.apps.Deployment> deployments) {
        return deployments.stream().anyMatch(g -> ownedBy(pod, g.getMetadata().getName()));
    }

    /** The kit's own egress gateway in case sni ({@code istio-config/cases/sni/egressgateway.yaml}). */
    static final String KIT_GATEWAY = "meshbench-egressgateway";

    /** A pod of Deployment {@code name}: {@code <name>-<replicaset hash>-<suffix>}. */
    static boolean ownedBy(String pod, String name) {
        return pod.startsWith(name + "-") && Pattern.matches("[a-z0-9]+-[a-z0-9]+", pod.substring(name.length() + 1));
    }

    @Override
    public Endpoints endpoints() {
        // With the ingress every service is reached at the one entry (openEntry): say so, as the local target does, so
        // the run's progress, results and the original driver's HOST/PORT name the entry, not "each service's sidecar".
        if (ingress && !serviceEndpoints.isEmpty()) {
            return Endpoints.through(serviceEndpoints.values().iterator().next(), serviceEndpoints.keySet());
        }
        return new Endpoints(serviceEndpoints);
    }

    @Override
    public AdminEndpoints serviceAdmin() {
        return new AdminEndpoints(serviceAdmin);
    }

    @Override
    public List<Component> components() {
        List<Component> out = new ArrayList<>();
        if (ingress) {
            out.add(new Component(ComponentNames.INGRESS_GATEWAY, ComponentRole.MESH));
        }
        for (String svc : ComponentNames.SERVICES) {
            out.add(new Component(svc, ComponentRole.APP));
            out.add(new Component(ComponentNames.sidecarOf(svc), ComponentRole.MESH));
        }
        if (egressCase.passes(HopKind.EGRESS_GATEWAY)) {
            out.add(new Component(ComponentNames.EGRESS_GATEWAY, ComponentRole.MESH));
        }
        if (egressCase.passes(HopKind.SNI_PROXY)) {
            out.add(new Component(ComponentNames.SNI_PROXY, ComponentRole.MESH));
        }
        return out;
    }

    /** New CPU readings from Prometheus, asked at most every few seconds (it only changes per scrape anyway). */
    @Override
    public List<ResourceSample> sampleResources() {
        ClusterCpu c = cpu;
        return c == null ? List.of() : c.poll();
    }

    @Override
    public DataPlaneInfo dataPlane(DataPlaneInfo planned) {
        Map<String, String> versions = new LinkedHashMap<>();
        ClusterFacts.istioVersion(client).ifPresent(v -> {
            versions.put(ComponentNames.SIDECAR, "istio-proxy " + v);
            if (ingress) {
                versions.put(ComponentNames.INGRESS_GATEWAY, "istio-proxy " + v);
            }
            if (egressCase.passes(HopKind.EGRESS_GATEWAY)) {
                versions.put(ComponentNames.EGRESS_GATEWAY, "istio-proxy " + v);
            }
        });
        if (egressCase.passes(HopKind.SNI_PROXY)) {
            resources.stream().filter(io.fabric8.kubernetes.api.model.apps.Deployment.class::isInstance)
                    .map(io.fabric8.kubernetes.api.model.apps.Deployment.class::cast)
                    .flatMap(d -> d.getSpec().getTemplate().getSpec().getContainers().stream())
                    .filter(ct -> ComponentNames.SNI_PROXY.equals(ct.getName())).findFirst()
                    .ifPresent(ct -> versions.put(ComponentNames.SNI_PROXY, ct.getImage()));
        }
        // dataPlane.versions' keys are component kinds: the proxies' facts go into the value of each Istio proxy.
        String facts = ClusterFacts.describe(ClusterFacts.proxyFacts(client, settings.namespace()));
        if (!facts.isEmpty()) {
            versions.replaceAll((kind, v) -> v.startsWith("istio-proxy ") ? v + " (" + facts + ")" : v);
        }
        return new DataPlaneInfo(planned.name(), versions, planned.workers(), planned.sidecarMtls(), planned.ingress(), planned.tlsProvider());
    }

    @Override
    public Optional<ClusterInfo> cluster() {
        try {
            return Optional.of(ClusterFacts.read(client, ops.serverVersion()));
        } catch (RuntimeException e) {
            LOG.warn("reading the cluster's versions and nodes failed: {}", e.toString());
            return Optional.empty();
        }
    }

    @Override
    String name() {
        return egressCase.id();
    }
}
