package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import org.junit.jupiter.api.Assumptions;

/**
 * The data planes integration tests run on. Envoy and nginx come from {@code meshbench.envoy.binary} /
 * {@code meshbench.nginx.binary} or PATH; where they are absent, Envoy tests are skipped with the reason
 * (never silently).
 */
final class DataPlanes {
    private DataPlanes() {
    }

    static LocalDataPlane of(DataPlane d, boolean sidecarMtls) {
        // The ingress is on, as by default: the tests reach the services through it, the whole mesh path.
        PlanOptions options = new PlanOptions(d, sidecarMtls, 1, true);
        return switch (d) {
            case NETTY -> LocalDataPlane.netty(options);
            case ENVOY -> {
                try {
                    yield LocalDataPlane.resolve(options, System.getProperty(LocalDataPlane.P_ENVOY_BINARY),
                            System.getProperty(LocalDataPlane.P_NGINX_BINARY), System.getenv("PATH"), "test");
                } catch (IllegalArgumentException e) {
                    Assumptions.assumeTrue(false, "data plane envoy skipped: " + e.getMessage());
                    throw e;
                }
            }
        };
    }
}
