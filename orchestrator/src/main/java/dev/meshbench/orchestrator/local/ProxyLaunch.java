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
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
        return spec(plan, c, addresses, mesh, configDir, nginxDir, configVersion(plan.id()));
    }

    /**
     * A configuration name for a plan id: the id with every character a Netty relay's {@code --config-version} does not
     * take (it takes 1-64 letters, digits, {@code .}, {@code _}, {@code :} and {@code -}) made {@code -}, cut at 64; a
     * latency cell's id such as {@code single/1/none/sidecar} has slashes, which the relay refuses.
     */
    static String configVersion(String planId) {
        String v = planId.replaceAll("[^A-Za-z0-9._:-]", "-");
        return v.length() > 64 ? v.substring(0, 64) : v;
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
     * @param version the name of the configuration (Envoy: see {@link EnvoyConfigs#push}; a Netty relay's
     *                {@code --config-version}); nginx has none
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
                cmd.addAll(List.of("--tls-provider", nettyTls, "--exit-on-stdin-eof", "--config-version", version));
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
     * Gives the running proxy {@code c} its part of {@code plan} as {@code version} while it runs, and returns once the
     * proxy itself reports that version (read from its admin endpoint {@code admin}): a Netty relay gets its new
     * arguments on {@code PUT /config} and answers once they serve, confirmed by {@code GET /config}; Envoy's listeners
     * and clusters are written into the folder {@link #spec} set up ({@link EnvoyConfigs#push}) and confirmed from its
     * own admin ({@link EnvoyConfigs#awaitApplied}).
     *
     * @throws TargetException naming the proxy and what it has instead, if it does not take it within {@code timeout}
     */
    public void reconfigure(TopologyPlan plan, ComponentPlan c, LocalAddresses addresses, MeshFiles mesh, Path configDir, String version,
            HttpClient http, URI admin, Duration timeout) {
        switch (dataPlane) {
            case NETTY -> {
                List<String> args = NettyProxyArgs.of(c, addresses, mesh, plan.options().workers());
                List<String> body = new ArrayList<>(args.subList(1, args.size())); // less the command name
                body.addAll(List.of("--tls-provider", nettyTls, "--exit-on-stdin-eof"));
                URI put = admin.resolve("/config?version=" + version);
                String answer = send(http, HttpRequest.newBuilder(put).timeout(timeout)
                        .PUT(HttpRequest.BodyPublishers.ofString(String.join("\n", body) + "\n")).build(), c, version);
                String now = send(http, HttpRequest.newBuilder(admin.resolve("/config")).timeout(timeout).GET().build(), c, version);
                if (!now.contains("\"version\":\"" + version + "\"") && !now.contains("\"version\" : \"" + version + "\"")) {
                    throw new TargetException(c.name() + " did not take configuration " + version + ": it answered " + answer.strip()
                            + ", and its /config now says " + now.strip());
                }
            }
            case ENVOY -> {
                if (c.kind() == ComponentKind.SNI_PROXY) {
                    throw new TargetException("reconfiguring " + c.name() + " (nginx) while it runs is not supported: it is restarted");
                }
                EnvoyConfigs.push(plan, c, addresses, mesh, xdsDir(configDir, c), version);
                EnvoyConfigs.awaitApplied(http, admin, plan, c, addresses, version, timeout);
            }
        }
    }

    private static String send(HttpClient http, HttpRequest request, ComponentPlan c, String version) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new TargetException(c.name() + " refused configuration " + version + ": " + request.method() + " " + request.uri()
                        + " answered " + r.statusCode() + ": " + r.body().strip());
            }
            return r.body();
        } catch (IOException e) {
            throw new TargetException(c.name() + ": configuration " + version + " could not be given: " + request.method() + " "
                    + request.uri() + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetException(c.name() + ": configuration " + version + " interrupted");
        }
    }

    /**
     * Why proxy {@code from} must be restarted to become {@code to}, if it must: nginx, which no switch changes, is not
     * reloaded by the kit. Envoy and the Netty relays take any change live (the Netty egress gateway's mode too: it
     * starts with its workload certificate whenever one was issued, {@link NettyProxyArgs}).
     */
    public Optional<String> restartNeeded(ComponentPlan from, ComponentPlan to) {
        if (from.equals(to)) {
            return Optional.empty();
        }
        return dataPlane == DataPlane.ENVOY && to.kind() == ComponentKind.SNI_PROXY ? Optional.of("nginx's configuration changed")
                : Optional.empty();
    }

    /** How proxy {@code c}'s configuration is changed while it runs, in words. */
    public String configurationMethod(ComponentPlan c) {
        return switch (dataPlane) {
            case NETTY -> "Netty relay, PUT /config";
            case ENVOY -> c.kind() == ComponentKind.SNI_PROXY ? "nginx" : "Envoy, LDS/CDS from files";
        };
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
