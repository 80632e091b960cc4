package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.local.envoynginx.EnvoyBootstrapRenderer;
import dev.meshbench.orchestrator.local.envoynginx.EnvoyCommand;
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
import java.nio.file.Files;
import java.nio.file.Path;
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

    public ProxyLaunch {
        Objects.requireNonNull(dataPlane, "dataPlane");
        Objects.requireNonNull(nettyTls, "nettyTls");
        Objects.requireNonNull(java, "java");
        Objects.requireNonNull(dataplaneJar, "dataplaneJar");
        Objects.requireNonNull(envoy, "envoy");
        Objects.requireNonNull(nginx, "nginx");
    }

    /**
     * The process of proxy {@code c} of {@code plan}, with {@code plan}'s worker count. Envoy bootstraps and the nginx
     * config are written to {@code configDir} ({@code <component>.envoy.yaml}, {@code <component>.nginx.conf});
     * {@code nginxDir} is nginx's prefix (pid file, session log).
     */
    public ProcessSpec spec(TopologyPlan plan, ComponentPlan c, LocalAddresses addresses, MeshFiles mesh, Path configDir,
            Path nginxDir) {
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
                Path bootstrap = configDir.resolve(c.name() + ".envoy.yaml");
                write(bootstrap, EnvoyBootstrapRenderer.render(plan, c, addresses, mesh));
                List<String> cmd = nativeCommand(required(envoy, "envoy"));
                cmd.addAll(EnvoyCommand.args(bootstrap, workers));
                yield new ProcessSpec(component, cmd, new ProcessSpec.Readiness.HttpOk(
                        URI.create("http://" + LocalAddresses.HOST + ":" + addresses.adminPort(c.name()) + "/ready")));
            }
        };
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
