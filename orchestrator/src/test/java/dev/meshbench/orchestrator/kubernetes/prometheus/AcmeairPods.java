package dev.meshbench.orchestrator.kubernetes.prometheus;

import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.results.ComponentRole;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The components of the recorded responses and a resolver placing their series as a Kubernetes target would: by
 * namespace, pod name prefix and container.
 */
final class AcmeairPods {
    static final Component SIDECAR_BOOKING = new Component("sidecar-booking", ComponentRole.MESH);
    static final Component BOOKING = new Component("booking", ComponentRole.APP);
    static final Component EGRESS_GATEWAY = new Component("egress-gateway", ComponentRole.MESH);
    static final long T_MS = 1_700_000_000_000L;

    private AcmeairPods() {
    }

    static Optional<Component> resolve(Map<String, String> labels) {
        String ns = labels.getOrDefault("namespace", "");
        String pod = labels.getOrDefault("pod", "");
        String container = labels.getOrDefault("container", "");
        if (ns.equals("acmeair") && pod.startsWith("booking-")) {
            return switch (container) {
                case "istio-proxy" -> Optional.of(SIDECAR_BOOKING);
                case "booking" -> Optional.of(BOOKING);
                default -> Optional.empty();
            };
        }
        if (ns.equals("istio-system") && pod.startsWith("istio-egressgateway-") && container.equals("istio-proxy")) {
            return Optional.of(EGRESS_GATEWAY);
        }
        return Optional.empty();
    }

    static ContainerCpu containerCpu() {
        return new ContainerCpu(AcmeairPods::resolve);
    }

    /** The series of a recorded response, as the client reads them. */
    static List<Series> series(String fixture) {
        return PrometheusClient.parse("fixture " + fixture, 200,
                FakePrometheus.fixture(fixture).getBytes(StandardCharsets.UTF_8), "fixture", List.of("matrix", "vector"));
    }
}
