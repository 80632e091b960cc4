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
import dev.meshbench.orchestrator.deploy.Switch;
import dev.meshbench.orchestrator.deploy.TargetException;
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
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application on a cluster with one case applied. {@link #start} checks the prerequisites, removes what another
 * case added, and applies the first case's manifests; {@link #awaitReady} waits for the rollouts (and Istio's egress
 * and ingress gateways where the cases and {@code ingress} use them), opens the entry to the services, loads the
 * database and waits until Prometheus has series for every component. {@link #apply} switches to another of the cases
 * it was prepared for while everything runs ({@link #SWITCH}). {@link #close} tears everything down unless
 * {@code keep} is set; it runs on every exit path (the runner's shutdown hook covers Ctrl-C).
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
    /** How a switch goes, in words ({@link KubernetesTarget#bypassSwitch()} says the bypass part). */
    static final String SWITCH = "the next case's resources are applied into the running namespace by server-side apply and "
            + "the current case's resources it lacks deleted; pods restart only where the pod template changes; then every "
            + "proxy on a MongoDB path is read until it has the next case's routes and nothing left draining";
    /** The pod annotation case bypass sets, read by istio-init when the pod starts. */
    static final String EXCLUDE_OUTBOUND = "traffic.sidecar.istio.io/excludeOutboundIPRanges";
    /** How long apart the proxies are read while a switch is being confirmed. */
    private static final Duration CONFIRM_POLL = Duration.ofSeconds(2);

    private volatile EgressCase egressCase;
    /** Held by a switch: one at a time. */
    private final Object switching = new Object();
    /** Every case this deployment may switch to, rendered with the same JWT key pair, in the catalogue's order. */
    private final Map<EgressCase, Manifests> prepared;
    private final ProxyAdmin proxies;
    private final MongoRoutes.Mesh mesh;
    /** Set once {@link #awaitReady} has loaded the database: a switch then also checks the services and the data. */
    private volatile boolean ready;
    /** The pods whose CPU series count: those running when the CPU sampling started or the last switch ended. */
    private volatile java.util.Set<String> cpuPods = java.util.Set.of();
    private final int customers;
    private final int flightDays;
    private final WorkloadInfo workload;
    private final boolean ingress;
    private final List<io.fabric8.kubernetes.api.model.apps.Deployment> ingressGateways;
    private final Map<String, URI> serviceEndpoints = new LinkedHashMap<>();
    private final Map<String, URI> serviceAdmin = new LinkedHashMap<>();
    /**
     * The kit's own requests to the services. Replaced after a switch restarted them: its kept-alive connections to a
     * ClusterIP stay with the pod they were opened to, the old one.
     */
    private volatile HttpClient http = newHttp();
    private List<io.fabric8.kubernetes.api.model.apps.Deployment> istioGateways = List.of();
    private ClusterCpu cpu;

    /** One case's manifests: the rendered documents and fabric8's typed resources of them. */
    private record Manifests(List<ObjectNode> docs, List<HasMetadata> resources) {
    }

    private KubernetesDeployment(EgressCase egressCase, KubernetesSettings settings, int customers, int flightDays,
            WorkloadInfo workload, List<io.fabric8.kubernetes.api.model.apps.Deployment> ingressGateways, KubernetesClient client,
            ClusterOps.Applier applier, PrintStream progress, Map<EgressCase, Manifests> prepared, ProxyAdmin proxies) {
        super(settings, client, new ClusterOps(client, settings.namespace(), applier), progress, prepared.get(egressCase).docs(),
                prepared.get(egressCase).resources());
        this.egressCase = egressCase;
        this.prepared = prepared;
        this.proxies = proxies;
        this.mesh = MongoRoutes.Mesh.of(settings);
        this.customers = customers;
        this.flightDays = flightDays;
        this.workload = workload;
        this.ingress = !ingressGateways.isEmpty();
        this.ingressGateways = ingressGateways;
    }

    /**
     * Checks (with {@code ingress}, Istio's ingress gateway too; for any of the cases that uses it, Istio's egress
     * gateway), renders every case of {@code reachable} with one JWT key pair, removes what another case added and
     * applies {@code first}; on failure tears down what it created and closes the client before throwing.
     *
     * @param reachable the cases {@link #apply} may switch to ({@code first} is added if missing)
     * @param proxies   how the proxies' own Envoy admin is read (made with the deployment's client)
     */
    static KubernetesDeployment start(EgressCase first, List<EgressCase> reachable, KubernetesSettings s, int customers, int flightDays,
            WorkloadInfo workload, boolean ingress, KubernetesClient client, ClusterOps.Applier applier,
            java.util.function.Function<KubernetesClient, ProxyAdmin> proxies, PrintStream progress) {
        java.util.Set<EgressCase> wanted = java.util.EnumSet.of(first);
        wanted.addAll(reachable);
        List<EgressCase> cases = List.copyOf(wanted);
        ClusterOps ops = new ClusterOps(client, s.namespace(), applier);
        List<io.fabric8.kubernetes.api.model.apps.Deployment> ingressGateways;
        try {
            // The one check of the egress gateway names the first case that needs it.
            ops.checkPrerequisites(cases.stream().filter(KubernetesDeployment::usesIstioEgressGateway).findFirst().orElse(first),
                    s.egressGatewayNamespace());
            ingressGateways = ingress
                    ? ops.istioGateways(s.ingressGatewayNamespace(), ClusterOps.ISTIO_INGRESS_GATEWAY, "no ingress gateway", "case "
                            + first.id() + " sends the load through Istio's ingress gateway (-D" + RunSettings.P_INGRESS + "=true): install it "
                            + "(istioctl's default profile has it), name its namespace with -D"
                            + KubernetesSettings.P_INGRESS_GATEWAY_NAMESPACE + ", or send the load to each service directly with -D"
                            + RunSettings.P_INGRESS + "=false")
                    : List.of();
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        // One key pair for every case: auth's tokens stay valid across switches, and the Secret does not change.
        KeyPair jwt = KeyType.RSA_2048.generate();
        Map<String, String> jwtPem = Map.of("private.pem", Pem.privateKey(jwt.getPrivate()), "public.pem", Pem.publicKey(jwt.getPublic()));
        Map<EgressCase, Manifests> prepared = new java.util.EnumMap<>(EgressCase.class);
        int scaled = 0;
        try {
            for (EgressCase c : cases) {
                List<ObjectNode> docs = CaseManifests.render(c, s, workload, jwtPem);
                scaled = CpuRequests.scale(docs, s.cpuRequestScale());
                prepared.put(c, new Manifests(List.copyOf(docs), CaseManifests.typed(docs, client.getKubernetesSerialization())));
            }
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        if (scaled > 0) {
            progress.printf("[%s] CPU requests of the kit's containers scaled by %s (-D%s); limits unchanged%n", first.id(),
                    s.cpuRequestScale(), KubernetesSettings.P_CPU_REQUEST_SCALE);
        }
        KubernetesDeployment d = new KubernetesDeployment(first, s, customers, flightDays, workload, ingressGateways, client, applier,
                progress, prepared, proxies.apply(client));
        try {
            List<String> removed = ops.removeOtherCases(first);
            if (!removed.isEmpty()) {
                progress.printf("[%s] removed what another case added: %s%n", first.id(), String.join(", ", removed));
            }
            List<HasMetadata> resources = prepared.get(first).resources();
            progress.printf("[%s] applying %d resources of istio-config/%s to namespace %s at %s%n", first.id(), resources.size(),
                    first.istioConfigDir(), s.namespace(), client.getMasterUrl());
            if (cases.size() > 1) {
                progress.printf("[%s] prepared to switch to %s in the same namespace (one JWT key pair for all)%n", first.id(),
                        String.join(", ", cases.stream().filter(c -> c != first).map(EgressCase::id).toList()));
            }
            ops.apply(resources);
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    /** Whether case {@code c} sends MongoDB's connections through Istio's own egress gateway (gateway and mtls). */
    static boolean usesIstioEgressGateway(EgressCase c) {
        return switch (c) {
            case GATEWAY, MTLS -> true;
            case BYPASS, SIDECAR, SNI -> false;
        };
    }

    /** The cases this deployment may switch to, in the catalogue's order. */
    public List<EgressCase> reachable() {
        return List.copyOf(prepared.keySet());
    }

    @Override
    public EgressCase egressCase() {
        return egressCase;
    }

    public ClusterOps ops() {
        return ops;
    }

    /**
     * Waits for the rollouts only (and Istio's egress gateway where one of the cases prepared, gateway or mtls, uses
     * it, its ingress gateway with {@code ingress}): what a check of the rollouts alone needs.
     */
    public void awaitRollouts(Duration timeout) {
        if (prepared.keySet().stream().anyMatch(KubernetesDeployment::usesIstioEgressGateway)) {
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
        ready = true;
    }

    /**
     * Switches the running namespace to case {@code next} ({@link #SWITCH}): applies its resources (server-side apply,
     * field manager {@value CaseManifests#FIELD_MANAGER}), deletes the current case's resources it lacks, waits for
     * the rollouts where pod templates change (bypass and back: the services' Deployments, whose pods take istio-init's
     * excluded CIDR at start; sni: the kit's egress gateway), waits until the pods of a deleted Deployment are gone,
     * then reads every proxy on a MongoDB path of either case until it has {@code next}'s routes, endpoints for them
     * and nothing draining ({@link #confirmProxies}). After {@link #awaitReady}: the restarted services answer their
     * {@code /ready} again, the database still holds what was loaded (MongoDB is outside the cluster: never reloaded),
     * and Prometheus has series for every component of {@code next}. All within
     * {@code meshbench.kubernetes.readyTimeoutSeconds} per wait.
     *
     * <p>All of {@code next}'s resources are applied at once, as one {@code kubectl apply}: sni's egress gateway then
     * starts with its routes in place. Rolled out before its routes (tried on the test cluster), it took them in
     * several pushes, each a listener change that Envoy drains for its drain time, and mtls to sni took 144 s instead
     * of 65 to 100 s; the price of applying at once is that for the seconds before that gateway is ready the sidecars
     * may route new MongoDB connections to it, inside the switch, which is never measured.
     *
     * @throws IllegalArgumentException {@code next} was not among the cases prepared at {@link #start}
     * @throws TargetException a step failed or a component did not confirm its part, naming it and what it has; the
     *                         case must not be measured (the namespace keeps what was applied; another switch or
     *                         {@link #close} may follow)
     */
    @Override
    public Switch apply(EgressCase next) {
        Objects.requireNonNull(next, "next");
        // Not on this object's monitor: close() (the runner's shutdown hook on Ctrl-C) must tear down at once, not wait
        // for a switch that may be waiting minutes for a proxy.
        synchronized (switching) {
            return switchTo(next);
        }
    }

    private Switch switchTo(EgressCase next) {
        Manifests to = prepared.get(next);
        if (to == null) {
            throw new IllegalArgumentException("case " + next.id() + " was not prepared for this deployment (it can switch to "
                    + String.join(", ", reachable().stream().map(EgressCase::id).toList()) + "): name it among the reachable cases "
                    + "of Target.deploy");
        }
        EgressCase from = egressCase;
        SwitchPlan plan = SwitchPlan.between(prepared.get(from).resources(), to.resources());
        long t0 = System.nanoTime();
        List<String> done = new ArrayList<>();
        progress.printf("[%s] switching from %s in namespace %s: applying %d resources of istio-config/%s, deleting %d%n", next.id(),
                from.id(), settings.namespace(), plan.apply().size(), next.istioConfigDir(), plan.delete().size());
        Map<String, List<String>> podsBefore = podNames(plan.kept(), to.resources());

        ops.apply(plan.apply());
        done.add(String.format(Locale.ROOT, "applied the %d resources of istio-config/%s by server-side apply%s", plan.apply().size(),
                next.istioConfigDir(), plan.added().isEmpty() ? "" : " (new: Deployment " + String.join(", ", plan.added()) + ")"));
        if (!plan.delete().isEmpty()) {
            done.add("deleted " + String.join(", ", ops.delete(plan.delete())));
        }
        switchManifests(to.docs(), to.resources());
        egressCase = next;

        if (plan.rollsOut()) {
            List<String> rolled = new ArrayList<>(plan.restarted());
            rolled.addAll(plan.added());
            long r0 = System.nanoTime();
            ops.awaitRollouts(List.of(), deployments(to.resources(), rolled), settings.readyTimeout());
            done.add(String.format(Locale.ROOT, "rolled out %s in %.1f s (%s)", String.join(", ", rolled), seconds(r0),
                    rolloutReason(plan, from, next)));
        }
        if (!plan.removed().isEmpty()) {
            long g0 = System.nanoTime();
            ops.awaitPodsGone(deployments(prepared.get(from).resources(), plan.removed()), settings.readyTimeout());
            done.add(String.format(Locale.ROOT, "the pods of %s gone in %.1f s", String.join(", ", plan.removed()), seconds(g0)));
        }
        if (!plan.kept().isEmpty()) {
            Map<String, List<String>> podsAfter = podNames(plan.kept(), to.resources());
            done.add(podsAfter.equals(podsBefore)
                    ? "kept the pods of " + String.join(", ", plan.kept()) + " (pod template unchanged)"
                    : "pods of " + String.join(", ", plan.kept()) + " were replaced during the switch though their template did not "
                            + "change (before " + podsBefore + ", now " + podsAfter + ")");
        }

        long c0 = System.nanoTime();
        List<String> confirmed = confirmProxies(from, next, settings.readyTimeout());
        done.add(String.format(Locale.ROOT, "confirmed from the proxies' own Envoy in %.1f s: %s", seconds(c0), String.join("; ", confirmed)));

        if (ready) {
            List<String> restartedServices = plan.restarted().stream().filter(ComponentNames.SERVICES::contains).toList();
            if (!restartedServices.isEmpty()) {
                long s0 = System.nanoTime();
                http = newHttp();
                reopenForwards(restartedServices);
                awaitServices(settings.readyTimeout());
                done.add(String.format(Locale.ROOT, "%s ready again in %.1f s (new pods, JVMs cold)", String.join(", ", restartedServices),
                        seconds(s0)));
            }
            done.add(checkData(next));
            if (cpu != null) {
                cpuPods = runningPods();
                cpu.awaitSeries(components());
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        progress.printf(Locale.ROOT, "[%s] switched from %s in %.1f s%n", next.id(), from.id(), took.toMillis() / 1000.0);
        // The services are JVMs: a pod the switch restarted starts its JIT over. (Proxies are Envoy: no JIT to warm.)
        return new Switch(from, next, took, done, plan.restarted().stream().filter(ComponentNames.SERVICES::contains).toList());
    }

    private static double seconds(long sinceNanos) {
        return (System.nanoTime() - sinceNanos) / 1e9;
    }

    /** Why the switch rolled pods out, in words. */
    private static String rolloutReason(SwitchPlan plan, EgressCase from, EgressCase next) {
        List<String> why = new ArrayList<>();
        if (!plan.restarted().isEmpty()) {
            why.add(from == EgressCase.BYPASS || next == EgressCase.BYPASS
                    ? "pod template changed: istio-init's excluded CIDR (" + EXCLUDE_OUTBOUND + ") " + (next == EgressCase.BYPASS
                            ? "added" : "removed")
                    : "pod template changed");
        }
        if (!plan.added().isEmpty()) {
            why.add("new in case " + next.id());
        }
        return String.join("; ", why);
    }

    /** The Deployments named, from {@code resources}. */
    private static List<io.fabric8.kubernetes.api.model.apps.Deployment> deployments(List<HasMetadata> resources, List<String> names) {
        return resources.stream().filter(io.fabric8.kubernetes.api.model.apps.Deployment.class::isInstance)
                .map(io.fabric8.kubernetes.api.model.apps.Deployment.class::cast)
                .filter(d -> names.contains(d.getMetadata().getName())).toList();
    }

    /** The running pods of each Deployment named, by Deployment. */
    private Map<String, List<String>> podNames(List<String> names, List<HasMetadata> resources) {
        Map<String, List<String>> out = new java.util.TreeMap<>();
        for (var d : deployments(resources, names)) {
            out.put(d.getMetadata().getName(), ops.runningPods(d).stream().map(p -> p.getMetadata().getName()).toList());
        }
        return out;
    }

    /**
     * One Istio proxy on a MongoDB path, as a switch reads it.
     *
     * @param which which of its kind, for the gateways ("Istio's istio-egressgateway"), else empty
     */
    private record ProxyPod(String component, String which, MongoRoutes.Proxy kind, io.fabric8.kubernetes.api.model.Pod pod) {
        String name() {
            return component + " (" + (which.isEmpty() ? "" : which + ", ") + "pod " + key() + ")";
        }

        String key() {
            return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        }
    }

    /**
     * Reads every proxy a switch from {@code from} to {@code next} touches, every {@link #CONFIRM_POLL}, until all of
     * them at once have what {@code next} gives them ({@link #proxyProblem}); the proxies are listed again each time, so
     * a pod that restarts meanwhile is read as it is then.
     *
     * @return what each proxy confirmed, in words
     * @throws TargetException at {@code timeout}, naming each proxy that has not and what it still has
     */
    List<String> confirmProxies(EgressCase from, EgressCase next, Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        // When each proxy (by pod) first had the next case's routes, and first had nothing else to wait for.
        Map<String, Double> routed = new java.util.HashMap<>();
        Map<String, Double> settled = new java.util.HashMap<>();
        List<String> lastProblems = List.of();
        while (true) {
            List<String> problems = new ArrayList<>();
            List<String> confirmed = new ArrayList<>();
            List<ProxyPod> touched;
            try {
                touched = touchedProxies(from, next, problems);
            } catch (TargetException e) {
                touched = List.of();
                problems.add(e.getMessage());
            }
            for (ProxyPod p : touched) {
                String problem;
                try {
                    problem = proxyProblem(p, next, () -> routed.putIfAbsent(p.key(), seconds(start)));
                } catch (TargetException | IllegalArgumentException e) {
                    problem = "unreadable: " + e.getMessage();
                }
                if (problem == null) {
                    settled.putIfAbsent(p.key(), seconds(start));
                    confirmed.add(String.format(Locale.ROOT, "%s: %s (routes after %.1f s, nothing left draining after %.1f s)", p.name(),
                            MongoRoutes.describe(MongoRoutes.expected(next, p.kind(), mesh)), routed.get(p.key()), settled.get(p.key())));
                } else {
                    settled.remove(p.key());
                    problems.add(p.name() + " " + problem);
                }
            }
            if (problems.isEmpty()) {
                return confirmed;
            }
            if (System.nanoTime() > deadline) {
                throw new TargetException("switching from case " + from.id() + " to " + next.id() + ": not confirmed after "
                        + timeout.toSeconds() + " s (-D" + KubernetesSettings.P_READY_TIMEOUT + "): " + String.join("; ", problems));
            }
            if (!problems.equals(lastProblems)) {
                LOG.info("switch to {} not confirmed after {} s: {}", next.id(), String.format(Locale.ROOT, "%.1f", seconds(start)), problems);
                lastProblems = problems;
            }
            try {
                Thread.sleep(CONFIRM_POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("interrupted while confirming the switch to case " + next.id());
            }
        }
    }

    /**
     * The proxies whose MongoDB routes differ between {@code from} and {@code next}, or that {@code next} needs: every
     * service's sidecar, Istio's egress gateway where either case uses it, the kit's egress gateway in sni. A Deployment
     * without a running pod adds a problem.
     */
    private List<ProxyPod> touchedProxies(EgressCase from, EgressCase next, List<String> problems) {
        List<ProxyPod> out = new ArrayList<>();
        List<io.fabric8.kubernetes.api.model.apps.Deployment> services = deployments(resources, ComponentNames.SERVICES);
        for (var d : services) {
            add(out, problems, d, ComponentNames.sidecarOf(d.getMetadata().getName()), "", MongoRoutes.Proxy.SIDECAR);
        }
        if (usesIstioEgressGateway(from) || usesIstioEgressGateway(next)) {
            for (var g : istioGateways) {
                add(out, problems, g, ComponentNames.EGRESS_GATEWAY, "Istio's " + g.getMetadata().getName(),
                        MongoRoutes.Proxy.ISTIO_EGRESS_GATEWAY);
            }
            if (istioGateways.isEmpty()) {
                problems.add("Istio's egress gateway is not known to this deployment (awaitReady or awaitRollouts first)");
            }
        }
        if (next == EgressCase.SNI) {
            for (var g : deployments(resources, List.of(KIT_GATEWAY))) {
                add(out, problems, g, ComponentNames.EGRESS_GATEWAY, "the kit's " + KIT_GATEWAY, MongoRoutes.Proxy.KIT_EGRESS_GATEWAY);
            }
        }
        return out;
    }

    private void add(List<ProxyPod> out, List<String> problems, io.fabric8.kubernetes.api.model.apps.Deployment d, String component,
            String which, MongoRoutes.Proxy kind) {
        List<io.fabric8.kubernetes.api.model.Pod> pods = ops.runningPods(d);
        if (pods.isEmpty()) {
            problems.add(component + (which.isEmpty() ? "" : " (" + which + ")") + ": no running pod of Deployment "
                    + d.getMetadata().getName());
        }
        pods.forEach(p -> out.add(new ProxyPod(component, which, kind, p)));
    }

    /**
     * What proxy {@code p} lacks of case {@code next}, read from itself, or null when it has it all ({@code hasRoutes}
     * is run once its routes are the next case's): for a sidecar,
     * istio-init's exclusion of MongoDB's address as the running pod got it (bypass only); the routes its Envoy has for
     * MongoDB ({@link MongoRoutes}); a healthy endpoint in each route's cluster; no listener or filter chain draining,
     * so no connection is left on a route from before the switch (Envoy closes them when its drain time ends).
     */
    private String proxyProblem(ProxyPod p, EgressCase next, Runnable hasRoutes) {
        String ns = p.pod().getMetadata().getNamespace();
        String pod = p.pod().getMetadata().getName();
        if (p.kind() == MongoRoutes.Proxy.SIDECAR) {
            boolean excludes = excludesMongo(p.pod());
            if (excludes != (next == EgressCase.BYPASS)) {
                return excludes
                        ? "still leaves MongoDB's address " + mesh.cidr() + " out of its sidecar (" + EXCLUDE_OUTBOUND + ", taken by istio-init "
                                + "when the pod started), as in case bypass"
                        : "does not leave MongoDB's address " + mesh.cidr() + " out of its sidecar (" + EXCLUDE_OUTBOUND
                                + "): a pod from before the switch to bypass";
            }
        }
        Set<MongoRoutes.Route> expected = MongoRoutes.expected(next, p.kind(), mesh);
        Set<MongoRoutes.Route> has = MongoRoutes.observed(proxies.get(ns, pod, "config_dump?resource=dynamic_listeners"),
                proxies.get(ns, pod, "config_dump?resource=dynamic_active_clusters"), mesh.host(), mesh.listenerPort(p.kind()));
        if (!has.equals(expected)) {
            List<EgressCase> as = MongoRoutes.casesWith(has, p.kind(), mesh);
            return "has " + MongoRoutes.describe(has) + (as.isEmpty() ? "" : " (as in case " + String.join(", ",
                    as.stream().map(EgressCase::id).toList()) + ")") + ", not case " + next.id() + "'s " + MongoRoutes.describe(expected);
        }
        hasRoutes.run();
        if (!expected.isEmpty()) {
            String clusters = proxies.get(ns, pod, "clusters");
            for (MongoRoutes.Route r : expected) {
                if (MongoRoutes.healthyEndpoints(clusters, r.cluster()) == 0) {
                    return "has case " + next.id() + "'s route but no healthy endpoint yet in its cluster " + r.cluster();
                }
            }
        }
        java.util.OptionalInt draining = MongoRoutes.draining(proxies.get(ns, pod, "stats?filter=" + DRAINING_STATS));
        if (draining.isPresent() && draining.getAsInt() > 0) {
            return "has case " + next.id() + "'s routes but " + draining.getAsInt() + " listener(s) or filter chain(s) still draining: "
                    + "connections taken before the switch, which Envoy closes when its drain time ends";
        }
        return null;
    }

    /** Envoy's gauges of listeners and filter chains draining after an update. */
    static final String DRAINING_STATS = "^listener_manager\\.total_(filter_chains|listeners)_draining$";

    /**
     * Whether the running pod leaves MongoDB's address out of its sidecar: its {@value #EXCLUDE_OUTBOUND} annotation
     * (what the injector and istio-init read when it started) or istio-init's own arguments name it.
     */
    private boolean excludesMongo(io.fabric8.kubernetes.api.model.Pod pod) {
        String cidr = mesh.cidr();
        String annotation = Optional.ofNullable(pod.getMetadata().getAnnotations()).map(a -> a.get(EXCLUDE_OUTBOUND)).orElse("");
        if (List.of(annotation.split(",")).contains(cidr)) {
            return true;
        }
        return Optional.ofNullable(pod.getSpec()).map(s -> s.getInitContainers()).orElse(List.of()).stream()
                .filter(c -> "istio-init".equals(c.getName()))
                .flatMap(c -> Optional.ofNullable(c.getArgs()).orElse(List.of()).stream())
                .anyMatch(a -> List.of(a.split(",")).contains(cidr));
    }

    /** The port-forwards to the services named re-opened to their new pods (no-op with ClusterIPs). */
    private void reopenForwards(List<String> services) {
        for (String svc : services) {
            URI admin = serviceAdmin.get(svc);
            URI endpoint = serviceEndpoints.get(svc);
            if (admin != null) {
                URI now = forwards.reopen(admin, settings.namespace(), svc, SERVICE_PORT);
                serviceAdmin.put(svc, now);
                if (!ingress) {
                    serviceEndpoints.put(svc, now);
                }
            } else if (!ingress && endpoint != null) {
                serviceEndpoints.put(svc, forwards.reopen(endpoint, settings.namespace(), svc, SERVICE_PORT));
            }
        }
    }

    /**
     * The data loaded at {@link #awaitReady} is still there after a switch: the customers counted by the customer
     * service and the flights by the flight service, each read through its own port (and so through its MongoDB path
     * of the new case).
     */
    private String checkData(EgressCase next) {
        long customersNow = count("customer", "/customer/config/countCustomers");
        long flights = count("flight", "/flight/config/countFlights");
        if (customersNow != customers || flights <= 0) {
            throw new TargetException("after the switch to case " + next.id() + " the database holds " + customersNow + " customers and "
                    + flights + " flights; " + customers + " customers and some flights were loaded: MongoDB lost data or the services "
                    + "read another database");
        }
        return "the database kept its data: " + customersNow + " customers, " + flights + " flights (MongoDB is outside the mesh; not reloaded)";
    }

    /**
     * A number a service answers at {@code path} of its own port, asked until it answers 200 (a pod that is terminating
     * after a rollout may still take a request for a moment) within {@code meshbench.kubernetes.readyTimeoutSeconds}.
     */
    private long count(String svc, String path) {
        URI uri = serviceAdmin.get(svc).resolve(path);
        long deadline = System.nanoTime() + settings.readyTimeout().toNanos();
        String last;
        while (true) {
            try {
                java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20))
                        .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    try {
                        return Long.parseLong(r.body().trim());
                    } catch (NumberFormatException e) {
                        throw new TargetException("checking the database after a switch: GET " + uri + " answered no number: "
                                + MongoRoutes.abbreviate(r.body()));
                    }
                }
                last = r.statusCode() + " " + MongoRoutes.abbreviate(r.body());
            } catch (java.io.IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("checking the database after a switch interrupted");
            }
            if (System.nanoTime() > deadline) {
                throw new TargetException("checking the database after a switch: GET " + uri + " answered " + last + " until "
                        + settings.readyTimeout().toSeconds() + " s");
            }
            LOG.debug("GET {} answered {}; asking again", uri, last);
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("checking the database after a switch interrupted");
            }
        }
    }

    private static HttpClient newHttp() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
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

    void awaitServices(Duration timeout) {
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
        cpuPods = runningPods();
        cpu = ClusterCpu.start(settings, forwards, namespaces(),
                labels -> cpuPods.contains(labels.getOrDefault("namespace", "") + "/" + labels.getOrDefault("pod", ""))
                        ? componentOf(labels) : Optional.empty(),
                components(), started.minusSeconds(60));
    }

    /** {@code namespace/pod} of every pod running now in the namespaces sampled. */
    private java.util.Set<String> runningPods() {
        java.util.Set<String> current = new java.util.HashSet<>();
        for (String ns : namespaces()) {
            client.pods().inNamespace(ns).list().getItems().stream()
                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null && "Running".equals(p.getStatus().getPhase()))
                    .forEach(p -> current.add(ns + "/" + p.getMetadata().getName()));
        }
        return java.util.Set.copyOf(current);
    }

    /** The kit's namespace, and where the Istio gateways the cases prepared use run. */
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
        if (ns.equals(settings.egressGatewayNamespace()) && "istio-proxy".equals(container) && usesIstioEgressGateway(egressCase)
                && podOf(pod, istioGateways)) {
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
        // The case's topology has one home, its plan (TopologyPlanner), as on the local target; MongoDB is outside the
        // cluster here, so it is not a component of the deployment.
        return dev.meshbench.orchestrator.plan.TopologyPlanner.plan(egressCase,
                        new dev.meshbench.orchestrator.plan.PlanOptions(dev.meshbench.orchestrator.plan.DataPlane.ENVOY, true, 2, ingress))
                .components().stream().filter(c -> c.kind() != dev.meshbench.orchestrator.plan.ComponentKind.DATABASE)
                .map(c -> new Component(c.name(), c.role())).toList();
    }

    /**
     * The MongoDB-path counters of every proxy that could be on it, read from each proxy's own Envoy stats
     * ({@link ClusterHops}): the services' sidecars, Istio's egress gateway, and the kit's egress gateway while the case
     * deploys it (its counters also stand for the SNI proxy behind it). A switched window is then proven by the same
     * {@code PathProof} as on the local target: taken at its start and end, the counters of a proxy left on another
     * case's route show MongoDB's bytes where the case says none may pass. A proxy that does not answer (after three
     * tries) is kept as unread, which the proof reports.
     */
    @Override
    public Map<String, String> hopStats() {
        Map<String, String> out = new java.util.TreeMap<>();
        for (var d : deployments(resources, ComponentNames.SERVICES)) {
            String component = ComponentNames.sidecarOf(d.getMetadata().getName());
            out.put(component, hops(List.of(d), MongoRoutes.Proxy.SIDECAR).json(component, HopKind.SIDECAR));
        }
        List<io.fabric8.kubernetes.api.model.apps.Deployment> kit = deployments(resources, List.of(KIT_GATEWAY));
        HopRead toSniProxy = hops(kit, MongoRoutes.Proxy.KIT_EGRESS_GATEWAY);
        out.put(ComponentNames.EGRESS_GATEWAY, hops(istioGateways, MongoRoutes.Proxy.ISTIO_EGRESS_GATEWAY).plus(toSniProxy)
                .json(ComponentNames.EGRESS_GATEWAY, HopKind.EGRESS_GATEWAY));
        if (!kit.isEmpty()) {
            out.put(ComponentNames.SNI_PROXY, toSniProxy.json(ComponentNames.SNI_PROXY, HopKind.SNI_PROXY));
        }
        return out;
    }

    /** The MongoDB-path bytes of some proxies added up ([client to upstream, back]), or why one of them could not be read. */
    private record HopRead(long[] bytes, String unread) {
        HopRead plus(HopRead other) {
            return unread != null ? this : other.unread != null ? other : new HopRead(ClusterHops.add(bytes, other.bytes), null);
        }

        String json(String component, HopKind hop) {
            return unread != null ? ClusterHops.unread(component, unread) : ClusterHops.component(component, hop, bytes);
        }
    }

    /** The MongoDB-path bytes of every running pod of {@code deployments}, proxies of kind {@code kind}. */
    private HopRead hops(List<io.fabric8.kubernetes.api.model.apps.Deployment> deployments, MongoRoutes.Proxy kind) {
        Set<String> clusters = ClusterHops.mongoClusters(kind, mesh);
        long[] sum = new long[2];
        for (var d : deployments) {
            for (var pod : ops.runningPods(d)) {
                try {
                    sum = ClusterHops.add(sum, ClusterHops.bytes(clusterBytes(pod), clusters));
                } catch (TargetException e) {
                    return new HopRead(null, e.getMessage());
                }
            }
        }
        return new HopRead(sum, null);
    }

    /** The byte counters of every cluster of the proxy in {@code pod} ({@link ClusterHops#STATS_FILTER}); tried three times. */
    private String clusterBytes(io.fabric8.kubernetes.api.model.Pod pod) {
        for (int attempt = 1;; attempt++) {
            try {
                return proxies.get(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), "stats?filter=" + ClusterHops.STATS_FILTER);
            } catch (TargetException e) {
                if (attempt == 3) {
                    throw e;
                }
                LOG.warn("proxy counters, try {} of 3: {}", attempt, e.getMessage());
            }
        }
    }

    /**
     * Each service's work counters from its own {@code /metrics} ({@link dev.meshbench.orchestrator.deploy.ServiceCounters},
     * as on the local target), and each sidecar's bytes: all its clusters' ({@code listenerBytes}) and its MongoDB
     * clusters' ({@code mongoPathBytes}), from its Envoy's own counters, so the converter can take each sidecar's
     * MongoDB share of its CPU on a cluster too. A component that does not answer is left out of the reading.
     */
    @Override
    public Map<String, Map<String, Double>> workCounters() {
        Map<String, Map<String, Double>> out = new java.util.TreeMap<>();
        for (Map.Entry<String, URI> svc : serviceAdmin.entrySet()) {
            URI uri = svc.getValue().resolve("/metrics");
            try {
                java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    out.put(svc.getKey(), dev.meshbench.orchestrator.deploy.ServiceCounters.of(r.body()));
                } else {
                    LOG.debug("work counters of {}: GET {} answered {}", svc.getKey(), uri, r.statusCode());
                }
            } catch (java.io.IOException e) {
                LOG.debug("work counters of {}: GET {} failed: {}", svc.getKey(), uri, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return out;
            }
        }
        Set<String> mongoClusters = ClusterHops.mongoClusters(MongoRoutes.Proxy.SIDECAR, mesh);
        for (var d : deployments(resources, ComponentNames.SERVICES)) {
            long all = 0;
            long[] mongo = new long[2];
            try {
                for (var pod : ops.runningPods(d)) {
                    String stats = clusterBytes(pod);
                    all += ClusterHops.allBytes(stats);
                    mongo = ClusterHops.add(mongo, ClusterHops.bytes(stats, mongoClusters));
                }
            } catch (TargetException e) {
                LOG.debug("hop counters of the sidecar of {}: {}", d.getMetadata().getName(), e.getMessage());
                continue;
            }
            out.put(ComponentNames.sidecarOf(d.getMetadata().getName()), Map.of(dev.meshbench.results.WorkCounters.LISTENER_BYTES, (double) all,
                    dev.meshbench.results.WorkCounters.MONGO_PATH_BYTES, (double) (mongo[0] + mongo[1])));
        }
        return out;
    }

    /**
     * Every 10 s: each reading of the sidecars' counters is a {@code kubectl exec} into each pod, which costs the node
     * CPU the measured pods would otherwise have; the converter interpolates the counters at a window's edges, and at a
     * fixed rate the shares they give do not change within a window.
     */
    @Override
    public Duration workCounterInterval() {
        return Duration.ofSeconds(10);
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
