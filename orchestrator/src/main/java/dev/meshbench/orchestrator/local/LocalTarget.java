package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.cases.EgressCase;
import dev.meshbench.orchestrator.target.Target;

/**
 * The embedded default: every component of a case (MongoDB, each service, each sidecar, the egress gateway,
 * the SNI proxy) is its own OS process on loopback, so CPU and memory are attributable per component as in a
 * cluster.
 */
public final class LocalTarget implements Target {
    private final LocalTargetConfig config;

    public LocalTarget(LocalTargetConfig config) {
        this.config = config;
    }

    @Override
    public String id() {
        return "local";
    }

    @Override
    public LocalDeployment deploy(EgressCase egressCase, java.nio.file.Path logDir) {
        return LocalDeployment.start(egressCase, config, logDir);
    }
}
