package dev.meshbench.orchestrator.local;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.model.ListenerNames;
import dev.meshbench.orchestrator.latency.GraphShape;
import dev.meshbench.orchestrator.latency.LatencyPlanner;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.orchestrator.local.CpuSets;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.results.DataPlaneInfo;
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
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One cell of the latency study running as processes on loopback, launched from the cell's {@link TopologyPlan}
 * ({@link LatencyPlanner}) the way {@link LocalDeployment} launches an egress case: ports reserved up front,
 * per-run mesh certificates, the proxies of the chosen data plane (Netty relays, or Envoy), then every replica of
 * every graph service ({@code acmeair-services.jar graph-node}), callees first. Closing it stops everything and
 * deletes the work folder, on every exit path.
 */
public final class LocalGraphDeployment implements dev.meshbench.orchestrator.deploy.LatencyDeployment {
    /** JVM options of a graph service replica (recorded in the cell's settings). */
    public static final List<String> NODE_JVM = List.of("-Xms32m", "-Xmx128m", "-XX:+UseSerialGC", "-Xss512k");

    private final TopologyPlan plan;
    private final GraphShape graph;
    private final ProcessSupervisor supervisor;
    private final Path workDir;
    private final Path logDir;
    private final List<Component> components = new ArrayList<>();
    private final java.util.Map<String, ReadyLine> ready = new java.util.LinkedHashMap<>();
    private LocalAddresses addresses;
    private volatile boolean closed;

    private LocalGraphDeployment(TopologyPlan plan, GraphShape graph, Path logDir) {
        this.plan = plan;
        this.graph = graph;
        this.logDir = logDir;
        try {
            this.workDir = dev.meshbench.orchestrator.lifetime.WorkFolders.create("latency");
        } catch (IOException e) {
            throw new TargetException("creating a private work folder for cell " + plan.id() + " failed: " + e.getMessage(), e);
        }
        this.supervisor = new ProcessSupervisor(logDir, Duration.ofSeconds(5), workDir);
    }

    /**
     * Starts every component of {@code plan} and waits until each graph service replica answers its readiness check
     * through the path clients take; on any failure everything already started is stopped before the exception leaves.
     *
     * @param graphFile the graph's YAML, given to every replica ({@code --graph})
     */
    public static LocalGraphDeployment start(TopologyPlan plan, GraphShape graph, Path graphFile, ComponentJars jars,
            LocalDataPlane dataPlane, CpuSets cpuSets, Duration readyTimeout, Path logDir) {
        if (plan.options().dataPlane() != dataPlane.dataPlane()) {
            throw new IllegalArgumentException("plan of " + plan.id() + " is for data plane " + plan.options().dataPlane().id()
                    + ", the target runs " + dataPlane.dataPlane().id());
        }
        LocalGraphDeployment d = new LocalGraphDeployment(plan, graph, logDir);
        try {
            d.startAll(graphFile, jars, dataPlane, cpuSets, readyTimeout);
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    private void startAll(Path graphFile, ComponentJars sourceJars, LocalDataPlane dp, CpuSets cpuSets, Duration readyTimeout) {
        ComponentJars jars = sourceJars.copyTo(workDir.resolve("jars"));
        addresses = LocalAddresses.reserve(plan);
        Path configDir = logDir.resolve("config");
        try {
            Files.createDirectories(configDir);
            Files.copy(graphFile, configDir.resolve("graph.yaml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new TargetException("preparing " + configDir + " failed: " + e.getMessage(), e);
        }
        Path graphCopy = configDir.resolve("graph.yaml");
        MeshFiles mesh = MeshFiles.issue(plan, CertificateAuthority.create("meshbench mesh CA " + plan.id()), workDir.resolve("pki"));
        ProxyLaunch launch = new ProxyLaunch(dp.dataPlane(), "auto", jars.java(), Optional.of(jars.dataplane()), dp.envoy(), dp.nginx());

        // Services callees first, each replica's sidecar right after it; the ingress gateways last.
        for (ComponentPlan c : plan.components()) {
            ProcessSpec spec = c.kind() == ComponentKind.SERVICE
                    ? nodeSpec(c, graphCopy, jars)
                    : launch.spec(plan, c, addresses, mesh, configDir, logDir);
            if (!cpuSets.prefix(c.role()).isEmpty()) {
                spec = new ProcessSpec(spec.component(), cpuSets.pin(c.role(), spec.command()), spec.readiness());
            }
            if (closed) {
                throw new TargetException("cell " + plan.id() + " was closed while starting " + c.name());
            }
            System.out.printf("[%s] starting %s%n", plan.id(), c.name());
            ready.put(c.name(), supervisor.start(spec, readyTimeout));
            components.add(spec.component());
        }
        awaitReady(readyTimeout);
    }

    private ProcessSpec nodeSpec(ComponentPlan c, Path graphFile, ComponentJars jars) {
        String service = serviceOf(c.name());
        List<String> cmd = new ArrayList<>(jars.javaJar(jars.acmeairServices(), NODE_JVM));
        cmd.addAll(List.of("graph-node", "--graph", graphFile.toString(), "--service", service,
                "--port", Integer.toString(addresses.port(c.name(), ListenerNames.HTTP))));
        c.calls().forEach((callee, to) -> cmd.addAll(List.of("--call",
                callee + "=" + to.stream().map(e -> "http://" + addresses.address(e)).collect(Collectors.joining(",")))));
        cmd.add("--exit-on-stdin-eof");
        return new ProcessSpec(new Component(c.name(), c.role()), cmd);
    }

    /** {@code go-sample} of replica {@code go-sample-3}. */
    static String serviceOf(String replica) {
        int dash = replica.lastIndexOf('-');
        return replica.substring(0, dash);
    }

    /** Every client target answers {@code /health/ready} with 200 through the whole path (ingress, sidecars). */
    private void awaitReady(Duration timeout) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).version(HttpClient.Version.HTTP_1_1).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        for (URI target : targets()) {
            URI uri = target.resolve("/health/ready");
            String last = "no answer yet";
            while (true) {
                failure().ifPresent(f -> {
                    throw new TargetException("cell " + plan.id() + ": " + f);
                });
                try {
                    HttpResponse<Void> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                            HttpResponse.BodyHandlers.discarding());
                    if (r.statusCode() == 200) {
                        break;
                    }
                    last = "answered " + r.statusCode();
                } catch (IOException e) {
                    last = e.toString();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TargetException("interrupted while waiting for cell " + plan.id());
                }
                if (System.nanoTime() > deadline) {
                    throw new TargetException("cell " + plan.id() + ": " + uri + " not ready after " + timeout.toSeconds() + " s: " + last);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TargetException("interrupted while waiting for cell " + plan.id());
                }
            }
        }
    }

    public TopologyPlan plan() {
        return plan;
    }

    /** Where the load generator sends, one URI per replica of the first hop ({@link LatencyPlanner#clientTargets}). */
    @Override
    public List<URI> targets() {
        return LatencyPlanner.clientTargets(plan, graph).stream().map(e -> URI.create("http://" + addresses.address(e) + "/")).toList();
    }

    /** Every running component's cumulative CPU and memory now. */
    @Override
    public List<ResourceSample> sampleResources() {
        return LocalDeployment.sample(supervisor);
    }

    /** The planned data plane, with the TLS provider the Netty relays chose (as {@link LocalDeployment#dataPlane}). */
    @Override
    public DataPlaneInfo dataPlane(DataPlaneInfo planned) {
        return LocalDeployment.withTlsProvider(plan, ready, planned);
    }

    public List<Component> components() {
        return List.copyOf(components);
    }

    /** Set once a component has died on its own: which one, and how. */
    @Override
    public Optional<String> failure() {
        return supervisor.deadComponent();
    }

    /** The loopback port of every listener. */
    public LocalAddresses addresses() {
        return addresses;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        System.out.printf("[%s] tearing down %d components%n", plan.id(), supervisor.processes().size());
        supervisor.close();
        LocalDeployment.deleteTree(workDir);
    }

    /** Endpoints of a service's replicas, for tests. */
    List<Endpoint> replicasOf(String service) {
        return plan.ofKind(ComponentKind.SERVICE).stream().filter(c -> serviceOf(c.name()).equals(service))
                .map(c -> new Endpoint(c.name(), ListenerNames.HTTP)).toList();
    }
}
