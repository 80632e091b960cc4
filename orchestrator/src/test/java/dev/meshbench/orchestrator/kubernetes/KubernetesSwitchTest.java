package dev.meshbench.orchestrator.kubernetes;

import static dev.meshbench.orchestrator.kubernetes.KubernetesFixtures.NAMESPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.Switch;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Switching a running namespace from one case to the next ({@link KubernetesDeployment#apply}) on fabric8's mock API
 * server, with a fake deployment controller and fake proxies ({@link FakeCluster}): what is applied, deleted and rolled
 * out, that the JWT key pair stays, and that a proxy without the next case's routes stops the switch, named.
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesSwitchTest {
    private static final List<String> SERVICES = List.of("auth", "booking", "customer", "flight");
    KubernetesClient client;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private FakeCluster.Controller controller;

    @BeforeEach
    void setUp() {
        KubernetesFixtures.installIstioCrds(client);
        KubernetesFixtures.installEgressGateway(client);
        KubernetesFixtures.installIngressGateway(client, 1);
        controller = new FakeCluster.Controller(client, NAMESPACE, "istio-system");
    }

    @AfterEach
    void stopController() {
        controller.close();
    }

    private FakeCluster.Envoys envoys(EgressCase first, Duration readyTimeout) {
        return new FakeCluster.Envoys(MongoRoutes.Mesh.of(KubernetesFixtures.settings(readyTimeout)), first);
    }

    private KubernetesDeployment deploy(EgressCase first, FakeCluster.Envoys envoys, Duration readyTimeout, ClusterOps.Applier applier) {
        KubernetesTarget t = new KubernetesTarget(KubernetesFixtures.settings(readyTimeout), 10, 1, WorkloadInfo.ORIGINAL, true,
                () -> new KubernetesClientBuilder().withConfig(client.getConfiguration()).build(), applier, c -> envoys,
                new PrintStream(out, true, StandardCharsets.UTF_8));
        KubernetesDeployment d = t.deploy(first, List.of(EgressCase.values()), Path.of("logs"));
        d.awaitRollouts(Duration.ofSeconds(20));
        return d;
    }

    private Map<String, String> jwt() {
        return client.secrets().inNamespace(NAMESPACE).withName("meshbench-jwt").get().getData();
    }

    private List<String> pods(String deployment) {
        return client.pods().inNamespace(NAMESPACE).withLabel("meshbench.test/owner", deployment).list().getItems().stream()
                .map(p -> p.getMetadata().getName()).sorted().toList();
    }

    @Test
    @DisplayName("mtls to sni applies sni, deletes what only mtls has, rolls out only the kit's gateway, keeps the JWT key pair and the services' pods")
    void mtlsToSni() {
        FakeCluster.Envoys envoys = envoys(EgressCase.MTLS, Duration.ofSeconds(30));
        try (KubernetesDeployment d = deploy(EgressCase.MTLS, envoys, Duration.ofSeconds(30), ClusterOps.Applier.CREATE_OR_REPLACE)) {
            Map<String, String> jwt = jwt();
            List<String> bookingPods = pods("booking");
            assertNotNull(client.apps().deployments().inNamespace(NAMESPACE).withName("booking").get());
            envoys.push(EgressCase.SNI);
            Switch s = d.apply(EgressCase.SNI);

            assertEquals(EgressCase.MTLS, s.from());
            assertEquals(EgressCase.SNI, s.to());
            assertEquals(EgressCase.SNI, d.egressCase());
            assertEquals(jwt, jwt(), "one JWT key pair for every case: the Secret is applied unchanged");
            assertEquals(bookingPods, pods("booking"), "the services' pods stay: their template is the same in mtls and sni");
            for (HasMetadata r : d.resources()) {
                assertNotNull(client.resource(r).get(), CaseManifests.describe(r) + " applied");
            }
            assertNull(client.resources(io.fabric8.istio.api.networking.v1.VirtualService.class).inNamespace(NAMESPACE)
                    .withName("mongo-through-egress-gateway").get(), "mtls's VirtualService deleted");
            assertNull(client.resources(io.fabric8.istio.api.networking.v1.Gateway.class).inNamespace(NAMESPACE)
                    .withName("istio-egressgateway").get(), "mtls's Gateway deleted");
            assertNull(client.resources(io.fabric8.istio.api.networking.v1.ServiceEntry.class).inNamespace(NAMESPACE).withName("mongo").get());
            assertEquals(1, pods(KubernetesDeployment.KIT_GATEWAY).size(), "the kit's gateway rolled out");

            List<String> done = s.done();
            assertEquals("applied the 25 resources of istio-config/cases/sni by server-side apply (new: Deployment meshbench-egressgateway)", done.get(0));
            assertEquals("deleted VirtualService meshbench-test/mongo-through-egress-gateway, Gateway meshbench-test/istio-egressgateway, "
                    + "ServiceEntry meshbench-test/mongo", done.get(1));
            assertTrue(done.get(2).matches("rolled out meshbench-egressgateway in [0-9.]+ s \\(new in case sni\\)"), done.get(2));
            assertEquals("kept the pods of auth, booking, customer, flight (pod template unchanged)", done.get(3));
            assertTrue(done.get(4).startsWith("confirmed from the proxies' own Envoy in "), done.get(4));
            for (String svc : SERVICES) {
                assertTrue(done.get(4).contains("sidecar-" + svc + " (pod meshbench-test/" + svc + "-"), done.get(4));
            }
            assertTrue(done.get(4).contains("egress-gateway (Istio's istio-egressgateway, pod istio-system/istio-egressgateway-"), done.get(4));
            assertTrue(done.get(4).contains("egress-gateway (the kit's meshbench-egressgateway, pod meshbench-test/meshbench-egressgateway-"),
                    done.get(4));
            assertEquals(5, done.size(), "no services or data to check before awaitReady: " + done);
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("[sni] switched from mtls in "), out.toString(StandardCharsets.UTF_8));
            assertEquals(EgressCase.SNI, envoys.caseOf(pods("booking").get(0)));
        }
    }

    @Test
    @DisplayName("bypass to sidecar restarts the four services' pods, whose template loses the excluded CIDR, and confirms the new pods")
    void bypassToSidecarRestartsTheServices() {
        FakeCluster.Envoys envoys = envoys(EgressCase.BYPASS, Duration.ofSeconds(30));
        try (KubernetesDeployment d = deploy(EgressCase.BYPASS, envoys, Duration.ofSeconds(30), ClusterOps.Applier.CREATE_OR_REPLACE)) {
            Map<String, List<String>> before = new java.util.TreeMap<>();
            SERVICES.forEach(svc -> before.put(svc, pods(svc)));
            Pod old = client.pods().inNamespace(NAMESPACE).withName(before.get("booking").get(0)).get();
            assertEquals("10.20.30.40/32", old.getMetadata().getAnnotations().get(KubernetesDeployment.EXCLUDE_OUTBOUND));
            envoys.push(EgressCase.SIDECAR);
            Switch s = d.apply(EgressCase.SIDECAR);
            for (String svc : SERVICES) {
                assertNotEquals(before.get(svc), pods(svc), svc + "'s pod replaced");
                Pod now = client.pods().inNamespace(NAMESPACE).withName(pods(svc).get(0)).get();
                assertNull(now.getMetadata().getAnnotations() == null ? null
                        : now.getMetadata().getAnnotations().get(KubernetesDeployment.EXCLUDE_OUTBOUND), svc);
            }
            assertTrue(s.done().get(1).matches("rolled out auth, booking, customer, flight in [0-9.]+ s \\(pod template changed: "
                    + "istio-init's excluded CIDR \\(traffic.sidecar.istio.io/excludeOutboundIPRanges\\) removed\\)"), s.done().toString());
            assertFalse(s.done().stream().anyMatch(x -> x.startsWith("kept the pods")), s.done().toString());
            assertFalse(s.done().stream().anyMatch(x -> x.startsWith("deleted")), "nothing of bypass is missing from sidecar: " + s.done());
        }
    }

    @Test
    @DisplayName("a sidecar left with the previous case's routes is detected: the switch fails naming it, what it has and whose routes they are")
    void aStaleSidecarIsNamed() {
        FakeCluster.Envoys envoys = envoys(EgressCase.MTLS, Duration.ofSeconds(3));
        envoys.stale("booking-");
        try (KubernetesDeployment d = deploy(EgressCase.MTLS, envoys, Duration.ofSeconds(3), ClusterOps.Applier.CREATE_OR_REPLACE)) {
            envoys.push(EgressCase.SNI);
            TargetException e = assertThrows(TargetException.class, () -> d.apply(EgressCase.SNI));
            String m = e.getMessage();
            assertTrue(m.startsWith("switching from case mtls to sni: not confirmed after 3 s (-Dmeshbench.kubernetes.readyTimeoutSeconds): "
                    + "sidecar-booking (pod meshbench-test/booking-"), m);
            assertTrue(m.contains("has SNI db.perf.example -> outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local (TLS "
                    + "started, SNI db.perf.example) (as in case mtls), not case sni's SNI *.perf.example -> "
                    + "outbound|443|mongo|meshbench-egressgateway.meshbench-test.svc.cluster.local (TLS started, SNI db.perf.example)"), m);
            assertFalse(m.contains("sidecar-auth"), "the proxies that took the switch are not named: " + m);
            assertEquals(EgressCase.SNI, d.egressCase(), "sni is applied (and must not be measured)");
        }
    }

    @Test
    @DisplayName("a switch to bypass whose Deployments never change leaves pods without the excluded CIDR: detected, naming each pod")
    void podsWithoutTheExclusionAreNamed() {
        FakeCluster.Envoys envoys = envoys(EgressCase.SIDECAR, Duration.ofSeconds(3));
        ClusterOps.Applier withholdingDeployments = (c, r) -> {
            if (!(r instanceof io.fabric8.kubernetes.api.model.apps.Deployment) || c.resource(r).get() == null) {
                ClusterOps.Applier.CREATE_OR_REPLACE.apply(c, r);
            }
        };
        try (KubernetesDeployment d = deploy(EgressCase.SIDECAR, envoys, Duration.ofSeconds(3), withholdingDeployments)) {
            envoys.push(EgressCase.BYPASS);
            TargetException e = assertThrows(TargetException.class, () -> d.apply(EgressCase.BYPASS));
            for (String svc : SERVICES) {
                assertTrue(e.getMessage().contains("sidecar-" + svc + " (pod meshbench-test/" + svc + "-"), e.getMessage());
            }
            assertTrue(e.getMessage().contains("does not leave MongoDB's address 10.20.30.40/32 out of its sidecar "
                    + "(traffic.sidecar.istio.io/excludeOutboundIPRanges): a pod from before the switch to bypass"), e.getMessage());
        }
    }

    @Test
    @DisplayName("a proxy with the next case's routes but a filter chain still draining is not confirmed: its old connections are still open")
    void drainingIsNotConfirmed() {
        FakeCluster.Envoys envoys = envoys(EgressCase.SIDECAR, Duration.ofSeconds(3));
        envoys.draining("istio-egressgateway-");
        try (KubernetesDeployment d = deploy(EgressCase.SIDECAR, envoys, Duration.ofSeconds(3), ClusterOps.Applier.CREATE_OR_REPLACE)) {
            envoys.push(EgressCase.GATEWAY);
            TargetException e = assertThrows(TargetException.class, () -> d.apply(EgressCase.GATEWAY));
            assertTrue(e.getMessage().contains("egress-gateway (Istio's istio-egressgateway, pod istio-system/istio-egressgateway-"), e.getMessage());
            assertTrue(e.getMessage().contains("has case gateway's routes but 1 listener(s) or filter chain(s) still draining: connections "
                    + "taken before the switch, which Envoy closes when its drain time ends"), e.getMessage());
            assertFalse(e.getMessage().contains("sidecar-"), e.getMessage());
        }
    }

    @Test
    @DisplayName("closing the deployment (the runner's shutdown hook on Ctrl-C) tears down at once, without waiting for a switch in progress")
    void closeDoesNotWaitForASwitch() throws Exception {
        FakeCluster.Envoys envoys = envoys(EgressCase.MTLS, Duration.ofSeconds(600));
        envoys.stale("booking-");
        KubernetesDeployment d = deploy(EgressCase.MTLS, envoys, Duration.ofSeconds(600), ClusterOps.Applier.CREATE_OR_REPLACE);
        envoys.push(EgressCase.SNI);
        java.util.concurrent.atomic.AtomicReference<Throwable> outcome = new java.util.concurrent.atomic.AtomicReference<>();
        Thread switching = new Thread(() -> {
            try {
                d.apply(EgressCase.SNI);
            } catch (RuntimeException e) {
                outcome.set(e);
            }
        }, "switch-under-test");
        switching.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (envoys.caseOf(pods("auth").get(0)) != EgressCase.SNI && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(EgressCase.SNI, envoys.caseOf(pods("auth").get(0)), "the switch is confirming, waiting for booking's proxy");
        d.close();
        assertTrue(switching.isAlive(), "close returned while the switch still waits for the stale proxy");
        assertNull(client.namespaces().withName(NAMESPACE).get(), "torn down");
        switching.interrupt();
        switching.join(60_000);
        assertTrue(outcome.get() instanceof TargetException, String.valueOf(outcome.get()));
    }

    @Test
    @DisplayName("a case the deployment was not prepared for is refused, naming the cases it was")
    void anUnpreparedCaseIsRefused() {
        FakeCluster.Envoys envoys = envoys(EgressCase.SIDECAR, Duration.ofSeconds(3));
        KubernetesTarget t = new KubernetesTarget(KubernetesFixtures.settings(Duration.ofSeconds(3)), 10, 1, WorkloadInfo.ORIGINAL, true,
                () -> new KubernetesClientBuilder().withConfig(client.getConfiguration()).build(), ClusterOps.Applier.CREATE_OR_REPLACE,
                c -> envoys, new PrintStream(out, true, StandardCharsets.UTF_8));
        try (KubernetesDeployment d = t.deploy(EgressCase.SIDECAR, List.of(EgressCase.GATEWAY), Path.of("logs"))) {
            assertEquals(List.of(EgressCase.SIDECAR, EgressCase.GATEWAY), d.reachable());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.apply(EgressCase.SNI));
            assertEquals("case sni was not prepared for this deployment (it can switch to sidecar, gateway): name it among the reachable "
                    + "cases of Target.deploy", e.getMessage());
            assertEquals(EgressCase.SIDECAR, d.egressCase());
        }
    }

    @Test
    @DisplayName("the Kubernetes target switches cases, and says how bypass goes in and out")
    void theTargetSaysItSwitches() {
        KubernetesTarget t = new KubernetesTarget(KubernetesFixtures.settings(Duration.ofSeconds(3)), 10, 1, WorkloadInfo.ORIGINAL, true,
                () -> client, ClusterOps.Applier.CREATE_OR_REPLACE, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(t.switchesCases());
        assertEquals("the services' pods restarted with istio-init's excluded CIDR (traffic.sidecar.istio.io/excludeOutboundIPRanges) "
                + "added or removed; their JVMs start cold", t.bypassSwitch().orElseThrow());
    }
}
