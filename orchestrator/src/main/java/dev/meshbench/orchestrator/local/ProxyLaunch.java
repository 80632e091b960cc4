package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.local.envoynginx.EnvoyCommand;
import dev.meshbench.orchestrator.local.envoynginx.EnvoyConfigs;
import dev.meshbench.orchestrator.local.envoynginx.NginxCommand;
import dev.meshbench.orchestrator.local.envoynginx.NginxConfigRenderer;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.TargetException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a plan's proxies run as processes, for the local target and the benchmarks alike: the Netty relays
 * ({@code java -jar dataplane.jar}), or Envoy and nginx with their configuration rendered from the plan.
 *
 * @param dataPlane    Netty relays, or Envoy + nginx
 * @param nettyTls     the Netty relays' {@code --tls-provider} ({@code auto}, {@code boringssl}, {@code jdk})
 * @param java         the {@code java} that runs the Netty relays
 * @param dataplaneJar {@code dataplane.jar} (data plane netty)
 * @param envoy        the Envoy binary (data plane envoy)
 * @param nginx        nginx with the stream module (data plane envoy, cases with an SNI proxy)
 */
public record ProxyLaunch(DataPlane dataPlane, String nettyTls, Path java, Optional<Path> dataplaneJar, Optional<Path> envoy,
        Optional<Path> nginx) {
    /** JVM options of a Netty relay: small heap, one GC thread's worth of work. */
    public static final List<String> NETTY_JVM = List.of("-Xms32m", "-Xmx192m", "-XX:+UseSerialGC", "-Xss512k");
    private static final Duration ADMIN_CONNECT_TIMEOUT = Duration.ofSeconds(1);

    public ProxyLaunch {
        Objects.requireNonNull(dataPlane, "dataPlane");
        Objects.requireNonNull(nettyTls, "nettyTls");
        Objects.requireNonNull(java, "java");
        Objects.requireNonNull(dataplaneJar, "dataplaneJar");
        Objects.requireNonNull(envoy, "envoy");
        Objects.requireNonNull(nginx, "nginx");
    }

    /**
     * As {@link #spec(TopologyPlan, ComponentPlan, LocalAddresses, MeshFiles, Path, Path, String)} with the plan's id as
     * the configuration version of an Envoy.
     */
    public ProcessSpec spec(TopologyPlan plan, ComponentPlan c, LocalAddresses addresses, MeshFiles mesh, Path configDir,
            Path nginxDir) {
        return spec(plan, c, addresses, mesh, configDir, nginxDir, plan.id());
    }

    /**
     * The process of proxy {@code c} of {@code plan}, with {@code plan}'s worker count.
     * <ul>
     *   <li>Envoy: the bootstrap {@code <component>.envoy.yaml} in {@code configDir} (node, admin, dynamic resources
     *       from {@code <component>.xds/}, {@link EnvoyConfigs#bootstrap}) and {@code plan}'s listeners and clusters
     *       pushed there as {@code version} ({@link EnvoyConfigs#push}, after clearing what an earlier run left); ready
     *       when its admin {@code /ready} answers and it has applied {@code version} ({@link EnvoyConfigs#notApplied});</li>
     *   <li>nginx (the SNI proxy): {@code <component>.nginx.conf} in {@code configDir}; {@code nginxDir} is its prefix
     *       (pid file, session log);</li>
     *   <li>the Netty relays: their command line.</li>
     * </ul>
     *
     * @param version the name of the Envoy configuration (see {@link EnvoyConfigs#push}); ignored by the others
     */
    public ProcessSpec spec(TopologyPlan plan, ComponentPlan c, LocalAddresses addresses, MeshFiles mesh, Path configDir,
            Path nginxDir, String version) {
        if (!c.kind().isProxy()) {
            throw new IllegalArgumentException(c.name() + " is a " + c.kind() + ", not a proxy");
        }
        Component component = new Component(c.name(), c.role());
        int workers = plan.options().workers();
        return switch (dataPlane) {
            case NETTY -> {
                List<String> cmd = new ArrayList<>();
                cmd.add(java.toString());
                cmd.addAll(NETTY_JVM);
                cmd.add("-jar");
                cmd.add(required(dataplaneJar, "dataplane.jar").toString());
                cmd.addAll(NettyProxyArgs.of(c, addresses, mesh, workers));
                cmd.addAll(List.of("--tls-provider", nettyTls, "--exit-on-stdin-eof"));
                yield new ProcessSpec(component, cmd);
            }
            case ENVOY -> {
                if (c.kind() == ComponentKind.SNI_PROXY) {
                    Path conf = configDir.resolve(c.name() + ".nginx.conf");
                    write(conf, NginxConfigRenderer.render(plan, c, addresses, nginxDir, workers));
                    List<String> cmd = nativeCommand(required(nginx, "nginx"));
                    cmd.addAll(NginxCommand.args(conf, nginxDir));
                    ListenerPlan l = c.listeners().get(0);
                    yield new ProcessSpec(component, cmd,
                            new ProcessSpec.Readiness.PortOpen(LocalAddresses.HOST, addresses.port(c.name(), l.name())));
                }
                List<String> cmd = nativeCommand(required(envoy, "envoy"));
                Path xds = xdsDir(configDir, c);
                Path bootstrap = configDir.resolve(c.name() + ".envoy.yaml");
                String bootstrapText = EnvoyConfigs.bootstrap(c, addresses, xds);
                LocalDeployment.deleteTree(xds); // documents of an earlier run in this folder are not this run's versions
                EnvoyConfigs.push(plan, c, addresses, mesh, xds, version);
                write(bootstrap, bootstrapText);
                cmd.addAll(EnvoyCommand.args(bootstrap, workers));
                URI admin = admin(addresses, c);
                // One client for this proxy's start; its selector thread ends once the probe is dropped.
                HttpClient http = HttpClient.newBuilder().connectTimeout(ADMIN_CONNECT_TIMEOUT).build();
                yield new ProcessSpec(component, cmd, new ProcessSpec.Readiness.Polled(admin.getHost() + ":" + admin.getPort(),
                        "config-" + version, () -> Probes.httpOk(admin.resolve("/ready"))
                                ? EnvoyConfigs.notApplied(http, admin, plan, c, addresses, version)
                                : Optional.of("its admin " + admin.resolve("/ready") + " does not answer 200 yet")));
            }
        };
    }

    /**
     * Switches the running proxy {@code c} to its configuration in {@code plan}, named {@code version}, and returns
     * once the proxy itself shows it in force. Envoy: {@link EnvoyConfigs#push} into the folder {@link #spec} set up,
     * then {@link EnvoyConfigs#awaitApplied}. Not supported yet for the Netty relays and nginx.
     *
     * @param admin the proxy's admin endpoint, {@code http://127.0.0.1:<admin port>}
     * @throws TargetException when the proxy does not show {@code version} within {@code timeout} (naming what it has
     *                         instead), or for a proxy that cannot be reconfigured while it runs
     */
    public void reconfigure(TopologyPlan plan, ComponentPlan c, LocalAddresses addresses, MeshFiles mesh, Path configDir, String version,
            HttpClient http, URI admin, Duration timeout) {
        if (!c.kind().isProxy()) {
            throw new IllegalArgumentException(c.name() + " is a " + c.kind() + ", not a proxy");
        }
        if (dataPlane == DataPlane.NETTY) {
            throw new TargetException("reconfiguring " + c.name() + " while it runs is not supported yet on data plane " + dataPlane.id());
        }
        if (c.kind() == ComponentKind.SNI_PROXY) {
            throw new TargetException("reconfiguring " + c.name() + " (nginx) while it runs is not supported yet");
        }
        EnvoyConfigs.push(plan, c, addresses, mesh, xdsDir(configDir, c), version);
        EnvoyConfigs.awaitApplied(http, admin, plan, c, addresses, version, timeout);
    }

    /** Where an Envoy's listeners and clusters are served from: {@code <configDir>/<component>.xds/}. */
    static Path xdsDir(Path configDir, ComponentPlan c) {
        return configDir.resolve(c.name() + ".xds");
    }

    private static URI admin(LocalAddresses addresses, ComponentPlan c) {
        return URI.create("http://" + LocalAddresses.HOST + ":" + addresses.adminPort(c.name()));
    }

    private static Path required(Optional<Path> binary, String what) {
        return binary.orElseThrow(() -> new IllegalStateException("data plane needs " + what + " but none was given"));
    }

    /** A native proxy's command; the supervisor's {@code Lifeline} ends it with this JVM, like every component. */
    private static List<String> nativeCommand(Path binary) {
        List<String> cmd = new ArrayList<>();
        cmd.add(binary.toString());
        return cmd;
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new TargetException("writing " + file + " failed: " + e.getMessage(), e);
        }
    }
}
