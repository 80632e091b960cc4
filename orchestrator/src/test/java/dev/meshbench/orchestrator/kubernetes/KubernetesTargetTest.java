package dev.meshbench.orchestrator.kubernetes;

import static dev.meshbench.orchestrator.kubernetes.KubernetesFixtures.NAMESPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The Kubernetes target's deploy and teardown paths, errors included, on fabric8's mock API server. */
@EnableKubernetesMockClient(crud = true)
class KubernetesTargetTest {
    KubernetesMockServer server;
    KubernetesClient client;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() {
        KubernetesFixtures.installIstioCrds(client);
        KubernetesFixtures.installEgressGateway(client);
        KubernetesFixtures.installIngressGateway(client, 1);
    }

    private KubernetesTarget target() {
        return target(KubernetesFixtures.settings(Duration.ofSeconds(2)), true);
    }

    private KubernetesTarget target(KubernetesSettings settings, boolean ingress) {
        // The deployment closes the client it is given: hand it one of its own on the same mock server.
        return new KubernetesTarget(settings, 10, 1, WorkloadInfo.ORIGINAL, ingress,
                () -> new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(client.getConfiguration()).build(),
                ClusterOps.Applier.CREATE_OR_REPLACE, new PrintStream(out, true, StandardCharsets.UTF_8));
    }

    @Test
    void deploysACaseAndTearsItDownOnClose() {
        try (KubernetesDeployment d = target().deploy(EgressCase.MTLS, Path.of("logs"))) {
            assertTrue(client.namespaces().withName(NAMESPACE).get() != null);
            assertEquals(d.resources().size(), d.resources().stream().filter(r -> client.resource(r).get() != null).count());
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("applying " + d.resources().size()
                    + " resources of istio-config/cases/mtls to namespace meshbench-test"));
            // the case's plan, as on the local target, less MongoDB (outside the cluster)
            assertEquals(java.util.List.of("egress-gateway", "sidecar-customer", "sidecar-flight", "sidecar-auth", "sidecar-booking",
                    "customer", "flight", "auth", "booking", "ingress-gateway"), d.components().stream().map(c -> c.name()).toList());
        }
        assertNull(client.namespaces().withName(NAMESPACE).get(), "closing the deployment left the namespace");
        assertEquals(0, client.apps().deployments().inNamespace(NAMESPACE).list().getItems().size());
        assertNotNull(client.apps().deployments().inNamespace("istio-system").withName("istio-ingressgateway").get(),
                "teardown touched Istio's ingress gateway");
    }

    @Test
    @DisplayName("every case applies base's entry, a Gateway on Istio's ingress gateway at port 80 (not the egress gateway's 443)")
    void everyCaseHasTheEntryOnPort80() {
        for (EgressCase c : EgressCase.values()) {
            List<ObjectNode> docs = CaseManifests.render(c, KubernetesFixtures.settings(Duration.ofSeconds(2)), WorkloadInfo.ORIGINAL,
                    Map.of("private.pem", "x", "public.pem", "y"));
            assertEquals(Optional.of(80), LatencyManifests.gatewayPort(docs), c.id());
            assertEquals(1, docs.stream().filter(d -> "VirtualService".equals(d.path("kind").asText())
                    && "acmeair-routes".equals(d.path("metadata").path("name").asText())).count(), c.id());
        }
    }

    @Test
    @DisplayName("with the ingress, every service's load goes to meshbench.ingressUrl, and the progress line says so")
    void withTheIngressEveryServiceGoesToTheIngressUrl() {
        KubernetesSettings s = withIngressUrl(Optional.of(URI.create("http://gw.perf.example/")));
        try (KubernetesDeployment d = target(s, true).deploy(EgressCase.SIDECAR, Path.of("logs"))) {
            d.openEntry();
            URI gw = URI.create("http://gw.perf.example/");
            assertEquals(Map.of("auth", gw, "customer", gw, "flight", gw, "booking", gw), d.endpoints().services());
            assertEquals(Optional.of(gw), d.endpoints().entry(), "the one entry, which the run's progress and `up` name");
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("[sidecar] load goes to http://gw.perf.example/ "
                    + "(-Dmeshbench.ingressUrl): Istio's ingress gateway, which routes the client API of customer, flight, auth, booking to the services"),
                    out.toString(StandardCharsets.UTF_8));
            assertEquals(List.of(NAMESPACE, "istio-system"), d.namespaces());
        }
    }

    @Test
    @DisplayName("with the ingress, a cluster without Istio's ingress gateway is refused before anything is created")
    void withTheIngressAMissingIngressGatewayIsRefused() {
        client.apps().deployments().inNamespace("istio-system").withName("istio-ingressgateway").delete();
        TargetException e = assertThrows(TargetException.class, () -> target().deploy(EgressCase.SIDECAR, Path.of("logs")));
        assertEquals("no ingress gateway: no Deployment labelled istio=ingressgateway in namespace istio-system (case sidecar sends "
                + "the load through Istio's ingress gateway (-Dmeshbench.ingress=true): install it (istioctl's default profile has it), "
                + "name its namespace with -Dmeshbench.ingressGateway.namespace, or send the load to each service directly with "
                + "-Dmeshbench.ingress=false)", e.getMessage());
        assertNull(client.namespaces().withName(NAMESPACE).get(), "a refused case created the namespace");
    }

    @Test
    @DisplayName("without the ingress, no ingress gateway is needed, sampled or in the components")
    void withoutTheIngressNoIngressGateway() {
        client.apps().deployments().inNamespace("istio-system").withName("istio-ingressgateway").delete();
        try (KubernetesDeployment d = target(KubernetesFixtures.settings(Duration.ofSeconds(2)), false).deploy(EgressCase.MTLS,
                Path.of("logs"))) {
            assertEquals(List.of("egress-gateway", "sidecar-customer", "sidecar-flight", "sidecar-auth", "sidecar-booking",
                    "customer", "flight", "auth", "booking"), d.components().stream().map(c -> c.name()).toList());
            assertTrue(d.componentOf(labels("istio-system", "istio-ingressgateway-7c9f6-q2w3e", "istio-proxy")).isEmpty());
            assertEquals(List.of(NAMESPACE), d.namespaces(), "before the rollouts: no Istio gateway known yet");
        }
    }

    @Test
    @DisplayName("meshbench.ingressUrl with meshbench.ingress=false is refused, naming both")
    void anIngressUrlWithoutTheIngressIsRefused() {
        KubernetesSettings s = withIngressUrl(Optional.of(URI.create("http://gw.perf.example/")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> target(s, false));
        assertEquals("meshbench.ingressUrl=http://gw.perf.example/ with meshbench.ingress=false: the URL is where this machine "
                + "reaches Istio's ingress gateway, which meshbench.ingress=false bypasses (the load goes to each service directly); "
                + "drop one of the two", e.getMessage());
    }

    private static KubernetesSettings withIngressUrl(Optional<URI> url) {
        KubernetesSettings s = KubernetesFixtures.settings(Duration.ofSeconds(2));
        return new KubernetesSettings(s.kubeconfig(), s.namespace(), s.images(), s.mongo(), url, s.entrypointUrl(),
                s.prometheusUrl(), s.prometheusService(), s.egressGatewayNamespace(), s.ingressGatewayNamespace(), s.keep(), s.readyTimeout(), 1, false,
                s.kubectl());
    }

    @Test
    void a422StopsTheRunNamingTheResourceAndReasonAndStillTearsDown() {
        server.expect().post().withPath("/apis/networking.istio.io/v1/namespaces/" + NAMESPACE + "/serviceentries")
                .andReturn(422, new StatusBuilder().withApiVersion("v1").withKind("Status").withStatus("Failure").withCode(422)
                        .withReason("Invalid").withMessage("ServiceEntry.networking.istio.io \"mongo\" is invalid: "
                                + "spec.resolution: Unsupported value: \"DNZ\"").build()).once();
        TargetException e = assertThrows(TargetException.class, () -> target().deploy(EgressCase.SIDECAR, Path.of("logs")));
        assertEquals("applying ServiceEntry meshbench-test/mongo failed: HTTP 422 Invalid: ServiceEntry.networking.istio.io "
                + "\"mongo\" is invalid: spec.resolution: Unsupported value: \"DNZ\"", e.getMessage());
        assertNull(client.namespaces().withName(NAMESPACE).get(), "a failed apply left the namespace");
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("tore down namespace meshbench-test"));
    }

    @Test
    void a403StopsTheRunNamingTheResourceAndReasonAndStillTearsDown() {
        server.expect().post().withPath("/apis/apps/v1/namespaces/" + NAMESPACE + "/deployments")
                .andReturn(403, new StatusBuilder().withApiVersion("v1").withKind("Status").withStatus("Failure").withCode(403)
                        .withReason("Forbidden").withMessage("deployments.apps is forbidden: User \"ci\" cannot create "
                                + "resource \"deployments\" in API group \"apps\" in the namespace \"meshbench-test\"").build()).once();
        TargetException e = assertThrows(TargetException.class, () -> target().deploy(EgressCase.BYPASS, Path.of("logs")));
        assertTrue(e.getMessage().matches("applying Deployment meshbench-test/\\w+ failed: HTTP 403 Forbidden: deployments.apps "
                + "is forbidden: User \"ci\" cannot create .*"), e.getMessage());
        assertNull(client.namespaces().withName(NAMESPACE).get(), "a failed apply left the namespace");
    }

    @Test
    void cpuSeriesArePlacedOnTheComponentsOfTheCase() {
        try (KubernetesDeployment d = target().deploy(EgressCase.SNI, Path.of("logs"))) {
            assertEquals("sidecar-booking", d.componentOf(labels(NAMESPACE, "booking-6f7d9c8b5-x7k2p", "istio-proxy")).get().name());
            assertEquals("booking", d.componentOf(labels(NAMESPACE, "booking-6f7d9c8b5-x7k2p", "booking")).get().name());
            assertEquals("egress-gateway", d.componentOf(labels(NAMESPACE, "meshbench-egressgateway-55d8f-abcde", "istio-proxy")).get().name());
            assertEquals("sni-proxy", d.componentOf(labels(NAMESPACE, "meshbench-egressgateway-55d8f-abcde", "sni-proxy")).get().name());
            assertEquals(new Component("ingress-gateway", ComponentRole.MESH),
                    d.componentOf(labels("istio-system", "istio-ingressgateway-7c9f6-q2w3e", "istio-proxy")).get());
            assertTrue(d.componentOf(labels("istio-system", "istio-ingressgateway-7c9f6-q2w3e", "discovery")).isEmpty());
            assertTrue(d.componentOf(labels("istio-system", "istio-egressgateway-7c9f6-q2w3e", "istio-proxy")).isEmpty(),
                    "case sni does not use Istio's egress gateway");
            // Not the kit's: another namespace, another deployment whose name starts like a service's, a pod of a Job.
            assertTrue(d.componentOf(labels("default", "booking-6f7d9c8b5-x7k2p", "booking")).isEmpty());
            assertTrue(d.componentOf(labels(NAMESPACE, "booking-admin-6f7d9c8b5-x7k2p", "booking")).isEmpty());
            assertTrue(d.componentOf(labels(NAMESPACE, "booking-x7k2p", "booking")).isEmpty());
            assertEquals(io.fabric8.kubernetes.api.model.HasMetadata.class.isAssignableFrom(d.resources().get(0).getClass()), true);
        }
    }

    private static java.util.Map<String, String> labels(String ns, String pod, String container) {
        return java.util.Map.of("namespace", ns, "pod", pod, "container", container);
    }

    @Test
    void keepLeavesTheCaseDeployed() {
        KubernetesSettings s = KubernetesFixtures.settings(Duration.ofSeconds(2));
        KubernetesSettings keep = s.with(s.namespace(), true);
        KubernetesTarget t = new KubernetesTarget(keep, 10, 1, WorkloadInfo.ORIGINAL, true,
                () -> new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(client.getConfiguration()).build(),
                ClusterOps.Applier.CREATE_OR_REPLACE, new PrintStream(out, true, StandardCharsets.UTF_8));
        t.deploy(EgressCase.SIDECAR, Path.of("logs")).close();
        assertTrue(client.namespaces().withName(NAMESPACE).get() != null);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("keeping namespace meshbench-test"));
    }

    @Test
    void anUnreachableClusterIsNamed() {
        KubernetesTarget t = new KubernetesTarget(KubernetesFixtures.settings(Duration.ofSeconds(2)), 10, 1, WorkloadInfo.ORIGINAL, true,
                () -> new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(new io.fabric8.kubernetes.client.ConfigBuilder()
                        .withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0).withConnectionTimeout(2000).build()).build(),
                ClusterOps.Applier.SERVER_SIDE, new PrintStream(out, true, StandardCharsets.UTF_8));
        TargetException e = assertThrows(TargetException.class, () -> t.deploy(EgressCase.SIDECAR, Path.of("logs")));
        assertTrue(e.getMessage().startsWith("no reachable cluster at https://127.0.0.1:1"), e.getMessage());
    }
}
