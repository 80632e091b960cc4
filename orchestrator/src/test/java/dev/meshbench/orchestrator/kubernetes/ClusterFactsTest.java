package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClusterFactsTest {
    @Test
    @DisplayName("the mesh config's default metrics providers are read as written; absent when not set")
    void defaultMetricsProviders() {
        String mesh = """
                accessLogFile: /dev/stdout
                defaultConfig:
                  discoveryAddress: istiod.istio-system.svc:15012
                defaultProviders:
                  metrics: []
                enablePrometheusMerge: true
                """;
        assertEquals(Optional.of("[]"), ClusterFacts.defaultMetricsProviders(mesh));
        assertEquals(Optional.of("[prometheus]"), ClusterFacts.defaultMetricsProviders("defaultProviders:\n  tracing: [zipkin]\n  metrics: [prometheus]\n"));
        assertEquals(Optional.empty(), ClusterFacts.defaultMetricsProviders("defaultConfig:\n  metrics: []\n"));
        assertEquals(Optional.empty(), ClusterFacts.defaultMetricsProviders(""));
    }

    @Test
    @DisplayName("an image's tag; none for a digest-only reference or a registry port")
    void tag() {
        assertEquals(Optional.of("1.29-dev-eed52ebb66ad"), ClusterFacts.tag("meshbench.local/proxyv2:1.29-dev-eed52ebb66ad"));
        assertEquals(Optional.empty(), ClusterFacts.tag("registry.example:5000/istio/pilot"));
        assertEquals(Optional.empty(), ClusterFacts.tag("docker.io/istio/pilot@sha256:abc"));
    }

    @Test
    @DisplayName("the proxies' facts read as one phrase, in the order read, which run.json's data plane accepts as a value")
    void describe() {
        java.util.Map<String, String> facts = new java.util.LinkedHashMap<>();
        assertEquals("", ClusterFacts.describe(facts));
        facts.put("proxy image", "meshbench.local/proxyv2:1.29-dev");
        facts.put("istiod switches", "PILOT_ENABLE_METADATA_EXCHANGE=false, PILOT_ENABLE_ALPN_FILTER=false");
        String phrase = ClusterFacts.describe(facts);
        assertEquals("proxy image meshbench.local/proxyv2:1.29-dev; istiod switches PILOT_ENABLE_METADATA_EXCHANGE=false, "
                + "PILOT_ENABLE_ALPN_FILTER=false", phrase);
        new dev.meshbench.results.DataPlaneInfo("istio", java.util.Map.of("sidecar", "istio-proxy 1.29-dev (" + phrase + ")"),
                null, true, true, null);
    }
}
