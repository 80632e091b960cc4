package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.pki.CertificateAuthority;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Settings and cluster state the Kubernetes target's tests share. */
final class KubernetesFixtures {
    static final String NAMESPACE = "meshbench-test";

    private KubernetesFixtures() {
    }

    static KubernetesSettings settings(Duration readyTimeout) {
        KubernetesSettings.Mongo mongo = new KubernetesSettings.Mongo(URI.create("mongodb://db.perf.example:27017/?tls=true"),
                "db.perf.example", "*.perf.example", "10.20.30.40/32", caPem());
        return new KubernetesSettings(Optional.empty(), NAMESPACE, Map.of(KubernetesSettings.SERVICES_IMAGE,
                "registry.example/acmeair-services:test"), Optional.of(mongo), Optional.empty(), Optional.empty(), Optional.empty(),
                "istio-system/prometheus", "istio-system", "istio-system", false, readyTimeout, 1, false,
                Optional.empty());
    }

    /** A real CA certificate, made for the test. */
    static String caPem() {
        try {
            java.nio.file.Path f = java.nio.file.Files.createTempFile("mongo-ca", ".pem");
            try {
                return java.nio.file.Files.readString(CertificateAuthority.create("meshbench test mongo CA").writeCertificatePem(f));
            } finally {
                java.nio.file.Files.deleteIfExists(f);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Istio's CRDs as the API server lists them (names and served versions; the schemas do not matter here). */
    static void installIstioCrds(KubernetesClient client) {
        for (String crd : ClusterOps.ISTIO_CRDS) {
            String plural = crd.substring(0, crd.indexOf('.'));
            client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                    .withNewMetadata().withName(crd).endMetadata()
                    .withNewSpec().withGroup("networking.istio.io").withScope("Namespaced")
                    .withNewNames().withPlural(plural).withKind(plural).endNames()
                    .addNewVersion().withName("v1").withServed(true).withStorage(true).endVersion()
                    .endSpec().build()).create();
        }
    }

    /** Istio's egress gateway Deployment, as istioctl installs it (labels only). */
    static void installEgressGateway(KubernetesClient client) {
        client.apps().deployments().inNamespace("istio-system").resource(new DeploymentBuilder()
                .withNewMetadata().withName("istio-egressgateway").withNamespace("istio-system")
                .addToLabels("istio", "egressgateway").addToLabels("app", "istio-egressgateway").endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("istio", "egressgateway").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("istio", "egressgateway").endMetadata()
                .withNewSpec().addNewContainer().withName("istio-proxy").withImage("docker.io/istio/proxyv2:1.28.0").endContainer()
                .endSpec().endTemplate().endSpec().build()).create();
    }

    /** Istio's ingress gateway as istioctl installs it (labels, one replica, the Service with port 80 named http2). */
    static void installIngressGateway(KubernetesClient client, int replicas) {
        client.apps().deployments().inNamespace("istio-system").resource(new DeploymentBuilder()
                .withNewMetadata().withName("istio-ingressgateway").withNamespace("istio-system")
                .addToLabels("istio", "ingressgateway").addToLabels("app", "istio-ingressgateway").endMetadata()
                .withNewSpec().withReplicas(replicas).withNewSelector().addToMatchLabels("istio", "ingressgateway").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("istio", "ingressgateway").endMetadata()
                .withNewSpec().addNewContainer().withName("istio-proxy").withImage("docker.io/istio/proxyv2:1.28.0").endContainer()
                .endSpec().endTemplate().endSpec().build()).create();
        client.services().inNamespace("istio-system").resource(new io.fabric8.kubernetes.api.model.ServiceBuilder()
                .withNewMetadata().withName("istio-ingressgateway").withNamespace("istio-system")
                .addToLabels("istio", "ingressgateway").endMetadata()
                .withNewSpec().addToSelector("istio", "ingressgateway").addToSelector("app", "istio-ingressgateway")
                .addNewPort().withName("http2").withPort(80).withNewTargetPort(8080).endPort().endSpec().build()).create();
    }
}
