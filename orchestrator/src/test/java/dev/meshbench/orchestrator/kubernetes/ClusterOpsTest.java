package dev.meshbench.orchestrator.kubernetes;

import static dev.meshbench.orchestrator.kubernetes.KubernetesFixtures.NAMESPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.istio.api.networking.v1.DestinationRule;
import io.fabric8.istio.api.networking.v1.Gateway;
import io.fabric8.istio.api.networking.v1.ServiceEntry;
import io.fabric8.istio.api.networking.v1.VirtualService;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The Kubernetes target's cluster operations against fabric8's mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class ClusterOpsTest {
    KubernetesMockServer server;
    KubernetesClient client;
    ClusterOps ops;

    @BeforeEach
    void setUp() {
        ops = new ClusterOps(client, NAMESPACE, ClusterOps.Applier.CREATE_OR_REPLACE);
        KubernetesFixtures.installIstioCrds(client);
        KubernetesFixtures.installEgressGateway(client);
    }

    private List<HasMetadata> manifests(EgressCase c) {
        return CaseManifests.typed(CaseManifests.render(c, KubernetesFixtures.settings(Duration.ofSeconds(5)),
                WorkloadInfo.ORIGINAL, Map.of("private.pem", "k", "public.pem", "p")), client.getKubernetesSerialization());
    }

    /** Kind/name of everything the kit's label selects in the test namespace, plus the namespace itself. */
    private Set<String> present() {
        Set<String> out = new TreeSet<>();
        for (Class<? extends HasMetadata> kind : ClusterOps.KINDS) {
            client.resources(kind).inNamespace(NAMESPACE).list().getItems()
                    .forEach(r -> out.add(r.getKind() + "/" + r.getMetadata().getName()));
        }
        if (client.namespaces().withName(NAMESPACE).get() != null) {
            out.add("Namespace/" + NAMESPACE);
        }
        return out;
    }

    private static Set<String> names(List<HasMetadata> rs) {
        return rs.stream().map(r -> r.getKind() + "/" + r.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
    }

    @ParameterizedTest
    @EnumSource(EgressCase.class)
    void applyingACaseCreatesExactlyItsResources(EgressCase c) {
        ops.checkPrerequisites(c, "istio-system");
        List<HasMetadata> resources = manifests(c);
        ops.apply(resources);
        assertEquals(names(resources), present());
        Set<String> istio = present().stream().filter(n -> n.matches("(ServiceEntry|Gateway|DestinationRule|VirtualService)/.*"))
                .collect(Collectors.toCollection(TreeSet::new));
        // Every case has the one entry at Istio's ingress gateway (base); the rest is the case's own.
        Set<String> entry = Set.of("Gateway/acmeair-ingress", "VirtualService/acmeair-routes");
        assertTrue(istio.containsAll(entry), istio.toString());
        istio.removeAll(entry);
        switch (c) {
            case BYPASS -> {
                assertEquals(Set.of(), istio);
                Deployment booking = client.apps().deployments().inNamespace(NAMESPACE).withName("booking").get();
                assertEquals("10.20.30.40/32", booking.getSpec().getTemplate().getMetadata().getAnnotations()
                        .get("traffic.sidecar.istio.io/excludeOutboundIPRanges"));
            }
            case SIDECAR -> {
                assertEquals(Set.of("ServiceEntry/mongo"), istio);
                ServiceEntry se = client.resources(ServiceEntry.class).inNamespace(NAMESPACE).withName("mongo").get();
                assertEquals(List.of("db.perf.example"), se.getSpec().getHosts());
                assertEquals(27017, se.getSpec().getPorts().get(0).getNumber());
                assertEquals("TLS", se.getSpec().getPorts().get(0).getProtocol());
            }
            case GATEWAY -> {
                assertEquals(Set.of("DestinationRule/egressgateway-for-mongo", "Gateway/istio-egressgateway",
                        "ServiceEntry/mongo", "VirtualService/mongo-through-egress-gateway"), istio);
                Gateway g = client.resources(Gateway.class).inNamespace(NAMESPACE).withName("istio-egressgateway").get();
                assertEquals("PASSTHROUGH", g.getSpec().getServers().get(0).getTls().getMode().name());
                VirtualService vs = client.resources(VirtualService.class).inNamespace(NAMESPACE).withName("mongo-through-egress-gateway").get();
                assertEquals(2, vs.getSpec().getTls().size());
                vs.getSpec().getTls().forEach(t -> assertEquals(List.of("db.perf.example"), t.getMatch().get(0).getSniHosts()));
                assertEquals("mongo", vs.getSpec().getTls().get(0).getRoute().get(0).getDestination().getSubset());
                assertEquals(443, vs.getSpec().getTls().get(0).getRoute().get(0).getDestination().getPort().getNumber());
            }
            case MTLS -> {
                Gateway g = client.resources(Gateway.class).inNamespace(NAMESPACE).withName("istio-egressgateway").get();
                assertEquals("ISTIO_MUTUAL", g.getSpec().getServers().get(0).getTls().getMode().name());
                DestinationRule dr = client.resources(DestinationRule.class).inNamespace(NAMESPACE).withName("egressgateway-for-mongo").get();
                var tls = dr.getSpec().getSubsets().get(0).getTrafficPolicy().getPortLevelSettings().get(0).getTls();
                assertEquals("ISTIO_MUTUAL", tls.getMode().name());
                assertEquals("db.perf.example", tls.getSni());
                VirtualService vs = client.resources(VirtualService.class).inNamespace(NAMESPACE).withName("mongo-through-egress-gateway").get();
                assertEquals("db.perf.example", vs.getSpec().getTcp().get(0).getRoute().get(0).getDestination().getHost());
                assertEquals(27017, vs.getSpec().getTcp().get(0).getRoute().get(0).getDestination().getPort().getNumber());
            }
            case SNI -> {
                assertTrue(present().containsAll(Set.of("Deployment/meshbench-egressgateway", "ConfigMap/meshbench-sni-proxy",
                        "ServiceEntry/sni-proxy", "DestinationRule/disable-mtls-for-sni-proxy")), present().toString());
                VirtualService vs = client.resources(VirtualService.class).inNamespace(NAMESPACE).withName("mongo-through-sni-proxy").get();
                assertEquals(List.of("*.perf.example"), vs.getSpec().getTls().get(0).getMatch().get(0).getSniHosts());
                assertEquals("sni-proxy.local", vs.getSpec().getTcp().get(0).getRoute().get(0).getDestination().getHost());
                ServiceEntry proxy = client.resources(ServiceEntry.class).inNamespace(NAMESPACE).withName("sni-proxy").get();
                assertEquals("127.0.0.1", proxy.getSpec().getEndpoints().get(0).getAddress());
                Deployment gw = client.apps().deployments().inNamespace(NAMESPACE).withName("meshbench-egressgateway").get();
                assertEquals("gateway", gw.getSpec().getTemplate().getMetadata().getAnnotations().get("inject.istio.io/templates"));
                assertEquals(List.of("istio-proxy", "sni-proxy"), gw.getSpec().getTemplate().getSpec().getContainers().stream()
                        .map(x -> x.getName()).toList());
            }
        }
    }

    @Test
    void switchingCaseLeavesNothingOfThePreviousOne() {
        ops.apply(manifests(EgressCase.SNI));
        ops.apply(manifests(EgressCase.BYPASS));
        List<String> removed = ops.removeOtherCases(EgressCase.SIDECAR);
        assertTrue(removed.contains("VirtualService " + NAMESPACE + "/mongo-through-sni-proxy"), removed.toString());
        ops.apply(manifests(EgressCase.SIDECAR));
        assertEquals(names(manifests(EgressCase.SIDECAR)), present());
        assertTrue(ops.removeOtherCases(EgressCase.SIDECAR).isEmpty());
    }

    @Test
    void teardownEmptiesTheNamespace() {
        ops.apply(manifests(EgressCase.MTLS));
        assertEquals(List.of(), ops.teardown(Duration.ofSeconds(5)));
        assertEquals(Set.of(), present());
        assertNotNull(client.apps().deployments().inNamespace("istio-system").withName("istio-egressgateway").get(),
                "teardown touched Istio's egress gateway");
    }

    @Test
    void refusesANamespaceThatIsNotTheKits() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                .addToLabels("team", "payments").endMetadata().build()).create();
        TargetException e = assertThrows(TargetException.class, () -> ops.checkPrerequisites(EgressCase.SIDECAR, "istio-system"));
        assertTrue(e.getMessage().startsWith("Namespace meshbench-test exists and is not the kit's"), e.getMessage());
        ops.teardown(Duration.ofSeconds(1));
        assertNotNull(client.namespaces().withName(NAMESPACE).get(), "teardown deleted a namespace that is not the kit's");
    }

    @Test
    void refusesAClusterWithoutIstiosCrds() {
        client.apiextensions().v1().customResourceDefinitions().withName("gateways.networking.istio.io").delete();
        TargetException e = assertThrows(TargetException.class, () -> ops.checkPrerequisites(EgressCase.BYPASS, "istio-system"));
        assertTrue(e.getMessage().startsWith("Istio's CRDs are not installed: CustomResourceDefinition gateways.networking.istio.io not found"),
                e.getMessage());
    }

    @Test
    void refusesGatewayCasesWithoutAnEgressGateway() {
        client.apps().deployments().inNamespace("istio-system").withName("istio-egressgateway").delete();
        ops.checkPrerequisites(EgressCase.SIDECAR, "istio-system");
        ops.checkPrerequisites(EgressCase.SNI, "istio-system");
        for (EgressCase c : List.of(EgressCase.GATEWAY, EgressCase.MTLS)) {
            TargetException e = assertThrows(TargetException.class, () -> ops.checkPrerequisites(c, "istio-system"));
            assertTrue(e.getMessage().startsWith("no egress gateway: no Deployment labelled istio=egressgateway in namespace istio-system"),
                    e.getMessage());
        }
    }

    @Test
    void aRolloutThatNeverCompletesIsNamedWithItsPodsAndEvents() {
        List<HasMetadata> resources = manifests(EgressCase.SIDECAR);
        ops.apply(resources);
        // No controllers run on the mock server: the Deployments never roll out. Give one a pod and an event to name.
        client.pods().inNamespace(NAMESPACE).resource(new PodBuilder().withNewMetadata().withName("booking-5d9c7b-x2k4q")
                .addToLabels("app", "booking").endMetadata()
                .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").withMessage("0/1 nodes are available: 1 Insufficient cpu.").endCondition().endStatus()
                .build()).create();
        client.v1().events().inNamespace(NAMESPACE).resource(new EventBuilder().withNewMetadata().withName("booking.1").endMetadata()
                .withType("Warning").withReason("FailedScheduling").withMessage("0/1 nodes are available: 1 Insufficient cpu.")
                .withNewInvolvedObject().withKind("Pod").withName("booking-5d9c7b-x2k4q").endInvolvedObject().build()).create();
        TargetException e = assertThrows(TargetException.class, () -> ops.awaitRollouts(resources, List.of(), Duration.ofMillis(1)));
        String m = e.getMessage();
        assertTrue(m.startsWith("not ready after 0 s: Deployment meshbench-test/"), m);
        assertTrue(m.contains("Deployment meshbench-test/customer: not yet seen by the deployment controller"), m);
        assertTrue(m.contains("pod booking-5d9c7b-x2k4q Pending: PodScheduled=False (Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.)"), m);
        assertTrue(m.contains("recent events in meshbench-test: Warning Pod/booking-5d9c7b-x2k4q FailedScheduling"), m);
    }

    @Test
    void rolloutStatusIsReadAsKubectlReadsIt() {
        Deployment d = new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder().withNewMetadata().withName("x").withGeneration(2L)
                .endMetadata().withNewSpec().withReplicas(1).endSpec().withNewStatus().withObservedGeneration(2L)
                .withReplicas(1).withUpdatedReplicas(1).withAvailableReplicas(1).endStatus().build();
        assertTrue(ClusterOps.rolloutProblem(d, "ns", "x").isEmpty());
        d.getStatus().setObservedGeneration(1L);
        assertEquals("Deployment ns/x: not yet seen by the deployment controller", ClusterOps.rolloutProblem(d, "ns", "x").get());
        d.getStatus().setObservedGeneration(2L);
        d.getStatus().setReplicas(2);
        assertEquals("Deployment ns/x: 1/1 available, 1 updated, 1 old replicas terminating", ClusterOps.rolloutProblem(d, "ns", "x").get());
        assertFalse(ClusterOps.rolloutProblem(null, "ns", "x").isEmpty());
        assertNull(null);
    }
}
