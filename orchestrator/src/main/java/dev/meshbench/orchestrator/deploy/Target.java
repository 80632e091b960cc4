package dev.meshbench.orchestrator.deploy;

import dev.meshbench.model.EgressCase;
import dev.meshbench.results.DataPlaneInfo;

/**
 * Where a case runs: the local target (every component a process on loopback) or a Kubernetes cluster with
 * Istio. One small contract so the runner does not care which.
 */
public interface Target {
    /** Which kind of target this is: written into every result. */
    dev.meshbench.results.TargetKind kind();

    /**
     * Starts deploying a case; call {@link Deployment#awaitReady} before sending load.
     *
     * @param logDir where the components' logs are collected
     */
    default Deployment deploy(EgressCase egressCase, java.nio.file.Path logDir) {
        return deploy(egressCase, java.util.List.of(egressCase), logDir);
    }

    /**
     * Starts deploying {@code first}, prepared to be switched to any case of {@code reachable} while it runs
     * ({@link Deployment#apply}); call {@link Deployment#awaitReady} before sending load.
     *
     * @param logDir where the components' logs are collected
     */
    Deployment deploy(EgressCase first, java.util.List<EgressCase> reachable, java.nio.file.Path logDir);

    /** Whether a deployment of this target switches cases while it runs ({@link Deployment#apply}). */
    default boolean switchesCases() {
        return false;
    }

    /**
     * How a deployment of this target switches bypass (the mesh off the MongoDB path) in and out, in words for the run's
     * first line and {@code run.json}; empty where it does not switch.
     */
    default java.util.Optional<String> bypassSwitch() {
        return java.util.Optional.empty();
    }

    /** Which data plane this target's mesh runs, its versions and settings: recorded in every result. */
    DataPlaneInfo dataPlane();

    /**
     * How this target measures each component's CPU, in words recorded in every result ({@code measurement.cpuMethod})
     * and printed when a run starts, e.g. {@code cgroup v1 cpuacct (ns)}.
     */
    String cpuMethod();
}
