package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubernetesSettingsTest {
    @TempDir
    Path dir;

    private Map<String, String> valid() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), KubernetesFixtures.caPem());
        Map<String, String> p = new HashMap<>();
        p.put(KubernetesSettings.P_MONGO_URI, "mongodb://mongo.db.perf.example:27017/?tls=true");
        p.put(KubernetesSettings.P_MONGO_CA, ca.toString());
        p.put(KubernetesSettings.P_MONGO_CIDR, "10.9.8.7/32");
        return p;
    }

    @Test
    void defaultsAndDerivedValues() throws Exception {
        KubernetesSettings s = KubernetesSettings.fromProperties(valid());
        assertEquals("acmeair", s.namespace());
        assertEquals("mongo.db.perf.example", s.mongo().orElseThrow().host());
        assertEquals("*.db.perf.example", s.mongo().orElseThrow().wildcard());
        assertEquals(Map.of(), s.images(), "no image given: istio-config's defaults");
        assertEquals("istio-system/prometheus", s.prometheusService());
        assertFalse(s.keep());
        assertTrue(s.kubeconfig().isEmpty());
    }

    @Test
    void theLatencyStudyNeedsNoDatabaseAndDefaultsToItsOwnNamespace() {
        KubernetesSettings s = KubernetesSettings.latencyFromProperties(Map.of(KubernetesSettings.P_IMAGE_SERVICES, "r.example/acme:2"));
        assertEquals("meshbench-latency", s.namespace());
        assertTrue(s.mongo().isEmpty());
        assertEquals("istio-system", s.ingressGatewayNamespace());
        assertEquals("r.example/acme:2", s.images().get("acmeair-services"));
        assertEquals("perf-9", KubernetesSettings.latencyFromProperties(Map.of(KubernetesSettings.P_NAMESPACE, "perf-9")).namespace());
        String m = assertThrows(IllegalArgumentException.class, () -> KubernetesSettings.latencyFromProperties(
                Map.of(KubernetesSettings.P_INGRESS_GATEWAY_NAMESPACE, "Istio System"))).getMessage();
        assertEquals("meshbench.ingressGateway.namespace=Istio System: not a valid namespace name (lower-case letters, digits and '-', at most 63)", m);
        assertEquals("meshbench.mongo.uri is not set: the egress study's cases need an external TLS MongoDB",
                assertThrows(IllegalArgumentException.class, s::requireMongo).getMessage());
    }

    @Test
    void imagesFromRegistryAndTagOrOneReference() throws Exception {
        Map<String, String> p = valid();
        p.put(KubernetesSettings.P_IMAGE_REGISTRY, "registry.example:5000/perf");
        p.put(KubernetesSettings.P_IMAGE_TAG, "1.2.3");
        p.put(KubernetesSettings.P_IMAGE_SNI_PROXY, "registry.example:5000/nginx:1.27");
        assertEquals(Map.of("acmeair-services", "registry.example:5000/perf/acmeair-services:1.2.3",
                "sni-proxy", "registry.example:5000/nginx:1.27"), KubernetesSettings.fromProperties(p).images());
        p.put(KubernetesSettings.P_IMAGE_SERVICES, "other/acme:9");
        assertEquals("other/acme:9", KubernetesSettings.fromProperties(p).images().get("acmeair-services"));
    }

    @Test
    void badInputIsRefusedNamingTheProperty() throws Exception {
        assertError(Map.of(), "meshbench.mongo.uri is not set");
        assertError(with(KubernetesSettings.P_MONGO_URI, "mongodb://10.0.0.1:27017/?tls=true"), "the host must be a DNS name");
        assertError(with(KubernetesSettings.P_MONGO_URI, "mongodb://db.example.com:27017/"), "must enable TLS (tls=true)");
        assertError(with(KubernetesSettings.P_MONGO_URI, "mongodb+srv://db.example.com/?tls=true"), "mongodb+srv is not supported");
        assertError(with(KubernetesSettings.P_MONGO_CA, dir.resolve("missing.pem").toString()), "meshbench.mongo.ca=" + dir.resolve("missing.pem") + ": no such file");
        Path notPem = Files.writeString(dir.resolve("x.txt"), "hello");
        assertError(with(KubernetesSettings.P_MONGO_CA, notPem.toString()), "meshbench.mongo.ca: holds no PEM certificate");
        assertError(with(KubernetesSettings.P_MONGO_WILDCARD, "*.other.example"), "meshbench.mongo.wildcard=*.other.example: must be");
        assertError(with(KubernetesSettings.P_MONGO_CIDR, "10.0.0.0"), "meshbench.mongo.cidr=10.0.0.0: must be an IPv4 CIDR");
        assertError(with(KubernetesSettings.P_NAMESPACE, "Perf_Runs"), "meshbench.namespace=Perf_Runs: not a valid namespace name");
        assertError(with(KubernetesSettings.P_KEEP, "yes"), "meshbench.keep=yes: must be true or false");
        assertError(with(KubernetesSettings.P_INGRESS_URL, "ftp://x"), "meshbench.ingressUrl=ftp://x: must be an http:// or https:// URL");
        assertError(with(KubernetesSettings.P_KUBECONFIG, "/no/such/kubeconfig"), "meshbench.kubeconfig=/no/such/kubeconfig: no such file");
        assertError(with(KubernetesSettings.P_IMAGE_REGISTRY, "r.example"), "meshbench.images.tag is empty");
    }

    private Map<String, String> with(String key, String value) throws Exception {
        Map<String, String> p = valid();
        p.put(key, value);
        return p;
    }

    private static void assertError(Map<String, String> p, String expected) {
        String m = assertThrows(IllegalArgumentException.class, () -> KubernetesSettings.fromProperties(p)).getMessage();
        assertTrue(m.contains(expected), "expected '" + expected + "' in: " + m);
    }
}
