package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.orchestrator.latency.LatencyCell;
import dev.meshbench.orchestrator.deploy.LatencyDeployment;
import dev.meshbench.orchestrator.latency.LatencyRunner;
import dev.meshbench.orchestrator.deploy.AcmeairData;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One latency cell on a cluster with Istio: {@code istio-config/latency/cells/<cell>} ({@link LatencyManifests})
 * applied by server-side apply into the kit's namespace, its rollouts awaited, an entry for the load generator
 * opened, and CPU per component read from Prometheus as the egress study's {@link KubernetesDeployment} reads it.
 *
 * <ul>
 *   <li>Entry: in a cell with an ingress gateway, {@code meshbench.ingressUrl} (Istio's ingress gateway as this
 *       machine reaches it), else a port-forward to Istio's ingress gateway Service on the Gateway's port; in a cell
 *       without, {@code meshbench.latency.entrypointUrl}, else a port-forward to the graph's entrypoint Service. A
 *       port-forward goes through the API server to one pod, so it limits the rate and skips the Service's
 *       balancing: for figures to compare, give the URLs.</li>
 *   <li>Components, named as the local target names them but per service rather than per replica (pods have no
 *       replica numbers; each container is a process of its own): {@code <service>} (role app: the graph-node
 *       container), {@code sidecar-<service>} (mesh: its pods' {@code istio-proxy}), {@code ingress-gateway} (mesh:
 *       the {@code istio-proxy} of Istio's ingress gateway pods).</li>
 *   <li>Istio's ingress gateway is shared and outside the kit's namespace: it is neither scaled nor changed. A cell
 *       whose scale differs from the gateway's replicas says so.</li>
 * </ul>
 * {@link #close} closes the port-forwards and deletes the namespace with everything applied (unless
 * {@code meshbench.keep}); it runs on every exit path and closing twice is harmless.
 */
public final class KubernetesLatencyDeployment extends AppliedOnCluster implements LatencyDeployment {
    private static final String ISTIO_PROXY = "istio-proxy";

    /** The cell applied now ({@link #applyCell} replaces it), its graph's services and Istio's ingress gateways it enters by. */
    private volatile LatencyCell cell;
    private volatile List<String> services;
    private volatile List<Deployment> ingressGateways;
    /** How the cell applied last came onto this deployment ({@link #applyCell}); empty for the one it started with. */
    private volatile Optional<String> appliedOver = Optional.empty();
    private final Map<Long, ResourceSample> latest = new HashMap<>();
    private volatile URI entry;
    private volatile ClusterCpu cpu;

    private KubernetesLatencyDeployment(LatencyCell cell, KubernetesSettings settings, KubernetesClient client, ClusterOps ops,
            PrintStream progress, List<ObjectNode> docs, List<HasMetadata> resources, List<Deployment> ingressGateways) {
        super(settings, client, ops, progress, docs, resources);
        this.cell = cell;
        this.services = LatencyManifests.graphServices(docs);
        this.ingressGateways = ingressGateways;
    }

    /** How the latency runner deploys each cell on the cluster of the settings' kubeconfig (or the usual places), by server-side apply. */
    public static LatencyRunner.Deployer.OneCell deployer(KubernetesSettings settings, PrintStream progress) {
        return (cell, logDir, created) -> deploy(cell, settings, KubernetesTarget.client(settings), ClusterOps.Applier.SERVER_SIDE,
                progress, created);
    }

    /**
     * Deploys {@code cell} and waits until the load can start: rollouts, the entry answering {@code /health/ready}
     * with 200 through the whole path, and Prometheus having a CPU series for every component. On any failure
     * everything is torn down before the exception leaves.
     */
    public static KubernetesLatencyDeployment deploy(LatencyCell cell, KubernetesSettings settings, KubernetesClient client,
            ClusterOps.Applier applier, PrintStream progress, Consumer<LatencyDeployment> created) {
        KubernetesLatencyDeployment d = start(cell, settings, client, applier, progress, created);
        try {
            d.awaitRollouts();
            d.openEntry();
            d.awaitEntry(settings.readyTimeout());
            d.startCpu();
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    /**
     * Checks the cluster (Istio's CRDs, the namespace free or the kit's, Istio's ingress gateway in gateway cells),
     * removes what an earlier run left in the kit's namespace, and applies the cell; on failure tears down what it
     * created and closes the client before throwing.
     */
    static KubernetesLatencyDeployment start(LatencyCell cell, KubernetesSettings settings, KubernetesClient client,
            ClusterOps.Applier applier, PrintStream progress, Consumer<LatencyDeployment> created) {
        ClusterOps ops = new ClusterOps(client, settings.namespace(), applier);
        KubernetesLatencyDeployment d;
        try {
            List<ObjectNode> docs = render(cell, settings);
            List<HasMetadata> resources = CaseManifests.typed(docs, client.getKubernetesSerialization());
            progress.printf("[%s] checking the cluster at %s%n", cell.id(), client.getMasterUrl());
            ops.checkClusterAndNamespace();
            List<Deployment> gateways = cell.ingress() ? gatewaysFor(cell, ops, settings) : List.of();
            d = new KubernetesLatencyDeployment(cell, settings, client, ops, progress, docs, resources, gateways);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        created.accept(d);
        try {
            if (ops.namespaceIsOurs()) {
                progress.printf("[%s] removing what an earlier run left in namespace %s%n", cell.id(), settings.namespace());
                List<String> problems = ops.teardown(Duration.ofSeconds(120));
                if (!problems.isEmpty()) {
                    throw new TargetException("clearing namespace " + settings.namespace() + " failed: " + String.join("; ", problems));
                }
            }
            progress.printf("[%s] applying %d resources of istio-config/%s to namespace %s%n", cell.id(), d.resources.size(),
                    LatencyManifests.dir(cell), settings.namespace());
            ops.apply(d.resources);
            d.noteGatewayScale();
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    /**
     * Applies {@code next} into the running namespace, as {@code kubectl apply} of its manifests followed by deleting what
     * only the current cell has would ({@link SwitchPlan}): Deployments whose pod template changes (sidecar injection on
     * or off) roll out new pods, new replicas are added, what the next cell lacks is deleted and its pods awaited gone,
     * and Deployments whose template is unchanged keep their pods, warm. Then the entry is opened again where it moved
     * (Istio's ingress gateway or the entrypoint, and a port-forward's pod may have been replaced), awaited until it
     * answers through the new path, and the CPU series of the new components awaited. On failure the deployment is in
     * an unknown state: the runner tears it down.
     *
     * @return what changed, in words (also {@link #appliedOver})
     */
    public String applyCell(LatencyCell next) {
        long t0 = System.nanoTime();
        LatencyCell from = cell;
        Optional<EntryTarget> entryBefore = entry != null && forwarded() ? Optional.of(entryTarget()) : Optional.empty();
        List<String> namespacesBefore = cpuNamespaces();
        List<ObjectNode> nextDocs = render(next, settings);
        List<HasMetadata> nextResources = CaseManifests.typed(nextDocs, client.getKubernetesSerialization());
        List<Deployment> gateways = next.ingress() ? gatewaysFor(next, ops, settings) : List.of();
        SwitchPlan plan = SwitchPlan.between(resources, nextResources);
        progress.printf("[%s] switching from %s in namespace %s: applying %d resources of istio-config/%s, deleting %d%n", next.id(),
                from.id(), settings.namespace(), plan.apply().size(), LatencyManifests.dir(next), plan.delete().size());
        List<String> done = new ArrayList<>();
        ops.apply(plan.apply());
        done.add("applied the " + plan.apply().size() + " resources of istio-config/" + LatencyManifests.dir(next) + " by server-side apply");
        if (!plan.delete().isEmpty()) {
            done.add("deleted " + String.join(", ", ops.delete(plan.delete())));
        }
        List<Deployment> removed = resources.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
                .filter(d -> plan.removed().contains(d.getMetadata().getName())).toList();
        switchManifests(nextDocs, nextResources);
        cell = next;
        services = LatencyManifests.graphServices(nextDocs);
        ingressGateways = gateways;
        noteGatewayScale();
        awaitRollouts();
        if (!plan.restarted().isEmpty()) {
            done.add("rolled out new pods of " + String.join(", ", plan.restarted()) + " (pod template changed)");
        }
        if (!plan.added().isEmpty()) {
            done.add("added " + String.join(", ", plan.added()));
        }
        if (!removed.isEmpty()) {
            ops.awaitPodsGone(removed, settings.readyTimeout());
            done.add("the pods of " + String.join(", ", plan.removed()) + " gone");
        }
        if (!plan.kept().isEmpty()) {
            done.add("kept the pods of " + String.join(", ", plan.kept()) + " (pod template unchanged; replicas as the cell asks)");
        }
        if (entryBefore.isPresent() && forwarded() && entryTarget().equals(entryBefore.get())) {
            EntryTarget t = entryBefore.get(); // the same Service: forwarded again, to a pod that runs now
            entry = withPath(forwards.reopen(entry, t.namespace(), t.service(), t.port()));
        } else {
            openEntry();
        }
        awaitEntry(settings.readyTimeout());
        ClusterCpu c = cpu;
        if (c != null) {
            synchronized (this) {
                latest.clear();
            }
            if (cpuNamespaces().equals(namespacesBefore)) {
                c.awaitSeries(components());
            } else {
                startCpu(); // the cell's components are in namespaces the query did not read (Istio's ingress gateway's)
            }
        }
        String how = String.format(java.util.Locale.ROOT, "applied to the namespace that ran cell %s, in %.1f s: %s", from.id(),
                (System.nanoTime() - t0) / 1e9, String.join("; ", done));
        appliedOver = Optional.of(how);
        return how;
    }

    /** Whether the entry is a port-forward this deployment opened (not a URL the settings give). */
    private boolean forwarded() {
        return (cell.ingress() ? settings.ingressUrl() : settings.entrypointUrl()).isEmpty();
    }

    /** Prometheus's CPU is up to a scrape interval old: too coarse for a 10-s window, so the warm-up judges throughput alone. */
    @Override
    public java.util.OptionalDouble warmupCpuMillis() {
        return java.util.OptionalDouble.empty();
    }

    @Override
    public Optional<String> appliedOver() {
        return appliedOver;
    }

    /** The manifests of {@code cell} for the settings' namespace and images, CPU requests scaled as the settings say. */
    private static List<ObjectNode> render(LatencyCell cell, KubernetesSettings settings) {
        List<ObjectNode> docs = LatencyManifests.render(cell, settings.namespace(), settings.images(), KubectlKustomize.find(settings.kubectl()),
                Optional.empty());
        CpuRequests.scale(docs, settings.cpuRequestScale());
        return docs;
    }

    /** Istio's ingress gateway Deployments a gateway cell enters by, or an error saying how to install it. */
    private static List<Deployment> gatewaysFor(LatencyCell cell, ClusterOps ops, KubernetesSettings settings) {
        return ops.istioGateways(settings.ingressGatewayNamespace(), ClusterOps.ISTIO_INGRESS_GATEWAY, "no ingress gateway",
                "cell " + cell.id() + " enters through Istio's ingress gateway: install it (istioctl's default profile has it) "
                        + "or name its namespace with -D" + KubernetesSettings.P_INGRESS_GATEWAY_NAMESPACE);
    }

    private void noteGatewayScale() {
        for (Deployment g : ingressGateways) {
            int replicas = Optional.ofNullable(g.getSpec().getReplicas()).orElse(1);
            if (replicas != cell.scale()) {
                progress.printf("[%s] note: Istio's ingress gateway %s/%s runs %d replica(s), the cell's scale is %d; the kit does not "
                        + "change Istio's install: pin its HorizontalPodAutoscaler to the scale as istio-config/README.md (\"The latency "
                        + "study\") shows%n", cell.id(), g.getMetadata().getNamespace(), g.getMetadata().getName(), replicas, cell.scale());
            }
        }
    }

    /** Waits until every Deployment applied (and Istio's ingress gateway in gateway cells) is rolled out. */
    public void awaitRollouts() {
        progress.printf("[%s] waiting for %d rollouts%s%n", cell.id(),
                resources.stream().filter(Deployment.class::isInstance).count(),
                ingressGateways.isEmpty() ? "" : " and Istio's ingress gateway");
        ops.awaitRollouts(resources, ingressGateways, settings.readyTimeout());
    }

    /** Opens where the load generator sends: the setting's URL, else a port-forward (see the class comment). */
    void openEntry() {
        Optional<URI> url = cell.ingress() ? settings.ingressUrl() : settings.entrypointUrl();
        if (url.isPresent()) {
            entry = withPath(url.get());
            progress.printf("[%s] load goes to %s (-D%s)%n", cell.id(), entry,
                    cell.ingress() ? KubernetesSettings.P_INGRESS_URL : KubernetesSettings.P_ENTRYPOINT_URL);
            return;
        }
        EntryTarget t = entryTarget();
        String property = cell.ingress() ? KubernetesSettings.P_INGRESS_URL : KubernetesSettings.P_ENTRYPOINT_URL;
        entry = withPath(forwards.open(t.namespace(), t.service(), t.port(), " (or set -D" + property + ")"));
        progress.printf("[%s] load goes to %s: %s of Service %s/%s port %d%s%n", cell.id(), entry, forwards.how(), t.namespace(), t.service(),
                t.port(), forwards.rateNote(property));
    }

    /** The Service a port-forward or ClusterIP enters the cell applied now by. */
    private record EntryTarget(String namespace, String service, int port) {
    }

    private EntryTarget entryTarget() {
        if (cell.ingress()) {
            String ns = settings.ingressGatewayNamespace();
            return new EntryTarget(ns, ops.istioGatewayService(ns, ClusterOps.ISTIO_INGRESS_GATEWAY).getMetadata().getName(),
                    LatencyManifests.gatewayPort(docs).orElseThrow(() -> new IllegalStateException(
                            "cell " + cell.id() + " has an ingress but its manifests no Gateway port")));
        }
        String service = LatencyManifests.entrypoint(docs);
        return new EntryTarget(settings.namespace(), service, LatencyManifests.servicePort(docs, service));
    }

    private void awaitEntry(Duration timeout) {
        URI ready = entry.resolve("/health/ready");
        progress.printf("[%s] waiting for %s to answer%n", cell.id(), ready);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1).build();
        AcmeairData.awaitReady(http, "cell " + cell.id(), ready, System.nanoTime() + timeout.toNanos(), timeout, 500, Optional::empty);
    }

    /** The namespaces whose containers are the cell's components: the kit's, and Istio's ingress gateway's in gateway cells. */
    private List<String> cpuNamespaces() {
        List<String> namespaces = new ArrayList<>(List.of(settings.namespace()));
        if (!ingressGateways.isEmpty() && !settings.ingressGatewayNamespace().equals(settings.namespace())) {
            namespaces.add(settings.ingressGatewayNamespace());
        }
        return namespaces;
    }

    private void startCpu() {
        ClusterCpu c = ClusterCpu.start(settings, forwards, cpuNamespaces(), this::componentOf, components(), started.minusSeconds(60));
        synchronized (this) {
            keepNewest(latest, c.startSamples());
        }
        cpu = c;
    }

    private static URI withPath(URI u) {
        return u.getRawPath() == null || u.getRawPath().isEmpty() ? u.resolve("/") : u;
    }

    /** The cell's components, as {@link #componentOf} places CPU series on them. */
    public List<Component> components() {
        List<Component> out = new ArrayList<>();
        for (String svc : services) {
            out.add(new Component(svc, ComponentRole.APP));
            if (cell.sidecar()) {
                out.add(new Component(ComponentNames.sidecarOf(svc), ComponentRole.MESH));
            }
        }
        if (cell.ingress()) {
            out.add(new Component(ComponentNames.INGRESS_GATEWAY, ComponentRole.MESH));
        }
        return out;
    }

    /** Places a container series: a graph service's own container, its pods' {@code istio-proxy}, Istio's ingress gateway. */
    Optional<Component> componentOf(Map<String, String> labels) {
        String ns = labels.getOrDefault("namespace", "");
        String pod = labels.getOrDefault("pod", "");
        String container = labels.getOrDefault("container", "");
        if (ns.equals(settings.namespace())) {
            for (String svc : services) {
                if (KubernetesDeployment.ownedBy(pod, svc)) {
                    if (container.equals(svc)) {
                        return Optional.of(new Component(svc, ComponentRole.APP));
                    }
                    return cell.sidecar() && ISTIO_PROXY.equals(container)
                            ? Optional.of(new Component(ComponentNames.sidecarOf(svc), ComponentRole.MESH)) : Optional.empty();
                }
            }
        }
        if (ns.equals(settings.ingressGatewayNamespace()) && ISTIO_PROXY.equals(container)
                && KubernetesDeployment.podOf(pod, ingressGateways)) {
            return Optional.of(new Component(ComponentNames.INGRESS_GATEWAY, ComponentRole.MESH));
        }
        return Optional.empty();
    }

    /** Where the load generator sends: the one entry (the cluster balances behind it). */
    @Override
    public List<URI> targets() {
        URI e = entry;
        if (e == null) {
            throw new IllegalStateException("cell " + cell.id() + ": the entry is not open yet");
        }
        return List.of(e);
    }

    /**
     * Every container's cumulative CPU as Prometheus last saw it (one sample per container, the newest): up to one
     * scrape interval old, so a phase's CPU is as exact as the scrape interval against the phase's length.
     */
    @Override
    public synchronized List<ResourceSample> sampleResources() {
        ClusterCpu c = cpu;
        if (c == null) {
            return List.of();
        }
        return keepNewest(latest, c.poll());
    }

    /**
     * Adds {@code polled} to {@code latest} (newest sample per pid) and returns every pid's newest: what the runner
     * takes differences of, one cumulative reading per container, even from a poll that brought nothing new.
     */
    static List<ResourceSample> keepNewest(Map<Long, ResourceSample> latest, List<ResourceSample> polled) {
        for (ResourceSample s : polled) {
            latest.merge(s.pid(), s, (a, b) -> b.epochMs() >= a.epochMs() ? b : a);
        }
        return latest.values().stream().sorted(java.util.Comparator.comparingLong(ResourceSample::pid)).toList();
    }

    /** Istio's proxies, with the version of istiod where the cluster shows it. */
    @Override
    public DataPlaneInfo dataPlane(DataPlaneInfo planned) {
        Map<String, String> versions = new LinkedHashMap<>();
        ClusterFacts.istioVersion(client).ifPresent(v -> {
            if (cell.sidecar()) {
                versions.put("sidecar", "istio-proxy " + v);
            }
            if (cell.ingress()) {
                versions.put(ComponentNames.INGRESS_GATEWAY, "istio-proxy " + v);
            }
        });
        // dataPlane.versions' keys are component kinds: the proxies' facts go into the value of each Istio proxy.
        String facts = ClusterFacts.describe(ClusterFacts.proxyFacts(client, settings.namespace()));
        if (!facts.isEmpty()) {
            versions.replaceAll((kind, v) -> v.startsWith("istio-proxy ") ? v + " (" + facts + ")" : v);
        }
        return new DataPlaneInfo(planned.name(), versions, planned.workers(), planned.sidecarMtls(), planned.ingress(), planned.tlsProvider());
    }

    public LatencyCell cell() {
        return cell;
    }

    /** The Service a port-forward would enter by, for tests: Istio's ingress gateway's or the entrypoint's. */
    String entryService() {
        return cell.ingress() ? ops.istioGatewayService(settings.ingressGatewayNamespace(), ClusterOps.ISTIO_INGRESS_GATEWAY)
                .getMetadata().getName() : LatencyManifests.entrypoint(docs);
    }

    @Override
    String name() {
        return cell.id();
    }
}
