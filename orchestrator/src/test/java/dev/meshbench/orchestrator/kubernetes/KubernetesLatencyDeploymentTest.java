package dev.meshbench.orchestrator.kubernetes;

import static dev.meshbench.orchestrator.kubernetes.KubernetesFixtures.NAMESPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.latency.LatencyCell;
import dev.meshbench.orchestrator.deploy.LatencyDeployment;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.orchestrator.deploy.TargetException;
import io.fabric8.istio.api.networking.v1.Gateway;
import io.fabric8.istio.api.networking.v1.VirtualService;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A latency cell on fabric8's mock API server: what is applied, entry choice, CPU placement, teardown. */
@EnableKubernetesMockClient(crud = true)
class KubernetesLatencyDeploymentTest {
    KubernetesClient client;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final List<LatencyDeployment> created = new ArrayList<>();

    @BeforeEach
    void setUp() {
        KubernetesFixtures.installIstioCrds(client);
    }

    private KubernetesSettings settings(Optional<URI> ingressUrl, Optional<URI> entrypointUrl) {
        KubernetesSettings s = KubernetesFixtures.settings(Duration.ofSeconds(2));
        return new KubernetesSettings(s.kubeconfig(), NAMESPACE, s.images(), Optional.empty(), ingressUrl, entrypointUrl,
                s.prometheusUrl(), s.prometheusService(), s.egressGatewayNamespace(), s.ingressGatewayNamespace(), false, s.readyTimeout(), 1, false,
                Optional.empty());
    }

    private KubernetesLatencyDeployment start(String cellId, KubernetesSettings s) {
        // The deployment closes the client it is given: hand it one of its own on the same mock server.
        return KubernetesLatencyDeployment.start(cell(cellId), s,
                new KubernetesClientBuilder().withConfig(client.getConfiguration()).build(), ClusterOps.Applier.CREATE_OR_REPLACE,
                new PrintStream(out, true, StandardCharsets.UTF_8), created::add);
    }

    private static LatencyCell cell(String id) {
        return LatencyCell.select(LatencyCell.matrix(List.of("single", "double")), "cells", id).get(0);
    }

    @Test
    @DisplayName("a gateway+sidecar cell at scale 5 is applied into the kit's namespace without the load client, and torn down")
    void appliesACellAndTearsItDown() {
        KubernetesFixtures.installIngressGateway(client, 5);
        KubernetesLatencyDeployment d = start("double/5/gateway/sidecar", settings(Optional.empty(), Optional.empty()));
        try (d) {
            assertEquals(List.of(d), created, "told before applying, so a shutdown hook can tear it down");
            assertNotNull(client.namespaces().withName(NAMESPACE).get());
            assertEquals("enabled", client.namespaces().withName(NAMESPACE).get().getMetadata().getLabels().get("istio-injection"));
            for (String name : List.of("go-sample", "go-sample-dependency")) {
                Deployment dep = client.apps().deployments().inNamespace(NAMESPACE).withName(name).get();
                assertEquals(5, dep.getSpec().getReplicas(), name);
                assertEquals("registry.example/acmeair-services:test", dep.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
                assertEquals("true", dep.getSpec().getTemplate().getMetadata().getLabels().get("sidecar.istio.io/inject"));
                assertNotNull(client.services().inNamespace(NAMESPACE).withName(name).get(), name);
            }
            assertNull(client.apps().deployments().inNamespace(NAMESPACE).withName("fortio").get(), "the load client is not deployed");
            assertNotNull(client.configMaps().inNamespace(NAMESPACE).withName("latency-graphs").get());
            assertNotNull(client.resources(Gateway.class).inNamespace(NAMESPACE).withName("latency-ingress").get());
            assertEquals("go-sample", client.resources(VirtualService.class).inNamespace(NAMESPACE).withName("latency-entrypoint").get()
                    .getSpec().getHttp().get(0).getRoute().get(0).getDestination().getHost());
            assertEquals(d.resources().size(), d.resources().stream().filter(r -> client.resource(r).get() != null).count());
            assertEquals("istio-ingressgateway", d.entryService());
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("[double/5/gateway/sidecar] applying " + d.resources().size()
                    + " resources of istio-config/latency/cells/double-5-gateway-sidecar to namespace meshbench-test"), out.toString());
            assertFalse(out.toString(StandardCharsets.UTF_8).contains("note: Istio's ingress gateway"), "scale 5 = 5 gateway replicas");
        }
        assertNull(client.namespaces().withName(NAMESPACE).get(), "closing the cell left the namespace");
        assertEquals(0, client.apps().deployments().inNamespace(NAMESPACE).list().getItems().size());
        assertNotNull(client.apps().deployments().inNamespace("istio-system").withName("istio-ingressgateway").get(),
                "teardown touched Istio's ingress gateway");
        d.close();
        assertEquals(1, out.toString(StandardCharsets.UTF_8).split("tore down namespace", -1).length - 1, "closing twice tears down once");
    }

    @Test
    @DisplayName("CPU series are placed on the graph's services, their sidecars and Istio's ingress gateway, as the local target names them")
    void placesCpuSeries() {
        KubernetesFixtures.installIngressGateway(client, 1);
        try (KubernetesLatencyDeployment d = start("double/5/gateway/sidecar", settings(Optional.empty(), Optional.empty()))) {
            assertEquals(List.of("go-sample", "sidecar-go-sample", "go-sample-dependency", "sidecar-go-sample-dependency", "ingress-gateway"),
                    d.components().stream().map(Component::name).toList());
            assertEquals(new Component("go-sample", ComponentRole.APP), d.componentOf(labels(NAMESPACE, "go-sample-6f7d9c8b5-x7k2p", "go-sample")).get());
            assertEquals(new Component("sidecar-go-sample-dependency", ComponentRole.MESH),
                    d.componentOf(labels(NAMESPACE, "go-sample-dependency-5d9f8-abcde", "istio-proxy")).get());
            assertEquals(new Component("go-sample-dependency", ComponentRole.APP),
                    d.componentOf(labels(NAMESPACE, "go-sample-dependency-5d9f8-abcde", "go-sample-dependency")).get());
            assertEquals(new Component("ingress-gateway", ComponentRole.MESH),
                    d.componentOf(labels("istio-system", "istio-ingressgateway-7c9f6-q2w3e", "istio-proxy")).get());
            // Not the cell's: Istio's egress gateway, another namespace, a pod of another Deployment.
            assertTrue(d.componentOf(labels("istio-system", "istio-egressgateway-7c9f6-q2w3e", "istio-proxy")).isEmpty());
            assertTrue(d.componentOf(labels("default", "go-sample-6f7d9c8b5-x7k2p", "go-sample")).isEmpty());
            assertTrue(d.componentOf(labels(NAMESPACE, "fortio-6f7d9c8b5-x7k2p", "fortio")).isEmpty());
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("note: Istio's ingress gateway istio-system/istio-ingressgateway runs 1 "
                    + "replica(s), the cell's scale is 5"), out.toString());
        }
        try (KubernetesLatencyDeployment d = start("single/1/none/none", settings(Optional.empty(), Optional.empty()))) {
            assertEquals(List.of(new Component("a", ComponentRole.APP)), d.components());
            assertTrue(d.componentOf(labels(NAMESPACE, "a-6f7d9c8b5-x7k2p", "istio-proxy")).isEmpty(), "no sidecar in this cell");
            assertEquals("a", d.entryService());
        }
    }

    @Test
    @DisplayName("the entry is the ingress URL in gateway cells and the entrypoint URL in the others")
    void entryFromSettings() {
        KubernetesFixtures.installIngressGateway(client, 1);
        KubernetesSettings s = settings(Optional.of(URI.create("http://gw.perf.example")), Optional.of(URI.create("http://10.1.2.3:30080/")));
        try (KubernetesLatencyDeployment d = start("single/1/gateway/none", s)) {
            assertThrows(IllegalStateException.class, d::targets, "no entry before it is opened");
            d.openEntry();
            assertEquals(List.of(URI.create("http://gw.perf.example/")), d.targets());
        }
        try (KubernetesLatencyDeployment d = start("double/1/none/sidecar", s)) {
            d.openEntry();
            assertEquals(List.of(URI.create("http://10.1.2.3:30080/")), d.targets());
        }
    }

    @Test
    @DisplayName("a gateway cell without Istio's ingress gateway is refused before anything is created")
    void refusesAGatewayCellWithoutIngressGateway() {
        TargetException e = assertThrows(TargetException.class, () -> start("single/1/gateway/none", settings(Optional.empty(), Optional.empty())));
        assertTrue(e.getMessage().startsWith("no ingress gateway: no Deployment labelled istio=ingressgateway in namespace istio-system "
                + "(cell single/1/gateway/none enters through Istio's ingress gateway"), e.getMessage());
        assertNull(client.namespaces().withName(NAMESPACE).get());
        assertEquals(List.of(), created);
    }

    @Test
    @DisplayName("a cell of a user's graph has no manifests and is refused naming the folder")
    void refusesAGraphWithoutManifests() {
        LatencyCell mine = new LatencyCell("mine", 1, false, false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KubernetesLatencyDeployment.start(mine,
                settings(Optional.empty(), Optional.empty()), new KubernetesClientBuilder().withConfig(client.getConfiguration()).build(),
                ClusterOps.Applier.CREATE_OR_REPLACE, new PrintStream(out, true, StandardCharsets.UTF_8), created::add));
        assertEquals("cell mine/1/none/none has no manifests (istio-config/latency/cells/mine-1-none-none): on a cluster the latency "
                + "study runs the graphs istio-config/latency/services has (single, double) at scales 1 and 5", e.getMessage());
    }

    @Test
    @DisplayName("what an earlier run left in the kit's namespace is removed before the cell is applied")
    void removesLeftovers() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                .addToLabels(CaseManifests.PART_OF, CaseManifests.PART_OF_VALUE).endMetadata().build()).create();
        client.apps().deployments().inNamespace(NAMESPACE).resource(new DeploymentBuilder().withNewMetadata().withName("go-sample-dependency")
                .addToLabels(CaseManifests.PART_OF, CaseManifests.PART_OF_VALUE).endMetadata().withNewSpec().withReplicas(1)
                .endSpec().build()).create();
        try (KubernetesLatencyDeployment d = start("single/1/none/none", settings(Optional.empty(), Optional.empty()))) {
            assertNull(client.apps().deployments().inNamespace(NAMESPACE).withName("go-sample-dependency").get(),
                    "a Deployment of the previous cell's graph is left");
            assertNotNull(client.apps().deployments().inNamespace(NAMESPACE).withName("a").get());
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("removing what an earlier run left in namespace meshbench-test"));
        }
    }

    @Test
    @DisplayName("CPU readings are one cumulative sample per container, the newest, kept across polls that bring nothing")
    void cpuReadingsAreTheNewestPerContainer() {
        Component app = new Component("a", ComponentRole.APP);
        Component sidecar = new Component("sidecar-a", ComponentRole.MESH);
        Map<Long, dev.meshbench.orchestrator.deploy.ResourceSample> latest = new java.util.HashMap<>();
        var first = KubernetesLatencyDeployment.keepNewest(latest, List.of(sample(1000, app, 1, 100), sample(6000, app, 1, 250),
                sample(1000, sidecar, 2, 40), sample(6000, sidecar, 2, 90)));
        assertEquals(List.of(sample(6000, app, 1, 250), sample(6000, sidecar, 2, 90)), first, "one per container, the newest");
        assertEquals(first, KubernetesLatencyDeployment.keepNewest(latest, List.of()), "a poll with nothing new keeps the readings");
        var later = KubernetesLatencyDeployment.keepNewest(latest, List.of(sample(11000, app, 1, 900), sample(6000, sidecar, 3, 5)));
        assertEquals(List.of(sample(11000, app, 1, 900), sample(6000, sidecar, 2, 90), sample(6000, sidecar, 3, 5)), later,
                "a restarted container is a pid of its own");
        assertEquals(later, KubernetesLatencyDeployment.keepNewest(latest, List.of(sample(6000, app, 1, 250))), "an older point does not win");
    }

    private static dev.meshbench.orchestrator.deploy.ResourceSample sample(long ms, Component c, long pid, long cpuMillis) {
        return new dev.meshbench.orchestrator.deploy.ResourceSample(ms, c, pid, cpuMillis, -1);
    }

    private static Map<String, String> labels(String ns, String pod, String container) {
        return Map.of("namespace", ns, "pod", pod, "container", container);
    }
}
