package dev.meshbench.orchestrator.kubernetes;

import static dev.meshbench.orchestrator.kubernetes.CaseManifests.CASE_LABEL;
import static dev.meshbench.orchestrator.kubernetes.CaseManifests.PART_OF;
import static dev.meshbench.orchestrator.kubernetes.CaseManifests.PART_OF_VALUE;
import static dev.meshbench.orchestrator.kubernetes.CaseManifests.describe;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.TargetException;
import io.fabric8.istio.api.networking.v1.DestinationRule;
import io.fabric8.istio.api.networking.v1.Gateway;
import io.fabric8.istio.api.networking.v1.ServiceEntry;
import io.fabric8.istio.api.networking.v1.VirtualService;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the Kubernetes target does to a cluster, through fabric8: check the prerequisites, apply a case by
 * server-side apply, remove what another case added, wait for rollouts (naming what is not ready and why), and tear
 * down. Every failure is a {@link TargetException} naming the resource or endpoint and the server's own reason.
 */
public final class ClusterOps {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterOps.class);
    /** The kinds the kit creates, dependents first (the order of deletion). */
    static final List<Class<? extends HasMetadata>> KINDS = List.of(VirtualService.class, DestinationRule.class,
            Gateway.class, ServiceEntry.class, Deployment.class, Service.class, ServiceAccount.class, ConfigMap.class,
            Secret.class);
    /** Istio's CRDs the cases use. */
    static final List<String> ISTIO_CRDS = List.of("serviceentries.networking.istio.io", "gateways.networking.istio.io",
            "destinationrules.networking.istio.io", "virtualservices.networking.istio.io");
    /** The label that selects Istio's egress gateway (cases gateway and mtls). */
    public static final Map<String, String> ISTIO_EGRESS_GATEWAY = Map.of("istio", "egressgateway");
    /** The label that selects Istio's ingress gateway (the latency study's gateway cells; their Gateway's selector). */
    public static final Map<String, String> ISTIO_INGRESS_GATEWAY = Map.of("istio", "ingressgateway");

    private final KubernetesClient client;
    private final String namespace;
    private final Applier applier;

    public ClusterOps(KubernetesClient client, String namespace, Applier applier) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.applier = Objects.requireNonNull(applier, "applier");
    }

    /** The API server's version, e.g. {@code v1.31.4}; fails naming the server when it cannot be reached. */
    public String serverVersion() {
        try {
            return client.getKubernetesVersion().getGitVersion();
        } catch (KubernetesClientException e) {
            String source = client.getConfiguration().getCurrentContext() == null
                    ? " (no kubeconfig found: set KUBECONFIG or -D" + KubernetesSettings.P_KUBECONFIG + ")"
                    : " (kubeconfig context " + client.getConfiguration().getCurrentContext().getName() + ")";
            throw new TargetException("no reachable cluster at " + client.getMasterUrl() + source + ": " + reason(e), e);
        }
    }

    /**
     * Checks what a case needs before anything is created: Istio's CRDs (served at {@code v1}), the namespace free or
     * the kit's own, and for cases gateway and mtls Istio's egress gateway.
     */
    public void checkPrerequisites(EgressCase c, String egressGatewayNamespace) {
        checkClusterAndNamespace();
        if (c.passes(dev.meshbench.model.HopKind.EGRESS_GATEWAY) && c != EgressCase.SNI) {
            istioGateways(egressGatewayNamespace, ISTIO_EGRESS_GATEWAY, "no egress gateway", "case " + c.id()
                    + " needs Istio's egress gateway, e.g. istioctl install --set components.egressGateways[0].name=istio-egressgateway "
                    + "--set components.egressGateways[0].enabled=true");
        }
    }

    /**
     * Checks what every deployment of the kit needs: a reachable API server, Istio's CRDs served at {@code v1}, and
     * the namespace free or the kit's own.
     */
    public void checkClusterAndNamespace() {
        serverVersion();
        for (String crd : ISTIO_CRDS) {
            var def = call("reading CustomResourceDefinition " + crd,
                    () -> client.apiextensions().v1().customResourceDefinitions().withName(crd).get());
            if (def == null) {
                throw new TargetException("Istio's CRDs are not installed: CustomResourceDefinition " + crd + " not found at "
                        + client.getMasterUrl() + " (install Istio first, e.g. istioctl install)");
            }
            boolean v1 = def.getSpec().getVersions().stream().anyMatch(v -> "v1".equals(v.getName()) && Boolean.TRUE.equals(v.getServed()));
            if (!v1) {
                throw new TargetException("CustomResourceDefinition " + crd + " does not serve version v1 (Istio 1.22 or later needed)");
            }
        }
        Namespace ns = call("reading Namespace " + namespace, () -> client.namespaces().withName(namespace).get());
        if (ns != null && !owned(ns)) {
            throw new TargetException("Namespace " + namespace + " exists and is not the kit's (no label " + PART_OF + "="
                    + PART_OF_VALUE + "): choose another with -D" + KubernetesSettings.P_NAMESPACE + "; nothing was changed");
        }
    }

    /**
     * Istio's gateway Deployments labelled {@code label} in namespace {@code ns}; none is an error that starts with
     * {@code problem} and ends with {@code hint}.
     */
    public List<Deployment> istioGateways(String ns, Map<String, String> label, String problem, String hint) {
        List<Deployment> gateways = call("listing Deployments labelled " + labelText(label) + " in " + ns,
                () -> client.apps().deployments().inNamespace(ns).withLabels(label).list().getItems());
        if (gateways.isEmpty()) {
            throw new TargetException(problem + ": no Deployment labelled " + labelText(label) + " in namespace " + ns + " (" + hint + ")");
        }
        return gateways;
    }

    /** The Services of Istio's gateway labelled {@code label} in {@code ns} (selecting its pods by the same label). */
    public Service istioGatewayService(String ns, Map<String, String> label) {
        List<Service> services = call("listing Services in " + ns, () -> client.services().inNamespace(ns).list().getItems())
                .stream().filter(s -> s.getSpec() != null && s.getSpec().getSelector() != null
                        && s.getSpec().getSelector().entrySet().containsAll(label.entrySet()))
                .sorted(Comparator.comparing(s -> s.getMetadata().getName())).toList();
        if (services.isEmpty()) {
            throw new TargetException("no Service in namespace " + ns + " selects " + labelText(label)
                    + " (Istio's gateway Service, e.g. istio-ingressgateway)");
        }
        return services.get(0);
    }

    private static String labelText(Map<String, String> label) {
        return label.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().collect(Collectors.joining(","));
    }

    /** How a resource is written to the cluster. */
    @FunctionalInterface
    public interface Applier {
        /**
         * Server-side apply with field manager {@value CaseManifests#FIELD_MANAGER}, conflicts forced (the kit owns
         * these fields): fields the kit applied before and no longer applies are removed, such as case bypass's
         * annotation when the next case is applied.
         */
        Applier SERVER_SIDE = (client, r) -> client.resource(r).fieldManager(CaseManifests.FIELD_MANAGER).forceConflicts()
                .serverSideApply();
        /**
         * Create, or replace what exists: for fabric8's mock API server, which has no server-side apply (404 on a new
         * resource, 415 on an existing one). Real clusters get {@link #SERVER_SIDE}.
         */
        Applier CREATE_OR_REPLACE = (client, r) -> client.resource(r).createOr(
                io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);

        void apply(KubernetesClient client, HasMetadata resource);
    }

    /** Applies every resource, in order; stops at the first the server refuses, naming it and the server's reason. */
    public void apply(List<HasMetadata> resources) {
        for (HasMetadata r : resources) {
            LOG.info("applying {}", describe(r));
            call("applying " + describe(r), () -> {
                applier.apply(client, r);
                return r;
            });
        }
    }

    /** Deletes what a case other than {@code c} added to the namespace (resources labelled with another case). */
    public List<String> removeOtherCases(EgressCase c) {
        List<String> removed = new ArrayList<>();
        for (Class<? extends HasMetadata> kind : KINDS) {
            List<? extends HasMetadata> items = call("listing " + kind.getSimpleName() + " in " + namespace,
                    () -> client.resources(kind).inNamespace(namespace).withLabel(CASE_LABEL).list().getItems());
            for (HasMetadata r : items) {
                if (!c.id().equals(r.getMetadata().getLabels().get(CASE_LABEL))) {
                    call("deleting " + describe(r), () -> client.resource(r).delete());
                    removed.add(describe(r));
                }
            }
        }
        return removed;
    }

    /**
     * Deletes each of {@code resources} in order (as {@code kubectl delete}: the API server's default propagation, so a
     * Deployment's pods follow it); one already gone is no error. Stops at the first the server refuses, naming it.
     *
     * @return what was deleted, as {@link CaseManifests#describe} names it
     */
    public List<String> delete(List<HasMetadata> resources) {
        List<String> deleted = new ArrayList<>();
        for (HasMetadata r : resources) {
            LOG.info("deleting {}", describe(r));
            call("deleting " + describe(r), () -> client.resource(r).inNamespace(namespaceOf(r)).delete());
            deleted.add(describe(r));
        }
        return deleted;
    }

    private String namespaceOf(HasMetadata r) {
        return Optional.ofNullable(r.getMetadata().getNamespace()).orElse(namespace);
    }

    /**
     * The pods of Deployment {@code d} (by its selector) that serve now: running and not being deleted, sorted by name.
     * A pod that is terminating after a rollout is left out.
     */
    public List<Pod> runningPods(Deployment d) {
        String ns = Optional.ofNullable(d.getMetadata().getNamespace()).orElse(namespace);
        Map<String, String> selector = Optional.ofNullable(d.getSpec()).map(s -> s.getSelector()).map(s -> s.getMatchLabels())
                .orElse(Map.of());
        if (selector.isEmpty()) {
            throw new TargetException("Deployment " + ns + "/" + d.getMetadata().getName() + " has no matchLabels selector: its pods "
                    + "cannot be found");
        }
        return call("listing the pods of Deployment " + ns + "/" + d.getMetadata().getName(),
                () -> client.pods().inNamespace(ns).withLabels(selector).list().getItems()).stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                        && "Running".equals(p.getStatus().getPhase()))
                .sorted(Comparator.comparing(p -> p.getMetadata().getName())).toList();
    }

    /**
     * Waits until no pod of the Deployments {@code deleted} is left (terminating ones included), so nothing of a case
     * switched away keeps running; on timeout names the pods left.
     */
    public void awaitPodsGone(List<Deployment> deleted, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> left = new ArrayList<>();
            for (Deployment d : deleted) {
                String ns = Optional.ofNullable(d.getMetadata().getNamespace()).orElse(namespace);
                Map<String, String> selector = d.getSpec().getSelector().getMatchLabels();
                call("listing the pods of Deployment " + ns + "/" + d.getMetadata().getName(),
                        () -> client.pods().inNamespace(ns).withLabels(selector).list().getItems())
                        .forEach(p -> left.add(ns + "/" + p.getMetadata().getName()));
            }
            if (left.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new TargetException("pods of the deleted " + deleted.stream().map(d -> "Deployment " + d.getMetadata().getName())
                        .collect(Collectors.joining(", ")) + " still there after " + timeout.toSeconds() + " s: " + String.join(", ", left));
            }
            sleep(1000);
        }
    }

    /**
     * Waits until every Deployment among {@code resources} (and the extra ones named) has all replicas updated and
     * available; on timeout names each that is not, its pods' unmet conditions and waiting containers, and the
     * namespace's recent events.
     */
    public void awaitRollouts(List<HasMetadata> resources, List<Deployment> extra, Duration timeout) {
        List<Deployment> wanted = new ArrayList<>(extra);
        resources.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).forEach(wanted::add);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> notReady = new ArrayList<>();
            List<String> notReadyNames = new ArrayList<>();
            for (Deployment d : wanted) {
                String ns = Optional.ofNullable(d.getMetadata().getNamespace()).orElse(namespace);
                Deployment now = call("reading Deployment " + ns + "/" + d.getMetadata().getName(),
                        () -> client.apps().deployments().inNamespace(ns).withName(d.getMetadata().getName()).get());
                rolloutProblem(now, ns, d.getMetadata().getName()).ifPresent(p -> {
                    notReady.add(p);
                    notReadyNames.add(d.getMetadata().getName());
                });
            }
            if (notReady.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                StringBuilder why = new StringBuilder("not ready after " + timeout.toSeconds() + " s: ");
                why.append(String.join("; ", notReady));
                for (Deployment d : wanted) {
                    String ns = Optional.ofNullable(d.getMetadata().getNamespace()).orElse(namespace);
                    why.append(podProblems(ns, d));
                }
                why.append(recentEvents(namespace, notReadyNames));
                throw new TargetException(why.toString());
            }
            sleep(1000);
        }
    }

    /** Why a Deployment is not rolled out, or empty when it is. */
    static Optional<String> rolloutProblem(Deployment d, String ns, String name) {
        if (d == null) {
            return Optional.of("Deployment " + ns + "/" + name + " does not exist");
        }
        int want = Optional.ofNullable(d.getSpec().getReplicas()).orElse(1);
        var st = d.getStatus();
        long generation = Optional.ofNullable(d.getMetadata().getGeneration()).orElse(0L);
        if (st == null || Optional.ofNullable(st.getObservedGeneration()).orElse(0L) < generation) {
            return Optional.of("Deployment " + ns + "/" + name + ": not yet seen by the deployment controller");
        }
        int updated = Optional.ofNullable(st.getUpdatedReplicas()).orElse(0);
        int available = Optional.ofNullable(st.getAvailableReplicas()).orElse(0);
        int total = Optional.ofNullable(st.getReplicas()).orElse(0);
        if (updated < want || available < want || total > want) {
            return Optional.of("Deployment " + ns + "/" + name + ": " + available + "/" + want + " available, " + updated
                    + " updated" + (total > want ? ", " + (total - want) + " old replicas terminating" : ""));
        }
        return Optional.empty();
    }

    private String podProblems(String ns, Deployment d) {
        Map<String, String> selector = Optional.ofNullable(d.getSpec()).map(s -> s.getSelector())
                .map(s -> s.getMatchLabels()).orElse(Map.of());
        if (selector.isEmpty()) {
            return "";
        }
        List<Pod> pods;
        try {
            pods = client.pods().inNamespace(ns).withLabels(selector).list().getItems();
        } catch (KubernetesClientException e) {
            return "; pods of " + d.getMetadata().getName() + " unreadable: " + reason(e);
        }
        StringBuilder sb = new StringBuilder();
        for (Pod p : pods) {
            List<String> bad = new ArrayList<>();
            if (p.getStatus() != null) {
                for (PodCondition c : Optional.ofNullable(p.getStatus().getConditions()).orElse(List.of())) {
                    if (!"True".equals(c.getStatus())) {
                        bad.add(c.getType() + "=" + c.getStatus() + (c.getReason() != null ? " (" + c.getReason()
                                + (c.getMessage() != null ? ": " + c.getMessage() : "") + ")" : ""));
                    }
                }
                for (ContainerStatus cs : Optional.ofNullable(p.getStatus().getContainerStatuses()).orElse(List.of())) {
                    if (cs.getState() != null && cs.getState().getWaiting() != null) {
                        bad.add("container " + cs.getName() + " waiting: " + cs.getState().getWaiting().getReason()
                                + Optional.ofNullable(cs.getState().getWaiting().getMessage()).map(m -> " (" + m + ")").orElse(""));
                    } else if (cs.getState() != null && cs.getState().getTerminated() != null) {
                        bad.add("container " + cs.getName() + " terminated: " + cs.getState().getTerminated().getReason());
                    }
                }
            }
            if (!bad.isEmpty()) {
                sb.append("; pod ").append(p.getMetadata().getName()).append(" ")
                        .append(Optional.ofNullable(p.getStatus()).map(s -> s.getPhase()).orElse("?")).append(": ")
                        .append(String.join(", ", bad));
            }
        }
        if (pods.isEmpty()) {
            sb.append("; no pod of ").append(d.getMetadata().getName()).append(" exists");
        }
        return sb.toString();
    }

    /**
     * The namespace's last events for a message: first those about {@code about} (Deployments, their ReplicaSets and
     * pods, by name prefix), then warnings, newest first. On a real cluster every starting pod adds readiness warnings,
     * which would otherwise crowd out the one event that says why a rollout is stuck.
     */
    String recentEvents(String ns, List<String> about) {
        try {
            List<Event> events = new ArrayList<>(client.v1().events().inNamespace(ns).list().getItems());
            if (events.isEmpty()) {
                return "; no events in namespace " + ns;
            }
            events.sort(Comparator.comparing((Event e) -> about.stream().noneMatch(n -> concerns(e, n)))
                    .thenComparing((Event e) -> !"Warning".equals(e.getType()))
                    .thenComparing(ClusterOps::when, Comparator.reverseOrder()));
            return "; recent events in " + ns + ": " + events.stream().limit(5).map(e -> e.getType() + " "
                    + e.getInvolvedObject().getKind() + "/" + e.getInvolvedObject().getName() + " " + e.getReason() + ": "
                    + e.getMessage()).collect(Collectors.joining(" | "));
        } catch (KubernetesClientException e) {
            return "; events unreadable: " + reason(e);
        }
    }

    /** Whether {@code e} is about Deployment {@code name} or one of its ReplicaSets or pods. */
    static boolean concerns(Event e, String name) {
        String object = Optional.ofNullable(e.getInvolvedObject()).map(o -> o.getName()).orElse("");
        return object.equals(name) || object.startsWith(name + "-");
    }

    /**
     * When an event last happened. Events written through events.k8s.io (the scheduler's FailedScheduling, since
     * Kubernetes 1.2x) carry only {@code eventTime}, no {@code lastTimestamp}: found on the first real cluster, where
     * sorting by {@code lastTimestamp} alone pushed the scheduler's reason out of the message.
     */
    static String when(Event e) {
        return Optional.ofNullable(e.getLastTimestamp())
                .or(() -> Optional.ofNullable(e.getEventTime()).map(t -> t.getTime()))
                .or(() -> Optional.ofNullable(e.getFirstTimestamp()))
                .orElse("");
    }

    /**
     * Deletes every resource of the kit in the namespace, then the namespace itself when it is the kit's, and waits
     * (up to {@code timeout}) until it is gone so the next case can create it again. Failures are logged, not thrown:
     * teardown runs on error paths too and must go as far as it can.
     *
     * @return what could not be deleted, empty when all went
     */
    public List<String> teardown(Duration timeout) {
        List<String> problems = new ArrayList<>();
        for (Class<? extends HasMetadata> kind : KINDS) {
            try {
                client.resources(kind).inNamespace(namespace).withLabel(PART_OF, PART_OF_VALUE).delete();
            } catch (KubernetesClientException e) {
                problems.add("deleting " + kind.getSimpleName() + " in " + namespace + ": " + reason(e));
            }
        }
        try {
            Namespace ns = client.namespaces().withName(namespace).get();
            if (ns != null && owned(ns)) {
                client.namespaces().withName(namespace).delete();
                long deadline = System.nanoTime() + timeout.toNanos();
                while (client.namespaces().withName(namespace).get() != null) {
                    if (System.nanoTime() > deadline) {
                        problems.add("Namespace " + namespace + " still terminating after " + timeout.toSeconds() + " s");
                        break;
                    }
                    sleep(500);
                }
            }
        } catch (KubernetesClientException e) {
            problems.add("deleting Namespace " + namespace + ": " + reason(e));
        }
        problems.forEach(p -> LOG.warn("teardown: {}", p));
        return problems;
    }

    /**
     * At the end of a deployment: tears the namespace down ({@link #teardown}), or with {@code keep} says how to do it
     * by hand; one line of progress either way, prefixed with {@code tag}.
     */
    public void teardownOrKeep(boolean keep, String tag, java.io.PrintStream progress) {
        if (keep) {
            progress.printf("[%s] keeping namespace %s (-D%s=true): delete it with kubectl delete namespace %s%n", tag, namespace,
                    KubernetesSettings.P_KEEP, namespace);
        } else {
            List<String> problems = teardown(Duration.ofSeconds(120));
            progress.printf("[%s] tore down namespace %s%s%n", tag, namespace,
                    problems.isEmpty() ? "" : " with problems: " + String.join("; ", problems));
        }
    }

    /** True when the namespace exists and is the kit's. */
    public boolean namespaceIsOurs() {
        Namespace ns = call("reading Namespace " + namespace, () -> client.namespaces().withName(namespace).get());
        return ns != null && owned(ns);
    }

    static boolean owned(Namespace ns) {
        return ns.getMetadata().getLabels() != null && PART_OF_VALUE.equals(ns.getMetadata().getLabels().get(PART_OF));
    }

    /** The server's own reason: HTTP code, status reason and message. */
    static String reason(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null) {
            return "HTTP " + e.getCode() + (e.getStatus().getReason() != null ? " " + e.getStatus().getReason() : "") + ": "
                    + e.getStatus().getMessage();
        }
        if (e.getCode() > 0) {
            return "HTTP " + e.getCode() + ": " + e.getMessage();
        }
        // A transport failure: the JDK's exceptions often carry no message, so name the innermost cause by its type
        // ("UnresolvedAddressException", "ConnectException: Connection refused").
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String what = switch (root.getClass().getSimpleName()) {
            case "UnresolvedAddressException", "UnknownHostException" -> "host not found";
            case "ConnectException" -> "connection refused";
            case "HttpTimeoutException", "SocketTimeoutException" -> "timed out";
            default -> root.getClass().getSimpleName();
        };
        return root.getMessage() == null || root.getMessage().isBlank() ? what : what + " (" + root.getMessage() + ")";
    }

    private <T> T call(String what, java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (KubernetesClientException e) {
            throw new TargetException(what + " failed: " + reason(e), e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetException("interrupted while waiting on the cluster");
        }
    }
}
