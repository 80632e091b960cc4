package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.orchestrator.cases.EgressCase;
import dev.meshbench.orchestrator.cases.HopKind;
import dev.meshbench.orchestrator.target.AcmeairData;
import dev.meshbench.orchestrator.target.Component;
import dev.meshbench.orchestrator.target.Deployment;
import dev.meshbench.orchestrator.target.Endpoints;
import dev.meshbench.orchestrator.target.ResourceSample;
import dev.meshbench.orchestrator.target.TargetException;
import dev.meshbench.pki.KeyType;
import dev.meshbench.pki.Pem;
import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.ComponentNames;
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
import java.time.Instant;
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
 * case's manifests; {@link #awaitReady} waits for the rollouts (and Istio's egress gateway), opens the entry to the
 * services, loads the database and waits until Prometheus has series for every component. {@link #close} tears
 * everything down unless {@code keep} is set; it runs on every exit path (the runner's shutdown hook covers Ctrl-C).
 */
public final class KubernetesDeployment implements Deployment {
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesDeployment.class);
    private static final int SERVICE_PORT = 8080;

    private final EgressCase egressCase;
    private final KubernetesSettings settings;
    private final int customers;
    private final int flightDays;
    private final WorkloadInfo workload;
    private final KubernetesClient client;
    private final ClusterOps ops;
    private final PrintStream progress;
    private final List<HasMetadata> resources;
    private final PortForwards forwards;
    private final Map<String, URI> serviceEndpoints = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Instant started = Instant.now();
    private List<io.fabric8.kubernetes.api.model.apps.Deployment> istioGateways = List.of();
    private ClusterCpu cpu;
    private boolean closed;

    private KubernetesDeployment(EgressCase egressCase, KubernetesSettings settings, int customers, int flightDays,
            WorkloadInfo workload, KubernetesClient client, ClusterOps.Applier applier, PrintStream progress,
            List<HasMetadata> resources) {
        this.egressCase = egressCase;
        this.settings = settings;
        this.customers = customers;
        this.flightDays = flightDays;
        this.workload = workload;
        this.client = client;
        this.ops = new ClusterOps(client, settings.namespace(), applier);
        this.progress = progress;
        this.resources = resources;
        this.forwards = new PortForwards(client);
    }

    /** Checks, switches and applies; on failure tears down what it created and closes the client before throwing. */
    static KubernetesDeployment start(EgressCase c, KubernetesSettings s, int customers, int flightDays, WorkloadInfo workload,
            KubernetesClient client, ClusterOps.Applier applier, PrintStream progress) {
        ClusterOps ops = new ClusterOps(client, s.namespace(), applier);
        try {
            ops.checkPrerequisites(c, s.egressGatewayNamespace());
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        KeyPair jwt = KeyType.RSA_2048.generate();
        List<HasMetadata> resources = CaseManifests.typed(CaseManifests.render(c, s, workload,
                Map.of("private.pem", Pem.privateKey(jwt.getPrivate()), "public.pem", Pem.publicKey(jwt.getPublic()))),
                client.getKubernetesSerialization());
        KubernetesDeployment d = new KubernetesDeployment(c, s, customers, flightDays, workload, client, applier, progress, resources);
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

    /** The resources applied, in order. */
    public List<HasMetadata> resources() {
        return resources;
    }

    public ClusterOps ops() {
        return ops;
    }

    /**
     * Waits for the rollouts only (and Istio's egress gateway in cases gateway and mtls): what a cluster without
     * traffic, such as kwok's, can show.
     */
    public void awaitRollouts(Duration timeout) {
        if (egressCase.passes(HopKind.EGRESS_GATEWAY) && egressCase != EgressCase.SNI) {
            istioGateways = client.apps().deployments().inNamespace(settings.egressGatewayNamespace())
                    .withLabels(ClusterOps.ISTIO_EGRESS_GATEWAY).list().getItems();
        }
        progress.printf("[%s] waiting for %d rollouts%s%n", egressCase.id(),
                resources.stream().filter(io.fabric8.kubernetes.api.model.apps.Deployment.class::isInstance).count(),
                istioGateways.isEmpty() ? "" : " and Istio's egress gateway");
        ops.awaitRollouts(resources, istioGateways, timeout);
    }

    @Override
    public void awaitReady(Duration timeout) {
        awaitRollouts(settings.readyTimeout());
        openEntry();
        awaitServices(timeout);
        AcmeairData.load(http, serviceEndpoints, customers, flightDays, workload, egressCase.id(), progress);
        startCpu();
    }

    private void openEntry() {
        if (settings.ingressUrl().isPresent()) {
            URI entry = settings.ingressUrl().get();
            ComponentNames.SERVICES.forEach(svc -> serviceEndpoints.put(svc, entry));
            progress.printf("[%s] load goes to %s%n", egressCase.id(), entry);
            return;
        }
        for (String svc : ComponentNames.SERVICES) {
            serviceEndpoints.put(svc, forwards.open(settings.namespace(), svc, SERVICE_PORT, ""));
        }
        progress.printf("[%s] load goes through port-forwards %s (to the pods directly, not through an ingress: set -D%s "
                + "for the path the study took)%n", egressCase.id(), serviceEndpoints.values(), KubernetesSettings.P_INGRESS_URL);
    }

    private void awaitServices(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String svc : ComponentNames.SERVICES) {
            URI uri = serviceEndpoints.get(svc).resolve("/" + svc + "/ready");
            AcmeairData.awaitReady(http, svc, uri, deadline, timeout, 500, Optional::empty);
        }
    }

    private void startCpu() {
        cpu = ClusterCpu.start(settings, forwards, namespaces(), this::componentOf, components(), started.minusSeconds(60));
    }

    private List<String> namespaces() {
        return istioGateways.isEmpty() || settings.egressGatewayNamespace().equals(settings.namespace())
                ? List.of(settings.namespace()) : List.of(settings.namespace(), settings.egressGatewayNamespace());
    }

    /** Places a container series: a service's own container, its {@code istio-proxy}, the gateway and SNI proxy. */
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
                    case "sni-proxy" -> Optional.of(new Component(ComponentNames.SNI_PROXY, ComponentRole.MESH));
                    default -> Optional.empty();
                };
            }
        }
        if (ns.equals(settings.egressGatewayNamespace()) && "istio-proxy".equals(container)
                && istioGateways.stream().anyMatch(g -> ownedBy(pod, g.getMetadata().getName()))) {
            return Optional.of(new Component(ComponentNames.EGRESS_GATEWAY, ComponentRole.MESH));
        }
        return Optional.empty();
    }

    /** The kit's own egress gateway in case sni ({@code istio-config/cases/sni/egressgateway.yaml}). */
    static final String KIT_GATEWAY = "meshbench-egressgateway";

    /** A pod of Deployment {@code name}: {@code <name>-<replicaset hash>-<suffix>}. */
    static boolean ownedBy(String pod, String name) {
        return pod.startsWith(name + "-") && Pattern.matches("[a-z0-9]+-[a-z0-9]+", pod.substring(name.length() + 1));
    }

    @Override
    public Endpoints endpoints() {
        return new Endpoints(serviceEndpoints);
    }

    @Override
    public List<Component> components() {
        List<Component> out = new ArrayList<>();
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
            versions.put("sidecar", "istio-proxy " + v);
            if (egressCase.passes(HopKind.EGRESS_GATEWAY)) {
                versions.put("egress-gateway", "istio-proxy " + v);
            }
        });
        if (egressCase.passes(HopKind.SNI_PROXY)) {
            resources.stream().filter(io.fabric8.kubernetes.api.model.apps.Deployment.class::isInstance)
                    .map(io.fabric8.kubernetes.api.model.apps.Deployment.class::cast)
                    .flatMap(d -> d.getSpec().getTemplate().getSpec().getContainers().stream())
                    .filter(ct -> "sni-proxy".equals(ct.getName())).findFirst()
                    .ifPresent(ct -> versions.put("sni-proxy", ct.getImage()));
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
    public Optional<String> failure() {
        return Optional.empty();
    }

    public KubernetesClient client() {
        return client;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        forwards.close();
        try {
            ops.teardownOrKeep(settings.keep(), egressCase.id(), progress);
        } finally {
            client.close();
        }
    }
}
