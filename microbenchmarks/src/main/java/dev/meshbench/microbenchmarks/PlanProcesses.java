package dev.meshbench.microbenchmarks;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.local.ProxyLaunch;
import dev.meshbench.orchestrator.local.ProcessSupervisor;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The proxies of a {@link TopologyPlan} as real processes, started the way {@code LocalDeployment} starts them:
 * the Netty relays with {@code dataplane.jar} and {@code NettyProxyArgs}; Envoy with a bootstrap from
 * {@code EnvoyBootstrapRenderer} and {@code EnvoyCommand}; nginx (the SNI proxy) with {@code NginxConfigRenderer}
 * and {@code NginxCommand}. Components that are not proxies (the server standing in for MongoDB, an echo server)
 * run in the caller's JVM and are skipped here. Started in plan order (callees first); every process is stopped by
 * {@link #close()}, by the supervisor's shutdown hook, and, if this JVM is killed, through stdin EOF (Netty) or
 * {@code setpriv --pdeathsig} (native proxies).
 */
final class PlanProcesses implements AutoCloseable {
    static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private final ProcessSupervisor supervisor;
    private final Map<String, ReadyLine> ready;

    private PlanProcesses(ProcessSupervisor supervisor, Map<String, ReadyLine> ready) {
        this.supervisor = supervisor;
        this.ready = ready;
    }

    /** The TLS provider each Netty relay resolved ({@code tls-provider} of its ready line), e.g. "hop-1=boringssl". */
    String nettyTlsProviders() {
        StringBuilder b = new StringBuilder();
        ready.forEach((name, line) -> line.get("tls-provider").ifPresent(t -> b.append(b.length() == 0 ? "" : ", ").append(name).append('=').append(t)));
        return b.toString();
    }

    /**
     * Starts every proxy of {@code plan}; on failure stops those already started and throws, naming the component,
     * its last output and its log file.
     *
     * @param workDir where the rendered configs and the processes' logs go
     */
    static PlanProcesses start(TopologyPlan plan, LocalAddresses addresses, MeshFiles mesh, ProxyLaunch launch, Path workDir) {
        ProcessSupervisor supervisor = new ProcessSupervisor(workDir.resolve("logs"), Duration.ofSeconds(3));
        try {
            Map<String, ReadyLine> ready = new LinkedHashMap<>();
            for (ComponentPlan c : plan.components()) {
                if (c.kind().isProxy()) {
                    ready.put(c.name(), supervisor.start(launch.spec(plan, c, addresses, mesh, workDir, workDir), READY_TIMEOUT));
                }
            }
            return new PlanProcesses(supervisor, ready);
        } catch (RuntimeException e) {
            supervisor.close();
            throw e;
        }
    }

    /** Ports reserved for every listener and admin endpoint of {@code plan}, with {@code fixed} ports kept as given. */
    static LocalAddresses addresses(TopologyPlan plan, Map<Endpoint, Integer> fixed) {
        LocalAddresses reserved = LocalAddresses.reserve(plan);
        Map<Endpoint, Integer> listeners = new HashMap<>(reserved.listeners());
        listeners.putAll(fixed);
        return new LocalAddresses(listeners, reserved.admin());
    }

    @Override
    public void close() {
        supervisor.close();
    }
}
