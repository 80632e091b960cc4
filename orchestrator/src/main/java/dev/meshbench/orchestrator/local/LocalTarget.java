package dev.meshbench.orchestrator.local;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.Target;
import dev.meshbench.results.DataPlaneInfo;

/**
 * The embedded default: every component of a case (MongoDB, each service, each sidecar, the egress gateway,
 * the SNI proxy) is its own OS process on loopback, so CPU and memory are attributable per component as in a
 * cluster.
 */
public final class LocalTarget implements Target {
    private final LocalTargetSettings config;

    public LocalTarget(LocalTargetSettings config) {
        this.config = config;
    }

    @Override
    public dev.meshbench.results.TargetKind kind() {
        return dev.meshbench.results.TargetKind.LOCAL;
    }

    @Override
    public DataPlaneInfo dataPlane() {
        LocalDataPlane d = config.dataPlane();
        return new DataPlaneInfo(d.dataPlane().id(), d.versions(), d.options().workers(), d.options().sidecarMtls(),
                d.options().ingress(),
                switch (d.dataPlane()) {
                    case NETTY -> null; // the relays choose at start: LocalDeployment.dataPlane reads their choice
                    case ENVOY -> "BoringSSL";
                });
    }

    /** Each component's own cgroup where cgroups are writable, else its process tree sampled from {@code /proc}. */
    @Override
    public String cpuMethod() {
        return config.cgroups().map(Cgroups::method).orElse(CpuMethod.PROC_SAMPLED).label();
    }

    @Override
    public LocalDeployment deploy(EgressCase egressCase, java.nio.file.Path logDir) {
        return LocalDeployment.start(egressCase, config, logDir);
    }

    /** Deploys {@code first} only: switching on the local target is not part of this branch. */
    @Override
    public LocalDeployment deploy(EgressCase first, java.util.List<EgressCase> reachable, java.nio.file.Path logDir) {
        return deploy(first, logDir);
    }
}
