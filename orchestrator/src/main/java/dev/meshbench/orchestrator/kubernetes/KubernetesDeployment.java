package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.orchestrator.cases.EgressCase;
import dev.meshbench.orchestrator.cases.HopKind;
import dev.meshbench.orchestrator.kubernetes.prometheus.ContainerCpu;
import dev.meshbench.orchestrator.kubernetes.prometheus.PrometheusClient;
import dev.meshbench.orchestrator.kubernetes.prometheus.PrometheusCpuSampler;
import dev.meshbench.orchestrator.kubernetes.prometheus.PrometheusException;
import dev.meshbench.orchestrator.plan.TopologyPlanner;
import dev.meshbench.orchestrator.target.AcmeairData;
import dev.meshbench.orchestrator.target.Component;
import dev.meshbench.orchestrator.target.Deployment;
import dev.meshbench.orchestrator.target.Endpoints;
import dev.meshbench.orchestrator.target.ResourceSample;
import dev.meshbench.orchestrator.target.Role;
import dev.meshbench.orchestrator.target.TargetException;
import dev.meshbench.pki.KeyType;
import dev.meshbench.pki.Pem;
import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.LocalPortForward;
import java.io.IOException;
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
    /** How long Prometheus may take to show every new container (a few scrape intervals). */
    static final Duration SERIES_WAIT = Duration.ofMinutes(2);
    private static final Duration CPU_STEP = Duration.ofSeconds(5);
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
    private final List<LocalPortForward> forwards = new ArrayList<>();
    private final Map<String, URI> serviceEndpoints = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Instant started = Instant.now();
    private List<io.fabric8.kubernetes.api.model.apps.Deployment> istioGateways = List.of();
    private PrometheusCpuSampler cpu;
    private long lastPollMs;
    private List<ResourceSample> lastSamples = List.of();
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
            TopologyPlanner.SERVICES.forEach(svc -> serviceEndpoints.put(svc, entry));
            progress.printf("[%s] load goes to %s%n", egressCase.id(), entry);
            return;
        }
        for (String svc : TopologyPlanner.SERVICES) {
            try {
                LocalPortForward f = client.services().inNamespace(settings.namespace()).withName(svc).portForward(SERVICE_PORT, 0);
                forwards.add(f);
                serviceEndpoints.put(svc, URI.create("http://127.0.0.1:" + f.getLocalPort()));
            } catch (KubernetesClientException e) {
                throw new TargetException("port-forwarding to Service " + settings.namespace() + "/" + svc + " failed: "
                        + ClusterOps.reason(e), e);
            }
        }
        progress.printf("[%s] load goes through port-forwards %s (to the pods directly, not through an ingress: set -D%s "
                + "for the path the study took)%n", egressCase.id(), serviceEndpoints.values(), KubernetesSettings.P_INGRESS_URL);
    }

    private void awaitServices(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String svc : TopologyPlanner.SERVICES) {
            URI uri = serviceEndpoints.get(svc).resolve("/" + svc + "/ready");
            AcmeairData.awaitReady(http, svc, uri, deadline, timeout, 500, Optional::empty);
        }
    }

    private void startCpu() {
        URI url = settings.prometheusUrl().orElseGet(this::forwardPrometheus);
        PrometheusClient prometheus = new PrometheusClient(url, Duration.ofSeconds(20));
        String query = ContainerCpu.query(namespaces());
        cpu = new PrometheusCpuSampler(prometheus, query, CPU_STEP, Duration.ofSeconds(30), started.minusSeconds(60),
                new ContainerCpu(this::componentOf));
        long deadline = System.nanoTime() + SERIES_WAIT.toNanos();
        List<Component> missing;
        while (true) {
            try {
                cpu.poll(Instant.now());
            } catch (PrometheusException e) {
                throw new TargetException("reading CPU from Prometheus failed: " + e.getMessage(), e);
            }
            missing = cpu.missing(components());
            if (missing.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new TargetException("Prometheus at " + url + " returned no series for " + String.join(", ",
                        missing.stream().map(Component::name).toList()) + " after " + SERIES_WAIT.toSeconds() + " s (query: "
                        + query + "); is Prometheus scraping cAdvisor?");
            }
            sleep(5000);
        }
    }

    private URI forwardPrometheus() {
        String[] nsName = settings.prometheusService().split("/");
        try {
            LocalPortForward f = client.services().inNamespace(nsName[0]).withName(nsName[1]).portForward(9090, 0);
            forwards.add(f);
            return URI.create("http://127.0.0.1:" + f.getLocalPort());
        } catch (KubernetesClientException e) {
            throw new TargetException("port-forwarding to Prometheus (Service " + settings.prometheusService() + ", set -D"
                    + KubernetesSettings.P_PROMETHEUS_URL + " or -D" + KubernetesSettings.P_PROMETHEUS_SERVICE + ") failed: "
                    + ClusterOps.reason(e), e);
        }
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
            for (String svc : TopologyPlanner.SERVICES) {
                if (ownedBy(pod, svc)) {
                    if (container.equals(svc)) {
                        return Optional.of(new Component(svc, Role.APP));
                    }
                    return "istio-proxy".equals(container)
                            ? Optional.of(new Component(TopologyPlanner.sidecarOf(svc), Role.MESH)) : Optional.empty();
                }
            }
            if (egressCase == EgressCase.SNI && ownedBy(pod, KIT_GATEWAY)) {
                return switch (container) {
                    case "istio-proxy" -> Optional.of(new Component(TopologyPlanner.EGRESS_GATEWAY, Role.MESH));
                    case "sni-proxy" -> Optional.of(new Component(TopologyPlanner.SNI_PROXY, Role.MESH));
                    default -> Optional.empty();
                };
            }
        }
        if (ns.equals(settings.egressGatewayNamespace()) && "istio-proxy".equals(container)
                && istioGateways.stream().anyMatch(g -> ownedBy(pod, g.getMetadata().getName()))) {
            return Optional.of(new Component(TopologyPlanner.EGRESS_GATEWAY, Role.MESH));
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
        for (String svc : TopologyPlanner.SERVICES) {
            out.add(new Component(svc, Role.APP));
            out.add(new Component(TopologyPlanner.sidecarOf(svc), Role.MESH));
        }
        if (egressCase.passes(HopKind.EGRESS_GATEWAY)) {
            out.add(new Component(TopologyPlanner.EGRESS_GATEWAY, Role.MESH));
        }
        if (egressCase.passes(HopKind.SNI_PROXY)) {
            out.add(new Component(TopologyPlanner.SNI_PROXY, Role.MESH));
        }
        return out;
    }

    /** New CPU readings from Prometheus, asked at most every few seconds (it only changes per scrape anyway). */
    @Override
    public synchronized List<ResourceSample> sampleResources() {
        if (cpu == null) {
            return List.of();
        }
        long now = System.currentTimeMillis();
        if (now - lastPollMs < CPU_STEP.toMillis()) {
            return List.of();
        }
        lastPollMs = now;
        try {
            lastSamples = cpu.poll(Instant.ofEpochMilli(now));
        } catch (PrometheusException e) {
            LOG.warn("CPU poll failed, the next one asks again: {}", e.getMessage());
            lastSamples = List.of();
        }
        return lastSamples;
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
        return new DataPlaneInfo(planned.name(), versions, planned.workers(), planned.sidecarMtls(), planned.tlsProvider());
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
        for (LocalPortForward f : forwards) {
            try {
                f.close();
            } catch (IOException | RuntimeException e) {
                LOG.debug("closing a port-forward: {}", e.toString());
            }
        }
        try {
            if (settings.keep()) {
                progress.printf("[%s] keeping namespace %s (-D%s=true): delete it with kubectl delete namespace %s%n",
                        egressCase.id(), settings.namespace(), KubernetesSettings.P_KEEP, settings.namespace());
            } else {
                List<String> problems = ops.teardown(Duration.ofSeconds(120));
                progress.printf("[%s] tore down namespace %s%s%n", egressCase.id(), settings.namespace(),
                        problems.isEmpty() ? "" : " with problems: " + String.join("; ", problems));
            }
        } finally {
            client.close();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetException("interrupted");
        }
    }
}
