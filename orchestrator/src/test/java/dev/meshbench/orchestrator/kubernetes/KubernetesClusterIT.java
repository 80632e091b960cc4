package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.latency.LatencyCell;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes target's real code path (server-side apply, rollout waits, switching case, teardown, the server's
 * own errors) against the real single-node cluster of {@code istio-config/test-cluster/cluster.sh}: Istio's istiod and
 * gateways, sidecars injected, the services' image imported ({@value #IMAGE_ENV}) and the cluster's TLS MongoDB
 * ({@code cluster.sh mongo}), so every pod becomes ready for real. {@code .ci/run} starts it and sets
 * {@value #KUBECONFIG_ENV}; without it these tests are skipped. Traffic through the cases (JMeter, Prometheus, the
 * proxies' counters) is {@code istio-config/test-cluster/e2e.sh}'s, a step of its own in {@code .ci/run}.
 */
class KubernetesClusterIT {
    static final String KUBECONFIG_ENV = "MESHBENCH_TEST_KUBECONFIG";
    /** The services' image as the cluster's containerd has it (imported, never pulled). */
    static final String IMAGE_ENV = "MESHBENCH_TEST_SERVICES_IMAGE";
    private static final String NAMESPACE = "meshbench-it";

    private KubernetesClient client;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @BeforeEach
    void connect() throws Exception {
        String kubeconfig = System.getenv(KUBECONFIG_ENV);
        assumeTrue(kubeconfig != null && Files.isRegularFile(Path.of(kubeconfig)), KUBECONFIG_ENV
                + " names no kubeconfig: no test cluster (start one with istio-config/test-cluster/cluster.sh up DIR; istio DIR)");
        assumeTrue(System.getenv(IMAGE_ENV) != null, IMAGE_ENV + " is not set: the services' image on the test cluster");
        client = client(Path.of(kubeconfig), Optional.empty());
    }

    /**
     * The settings of the cluster {@code cluster.sh} made beside the kubeconfig: its MongoDB (name, CA, this machine's
     * address as pods see it), the imported images, CPU requests scaled to its 2 cores.
     */
    static KubernetesSettings settings(Duration readyTimeout) {
        Path state = Path.of(System.getenv(KUBECONFIG_ENV)).toAbsolutePath().getParent();
        try {
            return SwitchDrill.settings(state, System.getenv(IMAGE_ENV), NAMESPACE, readyTimeout);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("the test cluster's state beside " + System.getenv(KUBECONFIG_ENV)
                    + " (cluster.sh up, then cluster.sh mongo)", e);
        }
    }

    @AfterEach
    void cleanUp() {
        if (client != null) {
            new ClusterOps(client, NAMESPACE, ClusterOps.Applier.SERVER_SIDE).teardown(Duration.ofSeconds(120));
            client.close();
        }
    }

    private static KubernetesClient client(Path kubeconfig, Optional<String> token) throws Exception {
        Config config = Config.fromKubeconfig(kubeconfig.toFile());
        token.ifPresent(config::setOauthToken);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /**
     * The target with the load through Istio's ingress gateway (installed by {@code cluster.sh istio}) or not.
     */
    private KubernetesTarget target(boolean keep, boolean ingress) {
        KubernetesSettings settings = settings(Duration.ofSeconds(180)).with(NAMESPACE, keep);
        return new KubernetesTarget(settings, 10, 1, WorkloadInfo.ORIGINAL, ingress,
                () -> new KubernetesClientBuilder().withConfig(client.getConfiguration()).build(), ClusterOps.Applier.SERVER_SIDE,
                new PrintStream(out, true, StandardCharsets.UTF_8));
    }

    private List<String> caseLabelled(String caseId) {
        return ClusterOps.KINDS.stream().flatMap(k -> client.resources(k).inNamespace(NAMESPACE)
                .withLabel(CaseManifests.CASE_LABEL, caseId).list().getItems().stream())
                .map(CaseManifests::describe).toList();
    }

    @Test
    void deploysEveryCaseSwitchingInOneNamespaceThenTearsDown() {
        String previous = null;
        for (EgressCase c : EgressCase.values()) {
            try (KubernetesDeployment d = target(true, true).deploy(c, Path.of("logs"))) {
                out.reset();
                d.awaitRollouts(Duration.ofSeconds(180));
                String gateways = c == EgressCase.GATEWAY || c == EgressCase.MTLS ? "egress and ingress gateways" : "ingress gateway";
                assertTrue(out.toString(StandardCharsets.UTF_8).contains(" rollouts and Istio's " + gateways + "\n"), out.toString(StandardCharsets.UTF_8));
                assertNotNull(client.resources(io.fabric8.istio.api.networking.v1.Gateway.class).inNamespace(NAMESPACE)
                        .withName("acmeair-ingress").get(), "case " + c.id() + " has no entry Gateway");
                for (HasMetadata r : d.resources()) {
                    HasMetadata live = client.resource(r).get();
                    assertNotNull(live, CaseManifests.describe(r) + " missing after apply");
                    assertTrue(live.getMetadata().getManagedFields().stream().anyMatch(m -> CaseManifests.FIELD_MANAGER
                            .equals(m.getManager()) && "Apply".equals(m.getOperation())), CaseManifests.describe(r) + " not server-side applied");
                }
                if (previous != null) {
                    assertEquals(List.of(), caseLabelled(previous), "case " + c.id() + " left resources of " + previous);
                }
                String annotation = client.apps().deployments().inNamespace(NAMESPACE).withName("booking").get().getSpec()
                        .getTemplate().getMetadata().getAnnotations().get("traffic.sidecar.istio.io/excludeOutboundIPRanges");
                assertEquals(c == EgressCase.BYPASS ? settings(Duration.ofSeconds(1)).requireMongo().cidr() : null, annotation,
                        "the bypass annotation must exist in case bypass only (server-side apply removes it after)");
                ClusterInfo cluster = d.cluster().orElseThrow();
                assertTrue(cluster.kubernetesVersion().startsWith("v1.31."), cluster.kubernetesVersion());
                assertFalse(cluster.nodes().isEmpty());
                previous = c.id();
            }
        }
        // The last deployment was kept; a deployment that does not keep tears the namespace down.
        target(false, true).deploy(EgressCase.SIDECAR, Path.of("logs")).close();
        assertNull(client.namespaces().withName(NAMESPACE).get(), "teardown left the namespace");
        assertNotNull(client.apps().deployments().inNamespace("istio-system").withName("istio-egressgateway").get(),
                "teardown touched Istio's egress gateway");
        assertNotNull(client.apps().deployments().inNamespace("istio-system").withName("istio-ingressgateway").get(),
                "teardown touched Istio's ingress gateway");
    }

    /**
     * The application deployed once with bypass, then switched through sidecar, gateway, mtls, sni and back to bypass in
     * the same namespace by {@link KubernetesDeployment#apply}; after each switch MongoDB traffic goes through the
     * entry and the proxies' own counters prove the case's path ({@link SwitchDrill}). Each switch says what it did,
     * restarts pods exactly at bypass, keeps the JWT key pair and the database, and leaves nothing of another case.
     */
    @Test
    void switchesThroughAllFiveCasesInOneNamespaceEachPathProvenFromTheProxies() throws Exception {
        KubernetesSettings settings = settings(Duration.ofSeconds(300)).with(NAMESPACE, false);
        PrintStream progress = new PrintStream(out, true, StandardCharsets.UTF_8);
        KubernetesTarget t = new KubernetesTarget(settings, 10, 1, WorkloadInfo.ORIGINAL, true,
                () -> new KubernetesClientBuilder().withConfig(client.getConfiguration()).build(), ClusterOps.Applier.SERVER_SIDE, progress);
        assertTrue(t.switchesCases());
        List<SwitchDrill.Window> windows;
        try (KubernetesDeployment d = t.deploy(EgressCase.BYPASS, List.of(EgressCase.values()), Path.of("logs"))) {
            d.awaitReady(Duration.ofSeconds(300));
            String jwt = client.secrets().inNamespace(NAMESPACE).withName("meshbench-jwt").get().getData().get("public.pem");
            SwitchDrill drill = new SwitchDrill(client, d, System.out);
            windows = new java.util.ArrayList<>();
            for (EgressCase next : List.of(EgressCase.SIDECAR, EgressCase.GATEWAY, EgressCase.MTLS, EgressCase.SNI, EgressCase.BYPASS)) {
                SwitchDrill.Window w = drill.run(List.of(next), 15).get(0);
                windows.add(w);
                dev.meshbench.orchestrator.deploy.Switch s = w.change();
                List<String> done = s.done();
                assertEquals(next, d.egressCase());
                assertEquals(next, s.to());
                assertEquals(List.of(), w.failed(), "the path of " + next.id() + " after its switch");
                assertEquals(jwt, client.secrets().inNamespace(NAMESPACE).withName("meshbench-jwt").get().getData().get("public.pem"),
                        "the JWT key pair is the same in every case");
                assertTrue(done.stream().anyMatch(x -> x.startsWith("confirmed from the proxies' own Envoy")), done.toString());
                assertTrue(done.stream().anyMatch(x -> x.startsWith("the database kept its data: 10 customers")), done.toString());
                boolean restart = s.from() == EgressCase.BYPASS || next == EgressCase.BYPASS;
                assertEquals(restart, done.stream().anyMatch(x -> x.startsWith("rolled out ") && x.contains("booking")), done.toString());
                assertEquals(restart, done.stream().anyMatch(x -> x.contains("ready again")), done.toString());
                assertEquals(!restart, done.stream().anyMatch(x -> x.startsWith("kept the pods of ") && x.contains("booking")), done.toString());
                assertEquals(List.of(), caseLabelledOtherThan(next), "after the switch to " + next.id());
            }
        }
        System.out.println("switch times: " + String.join(", ", windows.stream().map(w -> String.format(java.util.Locale.ROOT, "%s->%s %.1f s",
                w.change().from().id(), w.change().to().id(), w.change().seconds())).toList()));
        assertNull(client.namespaces().withName(NAMESPACE).get(), "teardown left the namespace");
    }

    /** Resources labelled with a case other than {@code c}. */
    private List<String> caseLabelledOtherThan(EgressCase c) {
        return ClusterOps.KINDS.stream().flatMap(k -> client.resources(k).inNamespace(NAMESPACE).withLabel(CaseManifests.CASE_LABEL)
                .list().getItems().stream()).filter(r -> !c.id().equals(r.getMetadata().getLabels().get(CaseManifests.CASE_LABEL)))
                .map(CaseManifests::describe).toList();
    }

    /**
     * A switch whose Istio resources never reach the cluster (the Applier withholds case gateway's Gateway,
     * DestinationRule and VirtualService, and its ServiceEntry's change): every sidecar keeps case sidecar's route to
     * MongoDB, and the switch fails naming the proxies and what they still have, so the case is not measured.
     */
    @Test
    void aSwitchThatLeavesTheProxiesWithTheOldRoutesIsDetectedNamingThem() {
        KubernetesSettings settings = settings(Duration.ofSeconds(30)).with(NAMESPACE, false);
        ClusterOps.Applier withholding = (c, r) -> {
            if (!"gateway".equals(r.getMetadata().getLabels().get(CaseManifests.CASE_LABEL))) {
                ClusterOps.Applier.SERVER_SIDE.apply(c, r);
            }
        };
        KubernetesTarget t = new KubernetesTarget(settings, 10, 1, WorkloadInfo.ORIGINAL, true,
                () -> new KubernetesClientBuilder().withConfig(client.getConfiguration()).build(), withholding,
                new PrintStream(out, true, StandardCharsets.UTF_8));
        try (KubernetesDeployment d = t.deploy(EgressCase.SIDECAR, List.of(EgressCase.GATEWAY), Path.of("logs"))) {
            d.awaitRollouts(Duration.ofSeconds(180));
            TargetException e = assertThrows(TargetException.class, () -> d.apply(EgressCase.GATEWAY));
            String m = e.getMessage();
            System.out.println("stale proxies detected: " + m);
            assertTrue(m.startsWith("switching from case sidecar to gateway: not confirmed after 30 s"), m);
            assertTrue(m.contains("sidecar-booking (pod " + NAMESPACE + "/booking-"), m);
            assertTrue(m.contains("has SNI mongo.meshbench.test -> outbound|27017||mongo.meshbench.test (as in case sidecar), not case "
                    + "gateway's SNI mongo.meshbench.test -> outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local"), m);
            assertTrue(m.contains("egress-gateway (Istio's istio-egressgateway, pod istio-system/istio-egressgateway-"), m);
        }
    }

    @Test
    void withoutTheIngressTheRolloutWaitLeavesIstiosIngressGatewayOut() throws InterruptedException {
        try (KubernetesDeployment d = target(false, false).deploy(EgressCase.SIDECAR, Path.of("logs"))) {
            out.reset();
            d.awaitRollouts(Duration.ofSeconds(180));
            String progress = out.toString(StandardCharsets.UTF_8);
            assertTrue(progress.contains("waiting for 4 rollouts\n"), progress);
            assertFalse(d.components().stream().anyMatch(c -> c.name().equals("ingress-gateway")));
            // meshbench.kubernetes.serviceAccess=cluster-ip (these settings): each service at its Service's ClusterIP,
            // which this machine routes into the test cluster, and a request there reaches the pod through its sidecar.
            d.openEntry();
            Map<String, URI> services = d.endpoints().services();
            assertEquals(4, services.size(), services.toString());
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            for (var e : services.entrySet()) {
                String ip = client.services().inNamespace(NAMESPACE).withName(e.getKey()).get().getSpec().getClusterIP();
                assertEquals(URI.create("http://" + ip + ":8080"), e.getValue(), e.getKey());
                int status = -1;
                for (int i = 0; i < 60 && status != 200; i++) {
                    try {
                        status = http.send(java.net.http.HttpRequest.newBuilder(e.getValue().resolve(
                                dev.meshbench.model.Service.byId(e.getKey()).readyPath())).timeout(Duration.ofSeconds(5)).build(),
                                java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
                    } catch (java.io.IOException x) {
                        status = -2;
                    }
                    if (status != 200) {
                        Thread.sleep(1000);
                    }
                }
                assertEquals(200, status, e.getKey() + " at " + e.getValue());
            }
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("through its ClusterIP each"), out.toString(StandardCharsets.UTF_8));
        }
    }

    /**
     * The latency study's path on a cluster up to where load would start: a gateway+sidecar cell at scale 5 applied
     * by server-side apply, rolled out (pods with sidecars ready); the same graph without the ingress applied into the
     * running namespace (pods kept, the entry answering at the entrypoint), then a cell of another graph without
     * sidecars; kept, cleared by the next deployment, and torn down. No load goes through it.
     */
    @Test
    void deploysALatencyCellThenAnotherThenTearsDown() {
        KubernetesSettings s = settings(Duration.ofSeconds(180)).with(NAMESPACE, true);
        PrintStream progress = new PrintStream(out, true, StandardCharsets.UTF_8);
        LatencyCell gatewaySidecar5 = new LatencyCell("double", 5, true, true);
        try (KubernetesLatencyDeployment d = KubernetesLatencyDeployment.start(gatewaySidecar5, s,
                new KubernetesClientBuilder().withConfig(client.getConfiguration()).build(), ClusterOps.Applier.SERVER_SIDE, progress, x -> { })) {
            d.awaitRollouts();
            for (HasMetadata r : d.resources()) {
                HasMetadata live = client.resource(r).get();
                assertNotNull(live, CaseManifests.describe(r) + " missing after apply");
                assertTrue(live.getMetadata().getManagedFields().stream().anyMatch(m -> CaseManifests.FIELD_MANAGER
                        .equals(m.getManager()) && "Apply".equals(m.getOperation())), CaseManifests.describe(r) + " not server-side applied");
            }
            for (String name : List.of("go-sample", "go-sample-dependency")) {
                Deployment dep = client.apps().deployments().inNamespace(NAMESPACE).withName(name).get();
                assertEquals(5, dep.getSpec().getReplicas(), name);
                assertEquals(5, dep.getStatus().getAvailableReplicas(), name + " rolled out");
                assertEquals("true", dep.getSpec().getTemplate().getMetadata().getLabels().get("sidecar.istio.io/inject"));
                assertEquals(5, client.pods().inNamespace(NAMESPACE).withLabel("app", name).list().getItems().size(), name + " pods");
                assertEquals(8080, client.services().inNamespace(NAMESPACE).withName(name).get().getSpec().getPorts().get(0).getPort());
            }
            assertNull(client.apps().deployments().inNamespace(NAMESPACE).withName("fortio").get(), "the load client is left out");
            assertEquals("enabled", client.namespaces().withName(NAMESPACE).get().getMetadata().getLabels().get("istio-injection"));
            assertNotNull(client.configMaps().inNamespace(NAMESPACE).withName("latency-graphs").get().getData().get("double.yaml"));
            assertEquals("istio-ingressgateway", d.entryService());
            var vs = client.adapt(io.fabric8.istio.client.IstioClient.class).v1().virtualServices().inNamespace(NAMESPACE)
                    .withName("latency-entrypoint").get();
            assertEquals("go-sample", vs.getSpec().getHttp().get(0).getRoute().get(0).getDestination().getHost());
            assertNotNull(client.adapt(io.fabric8.istio.client.IstioClient.class).v1().gateways().inNamespace(NAMESPACE)
                    .withName("latency-ingress").get());

            // The next cell of the same graph without the ingress, applied into the running namespace: the graph's pods
            // (same template) are kept, the Gateway goes, and the entry moves to the entrypoint's Service and answers.
            Map<String, List<String>> podsBefore = latencyPods(List.of("go-sample", "go-sample-dependency"));
            String how = d.applyCell(new LatencyCell("double", 5, false, true));
            assertEquals(podsBefore, latencyPods(List.of("go-sample", "go-sample-dependency")), how);
            assertTrue(how.startsWith("applied to the namespace that ran cell double/5/gateway/sidecar"), how);
            assertTrue(how.contains("kept the pods of go-sample, go-sample-dependency"), how);
            assertEquals(Optional.of(how), d.appliedOver());
            assertTrue(client.adapt(io.fabric8.istio.client.IstioClient.class).v1().gateways().inNamespace(NAMESPACE).list()
                    .getItems().isEmpty(), "the Gateway of the earlier cell is left: " + how);
            assertEquals("go-sample", d.entryService());
            assertEquals(1, d.targets().size());

            // A cell of another graph without sidecars: the graph's Deployments replaced, injection off, the entry at "a".
            String again = d.applyCell(new LatencyCell("single", 1, false, false));
            assertEquals(List.of("a"), client.apps().deployments().inNamespace(NAMESPACE).list().getItems().stream()
                    .map(x -> x.getMetadata().getName()).toList(), again);
            assertTrue(again.contains("deleted") && again.contains("the pods of go-sample"), again);
            assertEquals("disabled", client.namespaces().withName(NAMESPACE).get().getMetadata().getLabels().get("istio-injection"));
            assertTrue(client.pods().inNamespace(NAMESPACE).withLabel("app", "a").list().getItems().stream()
                    .allMatch(p -> p.getSpec().getContainers().stream().noneMatch(c -> c.getName().equals("istio-proxy"))), "no sidecar in a");
            assertEquals("a", d.entryService());
        }
        // Kept (meshbench.keep): the next cell clears it first, so none of graph double's services is left.
        assertNotNull(client.namespaces().withName(NAMESPACE).get());
        try (KubernetesLatencyDeployment d = KubernetesLatencyDeployment.start(new LatencyCell("single", 1, false, false),
                s.with(NAMESPACE, false), new KubernetesClientBuilder().withConfig(client.getConfiguration()).build(),
                ClusterOps.Applier.SERVER_SIDE, progress, x -> { })) {
            d.awaitRollouts();
            assertEquals(List.of("a"), client.apps().deployments().inNamespace(NAMESPACE).list().getItems().stream()
                    .map(x -> x.getMetadata().getName()).toList());
            assertEquals("disabled", client.namespaces().withName(NAMESPACE).get().getMetadata().getLabels().get("istio-injection"));
            assertTrue(client.adapt(io.fabric8.istio.client.IstioClient.class).v1().gateways().inNamespace(NAMESPACE).list()
                    .getItems().isEmpty(), "the Gateway of the earlier cell is left");
            assertEquals("a", d.entryService());
        }
        assertNull(client.namespaces().withName(NAMESPACE).get(), "teardown left the namespace");
        assertNotNull(client.apps().deployments().inNamespace("istio-system").withName("istio-ingressgateway").get(),
                "teardown touched Istio's ingress gateway");
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("[single/1/none/none] switching from double/5/none/sidecar in namespace meshbench-it"), printed);
        assertTrue(printed.contains("[single/1/none/none] keeping namespace meshbench-it"), printed);
        assertTrue(printed.contains("[single/1/none/none] removing what an earlier run left in namespace meshbench-it"), printed);
        assertTrue(printed.contains("[single/1/none/none] tore down namespace meshbench-it\n"), printed);
    }

    /** The names of each Deployment's running pods in the test namespace. */
    private Map<String, List<String>> latencyPods(List<String> deployments) {
        Map<String, List<String>> out = new java.util.TreeMap<>();
        for (String name : deployments) {
            out.put(name, client.pods().inNamespace(NAMESPACE).withLabel("app", name).list().getItems().stream()
                    .map(p -> p.getMetadata().getName()).sorted().toList());
        }
        return out;
    }

    @Test
    void theServersOwnValidationErrorIsNamed() {
        KubernetesDeployment d = target(true, true).deploy(EgressCase.SIDECAR, Path.of("logs"));
        d.close();
        GenericKubernetesResource bad = new GenericKubernetesResourceBuilder().withApiVersion("networking.istio.io/v1")
                .withKind("ServiceEntry").withNewMetadata().withName("mongo").withNamespace(NAMESPACE).endMetadata()
                .addToAdditionalProperties("spec", Map.of("hosts", List.of("db.perf.example"), "resolution", "DNZ",
                        "ports", List.of(Map.of("number", 27017, "name", "tls", "protocol", "TLS"))))
                .build();
        ClusterOps ops = new ClusterOps(client, NAMESPACE, ClusterOps.Applier.SERVER_SIDE);
        TargetException e = assertThrows(TargetException.class, () -> ops.apply(List.of(bad)));
        assertTrue(e.getMessage().startsWith("applying ServiceEntry meshbench-it/mongo failed: HTTP 422"), e.getMessage());
        assertTrue(e.getMessage().contains("spec.resolution: Unsupported value: \"DNZ\""), e.getMessage());
    }

    @Test
    void aRolloutThatCannotBeScheduledIsNamedWithTheSchedulersReason() {
        KubernetesDeployment d = target(true, true).deploy(EgressCase.BYPASS, Path.of("logs"));
        d.close();
        Deployment stuck = new DeploymentBuilder().withNewMetadata().withName("stuck").withNamespace(NAMESPACE)
                .addToLabels(CaseManifests.PART_OF, CaseManifests.PART_OF_VALUE).endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", "stuck").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "stuck").endMetadata().withNewSpec()
                .addToNodeSelector("meshbench.dev/no-such-node", "true")
                .addNewContainer().withName("stuck").withImage("registry.example/stuck:1").endContainer()
                .endSpec().endTemplate().endSpec().build();
        ClusterOps ops = new ClusterOps(client, NAMESPACE, ClusterOps.Applier.SERVER_SIDE);
        ops.apply(List.of(stuck));
        TargetException e = assertThrows(TargetException.class, () -> ops.awaitRollouts(List.of(stuck), List.of(), Duration.ofSeconds(15)));
        assertTrue(e.getMessage().contains("Deployment meshbench-it/stuck: 0/1 available"), e.getMessage());
        assertTrue(e.getMessage().contains("PodScheduled=False (Unschedulable"), e.getMessage());
        assertTrue(e.getMessage().contains("FailedScheduling"), e.getMessage());
    }

    @Test
    void aForbiddenRequestIsNamedWithTheServersReason() throws Exception {
        String token = System.getenv("MESHBENCH_TEST_VIEWER_TOKEN");
        assumeTrue(token != null && !token.isBlank(), "MESHBENCH_TEST_VIEWER_TOKEN is not set: no user without rights");
        try (KubernetesClient viewer = client(Path.of(System.getenv(KUBECONFIG_ENV)), Optional.of(token))) {
            // Without the ingress: the 403 expected is the apply's, not one of reading Istio's ingress gateway.
            KubernetesTarget t = new KubernetesTarget(KubernetesFixtures.settings(Duration.ofSeconds(5)), 10, 1,
                    WorkloadInfo.ORIGINAL, false, () -> new KubernetesClientBuilder().withConfig(viewer.getConfiguration()).build(),
                    ClusterOps.Applier.SERVER_SIDE, new PrintStream(out, true, StandardCharsets.UTF_8));
            TargetException e = assertThrows(TargetException.class, () -> t.deploy(EgressCase.SIDECAR, Path.of("logs")));
            assertTrue(e.getMessage().contains("failed: HTTP 403 Forbidden: "), e.getMessage());
            assertTrue(e.getMessage().contains("is forbidden: User \"meshbench-viewer\" cannot"), e.getMessage());
        }
    }
}
