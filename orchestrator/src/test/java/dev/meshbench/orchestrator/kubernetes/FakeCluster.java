package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.model.ComponentNames;
import dev.meshbench.model.EgressCase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What fabric8's mock API server lacks for a switch: a deployment controller and the proxies. {@link Controller} gives
 * each Deployment one running pod made from its pod template (a new pod, under a new name, when the template changes;
 * none once the Deployment is gone) and a complete rollout status. {@link Envoys} answers the proxies' admin API with
 * dumps of the MongoDB routes of the case each pod's proxy has ({@link EnvoyDumps}): every proxy starts with the case
 * deployed first and takes the case {@link Envoys#push pushed} a few reads later, as istiod's pushes arrive; a pod
 * named {@link Envoys#stale stale} never does.
 */
final class FakeCluster {
    private FakeCluster() {
    }

    /** A deployment controller for the mock server, reconciling the given namespaces every 50 ms until closed. */
    static final class Controller implements AutoCloseable {
        private static final String OWNER = "meshbench.test/owner";
        private final KubernetesClient client;
        private final List<String> namespaces;
        private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fake-deployment-controller");
            t.setDaemon(true);
            return t;
        });
        private int made;

        Controller(KubernetesClient client, String... namespaces) {
            this.client = client;
            this.namespaces = List.of(namespaces);
            loop.scheduleWithFixedDelay(this::reconcileQuietly, 0, 50, TimeUnit.MILLISECONDS);
        }

        private void reconcileQuietly() {
            try {
                reconcile();
            } catch (RuntimeException e) {
                // the namespace is being torn down, or a write raced the test's: the next round sees the new state
            }
        }

        synchronized void reconcile() {
            for (String ns : namespaces) {
                List<Deployment> deployments = client.apps().deployments().inNamespace(ns).list().getItems();
                Set<String> names = new java.util.HashSet<>();
                for (Deployment d : deployments) {
                    names.add(d.getMetadata().getName());
                    List<Pod> pods = client.pods().inNamespace(ns).withLabel(OWNER, d.getMetadata().getName()).list().getItems();
                    String hash = Integer.toHexString(Objects.hashCode(d.getSpec().getTemplate().getMetadata().getAnnotations()) & 0xfffff);
                    boolean current = pods.size() == 1 && pods.get(0).getMetadata().getName().startsWith(d.getMetadata().getName() + "-" + hash + "-");
                    if (!current) {
                        pods.forEach(p -> client.pods().inNamespace(ns).withName(p.getMetadata().getName()).delete());
                        Map<String, String> labels = new HashMap<>(d.getSpec().getTemplate().getMetadata().getLabels());
                        labels.put(OWNER, d.getMetadata().getName());
                        client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata()
                                .withName(d.getMetadata().getName() + "-" + hash + "-" + String.format("p%04d", made++)).withNamespace(ns)
                                .withLabels(labels).withAnnotations(d.getSpec().getTemplate().getMetadata().getAnnotations()).endMetadata()
                                .withNewSpec().addNewContainer().withName("istio-proxy").withImage("proxyv2").endContainer().endSpec()
                                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True").endCondition()
                                .endStatus().build()).create();
                    }
                    if (d.getStatus() == null || !Objects.equals(d.getStatus().getObservedGeneration(), d.getMetadata().getGeneration())
                            || d.getStatus().getAvailableReplicas() == null) {
                        client.apps().deployments().inNamespace(ns).withName(d.getMetadata().getName()).editStatus(x -> {
                            int want = Objects.requireNonNullElse(x.getSpec().getReplicas(), 1);
                            x.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder()
                                    .withObservedGeneration(x.getMetadata().getGeneration()).withReplicas(want).withUpdatedReplicas(want)
                                    .withAvailableReplicas(want).withReadyReplicas(want).build());
                            return x;
                        });
                    }
                }
                for (Pod p : client.pods().inNamespace(ns).withLabel(OWNER).list().getItems()) {
                    if (!names.contains(p.getMetadata().getLabels().get(OWNER))) {
                        client.pods().inNamespace(ns).withName(p.getMetadata().getName()).delete();
                    }
                }
            }
        }

        @Override
        public void close() {
            loop.shutdownNow();
        }
    }

    /** The proxies of every pod, answering as Envoy does with the routes of the case each has. */
    static final class Envoys implements ProxyAdmin {
        /** How many reads of a proxy it takes for a push to arrive. */
        static final int PUSH_READS = 3;
        private final MongoRoutes.Mesh mesh;
        private final EgressCase first;
        private final Map<String, EgressCase> has = new ConcurrentHashMap<>();
        private final Map<String, Integer> reads = new ConcurrentHashMap<>();
        private final Set<String> stale = ConcurrentHashMap.newKeySet();
        private final Set<String> draining = ConcurrentHashMap.newKeySet();
        private volatile EgressCase pushed;

        Envoys(MongoRoutes.Mesh mesh, EgressCase first) {
            this.mesh = mesh;
            this.first = first;
            this.pushed = first;
        }

        /** istiod pushes case {@code c}: every proxy but the stale ones takes it within {@link #PUSH_READS} reads. */
        void push(EgressCase c) {
            pushed = c;
            reads.clear();
        }

        /** The proxies of pods whose name starts with {@code podPrefix} never take a push. */
        void stale(String podPrefix) {
            stale.add(podPrefix);
        }

        /** The proxies of pods whose name starts with {@code podPrefix} keep a filter chain draining. */
        void draining(String podPrefix) {
            draining.add(podPrefix);
        }

        /** The case the proxy of {@code pod} has now. */
        EgressCase caseOf(String pod) {
            return has.getOrDefault(pod, first);
        }

        @Override
        public String get(String namespace, String pod, String path) {
            EgressCase now = has.computeIfAbsent(pod, p -> first);
            if (now != pushed && stale.stream().noneMatch(pod::startsWith) && reads.merge(pod, 1, Integer::sum) >= PUSH_READS) {
                has.put(pod, pushed);
                now = pushed;
            }
            Set<MongoRoutes.Route> routes = MongoRoutes.expected(now, kind(pod), mesh);
            if (path.startsWith("config_dump?resource=dynamic_listeners")) {
                return EnvoyDumps.listeners(routes, kind(pod) == MongoRoutes.Proxy.SIDECAR ? mesh.port() : 8443);
            }
            if (path.startsWith("config_dump?resource=dynamic_active_clusters")) {
                return EnvoyDumps.clusters(routes);
            }
            if (path.equals("clusters")) {
                return EnvoyDumps.clustersText(routes);
            }
            if (path.startsWith("stats")) {
                return EnvoyDumps.drainingStats(draining.stream().anyMatch(pod::startsWith) ? 1 : 0, 0);
            }
            throw new IllegalArgumentException("the fake Envoy of " + pod + " does not answer " + path);
        }

        private static MongoRoutes.Proxy kind(String pod) {
            if (pod.startsWith("istio-egressgateway-")) {
                return MongoRoutes.Proxy.ISTIO_EGRESS_GATEWAY;
            }
            if (pod.startsWith(KubernetesDeployment.KIT_GATEWAY + "-")) {
                return MongoRoutes.Proxy.KIT_EGRESS_GATEWAY;
            }
            if (ComponentNames.SERVICES.stream().anyMatch(s -> pod.startsWith(s + "-"))) {
                return MongoRoutes.Proxy.SIDECAR;
            }
            throw new IllegalArgumentException("no proxy kind for pod " + pod);
        }
    }
}
