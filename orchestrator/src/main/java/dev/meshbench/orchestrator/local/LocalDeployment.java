package dev.meshbench.orchestrator.local;

import dev.meshbench.component.MeshNames;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.ListenerNames;
import dev.meshbench.model.Service;
import dev.meshbench.orchestrator.local.envoynginx.EnvoyBootstrapRenderer;
import dev.meshbench.orchestrator.local.envoynginx.EnvoyCommand;
import dev.meshbench.orchestrator.local.envoynginx.EnvoyStatsReader;
import dev.meshbench.orchestrator.local.envoynginx.NginxCommand;
import dev.meshbench.orchestrator.local.envoynginx.NginxConfigRenderer;
import dev.meshbench.orchestrator.local.envoynginx.NginxStatsReader;
import dev.meshbench.orchestrator.latency.GraphShape;
import dev.meshbench.orchestrator.latency.LatencyPlanner;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.orchestrator.plan.TopologyPlanner;
import dev.meshbench.orchestrator.deploy.AcmeairData;
import dev.meshbench.orchestrator.deploy.AdminEndpoints;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.orchestrator.deploy.Endpoints;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.KeyType;
import dev.meshbench.pki.Pem;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.WorkloadInfo;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local target's one deployment model: a mesh running as processes on loopback with one {@link TopologyPlan}
 * applied, and, given the other plans it may be switched to, switchable to each of them while it runs. The
 * application is either the egress study's (MongoDB and the four Acmeair services; cases switched by
 * {@link #apply(EgressCase)}) or the latency study's graph nodes (cells switched by {@link #applyCell}). Every
 * listener's port of every reachable plan is reserved up front, and every workload certificate issued, so each
 * component's configuration (Netty command line, Envoy's listeners and clusters, nginx.conf) names its upstreams
 * before anything starts and keeps its ports across switches. Start order is the plan's: MongoDB, the egress chain
 * backwards from MongoDB, the sidecars (callees first), then the services.
 */
public final class LocalDeployment implements Deployment, dev.meshbench.orchestrator.deploy.LatencyDeployment {
    private static final Logger LOG = LoggerFactory.getLogger(LocalDeployment.class);
    /** JVM options of the services (the heaps are recorded in {@code run.json}). */
    public static final List<String> APP_JVM = List.of("-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-Xss512k");
    /** JVM options of MongoDB (mongo-java-server). */
    public static final List<String> MONGO_JVM = List.of("-Xms64m", "-Xmx1g", "-XX:+UseSerialGC");

    /** The case applied now; null in a deployment of the latency study's graph. */
    private volatile EgressCase egressCase;
    /** The plan of every case or cell this deployment may be switched to, the first one's included, by id. */
    private final Map<String, TopologyPlan> plans = new LinkedHashMap<>();
    /** The latency study's service graph the services run, or null: the Acmeair services. */
    private final GraphNodes graph;
    private final LocalTargetSettings config;
    private final ProcessSupervisor supervisor;
    private final List<Component> components = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, ReadyLine> ready = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
    private final Map<String, URI> serviceEndpoints = new LinkedHashMap<>();
    private final Map<String, URI> serviceAdmin = new LinkedHashMap<>();
    private Optional<URI> entry = Optional.empty();
    private final Map<String, URI> adminEndpoints = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
    private static final com.fasterxml.jackson.databind.ObjectMapper HOP_JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Path workDir;
    private final Path logDir;
    /** The plan applied now. */
    private volatile TopologyPlan plan;
    private LocalAddresses addresses;
    private MeshFiles mesh;
    private ComponentJars jars;
    private String mongoCa;
    /** How the cell applied last came onto this deployment ({@link #applyCell}). */
    private volatile Optional<String> appliedOver = Optional.empty();
    /** Switches so far: each one's configuration version is {@code <case>-<n>}. */
    private int switches;
    /**
     * True after a switch failed half way: which proxies and services took their part is not known, so the next switch
     * gives every one of them its part again.
     */
    private boolean unsure;
    private volatile boolean closed;

    /**
     * The latency study's graph nodes: every replica runs {@code acmeair-services.jar graph-node} with the graph's YAML.
     *
     * @param shape the graph
     * @param file  its YAML, given to every replica ({@code --graph})
     */
    public record GraphNodes(GraphShape shape, Path file) {
        public GraphNodes {
            java.util.Objects.requireNonNull(shape, "shape");
            java.util.Objects.requireNonNull(file, "file");
        }
    }

    /** JVM options of a graph service replica (recorded in the latency cells' settings). */
    public static final List<String> NODE_JVM = List.of("-Xms32m", "-Xmx128m", "-XX:+UseSerialGC", "-Xss512k");

    private LocalDeployment(EgressCase egressCase, List<TopologyPlan> reachable, GraphNodes graph, LocalTargetSettings config, Path logDir) {
        this.logDir = logDir;
        this.egressCase = egressCase;
        this.graph = graph;
        this.config = config;
        for (TopologyPlan p : reachable) {
            if (p.options().dataPlane() != config.dataPlane().dataPlane()) {
                throw new IllegalArgumentException("plan of " + p.id() + " is for data plane " + p.options().dataPlane().id()
                        + ", the target runs " + config.dataPlane().dataPlane().id());
            }
            plans.putIfAbsent(p.id(), p);
        }
        this.plan = reachable.get(0);
        String folder = egressCase != null ? egressCase.id() : "latency";
        try {
            this.workDir = dev.meshbench.orchestrator.lifetime.WorkFolders.create(folder);
        } catch (IOException e) {
            throw new TargetException("creating a private work folder for " + plan.id() + " failed: " + e.getMessage(), e);
        }
        // Each component in its own cgroup, meshbench/<pid>-<case>-<n>/<component>, where cgroups are writable.
        String name = workDir.getFileName().toString().substring(dev.meshbench.orchestrator.lifetime.WorkFolders.PREFIX.length());
        this.supervisor = new ProcessSupervisor(logDir, Duration.ofSeconds(5), workDir,
                config.cgroups().map(c -> c.forDeployment(name, config.cpuLimits())));
    }

    static LocalDeployment start(EgressCase egressCase, List<EgressCase> reachable, LocalTargetSettings config, Path logDir) {
        List<TopologyPlan> all = new ArrayList<>();
        all.add(TopologyPlanner.plan(egressCase, config.dataPlane().options()));
        reachable.stream().filter(c -> c != egressCase).distinct()
                .forEach(c -> all.add(TopologyPlanner.plan(c, config.dataPlane().options())));
        return started(new LocalDeployment(egressCase, all, null, config, logDir), false);
    }

    /**
     * Starts the latency study's {@code graph} with the first of {@code cells} applied, switchable to every other one
     * ({@link #applyCell}), and waits until every client target answers its readiness check through the whole path; on
     * any failure everything already started is stopped before the exception leaves.
     *
     * @param cells the plans of the cells this deployment may run ({@code LatencyPlanner}), all of {@code graph}
     */
    public static LocalDeployment startCells(List<TopologyPlan> cells, GraphNodes graph, LocalTargetSettings config, Path logDir) {
        if (cells.isEmpty()) {
            throw new IllegalArgumentException("no latency cell to deploy");
        }
        return started(new LocalDeployment(null, cells, graph, config, logDir), true);
    }

    private static LocalDeployment started(LocalDeployment d, boolean awaitGraph) {
        try {
            d.startAll();
            if (awaitGraph) {
                d.awaitGraphReady(d.config.readyTimeout());
            }
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    /** The plan this deployment runs. */
    public TopologyPlan plan() {
        return plan;
    }

    /** The run's mesh CA certificate (for tests that play a mesh peer, or one without a certificate). */
    Path meshCaPem() {
        return workDir.resolve("pki").resolve("mesh-ca.pem");
    }

    /** The loopback port of every listener. */
    public LocalAddresses addresses() {
        return addresses;
    }

    /** Where the rendered data-plane configuration files are kept (inside the run's folder; no key material). */
    public Path configDir() {
        return logDir.resolve("config");
    }

    private void startAll() {
        Path pki = workDir.resolve("pki");
        jars = config.jars().copyTo(workDir.resolve("jars"));
        List<TopologyPlan> all = List.copyOf(plans.values());
        addresses = LocalAddresses.reserve(all);

        // Per-run identities: the mesh CA issues workload certificates (for every component of every reachable plan that
        // speaks mesh mTLS in one of them, so a switch never waits for a certificate); the JWT key signs login tokens.
        CertificateAuthority meshCa = CertificateAuthority.create("meshbench mesh CA " + plan.id());
        mesh = MeshFiles.issue(all, meshCa, pki);
        try {
            Files.createDirectories(configDir());
        } catch (IOException e) {
            throw new TargetException("creating " + configDir() + " failed: " + e.getMessage(), e);
        }
        if (graph != null) {
            startGraph();
            return;
        }
        KeyPair jwt = KeyType.RSA_2048.generate();
        Path jwtPrivate = pki.resolve("jwt-private.pem");
        Path jwtPublic = pki.resolve("jwt-public.pem");
        Pem.writePrivateKey(jwtPrivate, jwt.getPrivate());
        Pem.writePublicKey(jwtPublic, jwt.getPublic());

        ComponentPlan mongoPlan = plan.component(ComponentNames.MONGO);
        ReadyLine mongo = start(new ProcessSpec(new Component(mongoPlan.name(), mongoPlan.role()),
                javaCommand(jars.embeddedMongo(), MONGO_JVM, "--host", LocalAddresses.HOST,
                        "--port", Integer.toString(addresses.port(mongoPlan.name(), ListenerNames.MONGO)),
                        "--dir", workDir.resolve("mongo").toString(), "--server-name", MeshNames.MONGO_HOST)));
        mongoCa = mongo.get("ca").orElseThrow(() -> new TargetException("mongo's ready line has no ca= field: " + mongo));

        for (ComponentPlan c : plan.components()) {
            if (c.kind().isProxy()) {
                startProxy(c, version());
            }
        }

        List<ProcessSpec> services = new ArrayList<>();
        // With an ingress, every service is reached through it (the whole mesh path); else at its sidecar.
        Optional<URI> entry = plan.ofKind(ComponentKind.INGRESS_GATEWAY).stream().findFirst()
                .map(in -> URI.create("http://" + addresses.address(new Endpoint(in.name(), ListenerNames.INGRESS))));
        this.entry = entry;
        for (ComponentPlan svc : plan.ofKind(ComponentKind.SERVICE)) {
            Endpoint mongoVia = svc.call(ComponentNames.MONGO);
            List<String> args = new ArrayList<>(List.of(svc.name(), "--port", Integer.toString(addresses.port(svc.name(), ListenerNames.HTTP)),
                    "--mongo-uri", mongoUri(mongoVia),
                    "--mongo-ca-file", mongoCa,
                    "--mongo-host-alias", MeshNames.MONGO_HOST + "=" + LocalAddresses.HOST));
            if (switchable()) {
                args.add(ALLOW_MONGO_SWITCH);
            }
            for (Service peer : Service.byId(svc.name()).calls()) {
                args.addAll(List.of("--" + peer.id() + "-url", "http://" + addresses.address(svc.call(peer.id()))));
            }
            args.addAll(svc.name().equals("auth") ? List.of("--jwt-private-key", jwtPrivate.toString())
                    : List.of("--jwt-public-key", jwtPublic.toString()));
            args.addAll(List.of("--flight-cache", Boolean.toString(config.workload().flightCache()),
                    "--rewards-async", Boolean.toString(config.workload().rewardsAsync())));
            Integer addedMs = config.workload().addedLatencyMs().get(svc.name());
            if (addedMs != null) {
                args.addAll(List.of("--added-latency-ms", addedMs.toString()));
            }
            services.add(pinned(new ProcessSpec(new Component(svc.name(), svc.role()),
                    javaCommand(jars.acmeairServices(), APP_JVM, args.toArray(String[]::new)))));
            serviceAdmin.put(svc.name(), URI.create("http://" + addresses.address(new Endpoint(svc.name(), ListenerNames.HTTP))));
            serviceEndpoints.put(svc.name(), entry.orElseGet(() -> URI.create("http://" + addresses.address(
                    new Endpoint(ComponentNames.sidecarOf(svc.name()), ListenerNames.INBOUND)))));
        }
        // The services are independent once their ports are reserved: start them together.
        System.out.printf("[%s] starting %s%n", egressCase.id(), String.join(", ", serviceEndpoints.keySet()));
        Map<String, ReadyLine> started = supervisor.startAll(services, config.readyTimeout());
        for (ProcessSpec spec : services) {
            components.add(spec.component());
            ready.put(spec.component().name(), started.get(spec.component().name()));
        }
        LOG.debug("case {} deployed on data plane {}: {} components", egressCase.id(), config.dataPlane().dataPlane().id(), components.size());
    }

    /** The graph's proxies and replicas in the plan's order (callees first, each replica's sidecar after it, ingress last). */
    private void startGraph() {
        Path graphCopy = configDir().resolve("graph.yaml");
        try {
            Files.copy(graph.file(), graphCopy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new TargetException("copying graph " + graph.file() + " to " + graphCopy + " failed: " + e.getMessage(), e);
        }
        for (ComponentPlan c : plan.components()) {
            if (c.kind().isProxy()) {
                startProxy(c, version());
            } else {
                start(nodeSpec(c));
            }
        }
    }

    /** Replica {@code c} of a graph service: {@code acmeair-services.jar graph-node}, calling its callees as the plan says. */
    private ProcessSpec nodeSpec(ComponentPlan c) {
        if (c.kind() != ComponentKind.SERVICE) {
            throw new IllegalArgumentException(c.name() + " is a " + c.kind() + ", not a graph service");
        }
        List<String> args = new ArrayList<>(List.of("graph-node", "--graph", configDir().resolve("graph.yaml").toString(),
                "--service", serviceOf(c.name()), "--port", Integer.toString(addresses.port(c.name(), ListenerNames.HTTP))));
        c.calls().forEach((callee, to) -> args.addAll(List.of("--call", callee + "=" + to.stream()
                .map(e -> "http://" + addresses.address(e)).collect(java.util.stream.Collectors.joining(",")))));
        return new ProcessSpec(new Component(c.name(), c.role()), javaCommand(jars.acmeairServices(), NODE_JVM, args.toArray(String[]::new)));
    }

    /** {@code go-sample} of replica {@code go-sample-3}. */
    private static String serviceOf(String replica) {
        return replica.substring(0, replica.lastIndexOf('-'));
    }

    /** The services' option that lets the kit re-point a running service's MongoDB client (acmeair-services). */
    static final String ALLOW_MONGO_SWITCH = "--allow-mongo-switch";

    /** Whether this deployment may be switched to another case: then its services let the kit re-point MongoDB. */
    private boolean switchable() {
        return plans.size() > 1;
    }

    /** The connection string a service uses to reach MongoDB through {@code via} (MongoDB itself, or its sidecar). */
    private String mongoUri(Endpoint via) {
        return "mongodb://" + MeshNames.MONGO_HOST + ":" + addresses.port(via) + "/?tls=true";
    }

    /** The configuration version of the plan applied now: {@code <case or cell>-<switches>}, as a proxy takes it. */
    private String version() {
        return ProxyLaunch.configVersion(plan.id() + "-" + switches);
    }

    /** How the proxies run as processes on this deployment's data plane. */
    private ProxyLaunch launch() {
        LocalDataPlane dp = config.dataPlane();
        return new ProxyLaunch(dp.dataPlane(), "auto", jars.java(), Optional.of(jars.dataplane()), dp.envoy(), dp.nginx());
    }

    /** Starts proxy {@code c} of the plan applied now with its configuration as {@code version}. */
    private void startProxy(ComponentPlan c, String version) {
        start(launch().spec(plan, c, addresses, mesh, configDir(), nginxDir(), version));
        adminEndpoints.put(c.name(), URI.create("http://" + LocalAddresses.HOST + ":" + addresses.adminPort(c.name())));
    }

    /** nginx's prefix: its pid file and session log, kept with the run's logs. */
    private Path nginxDir() {
        return logDir;
    }

    private List<String> javaCommand(Path jar, List<String> jvm, String... args) {
        List<String> cmd = new ArrayList<>(jars.javaJar(jar, jvm));
        cmd.addAll(List.of(args));
        cmd.add("--exit-on-stdin-eof");
        return cmd;
    }

    /** {@code spec} under its group's CPU set, if one is configured. */
    private ProcessSpec pinned(ProcessSpec spec) {
        return config.cpuSets().prefix(spec.component().role()).isEmpty() ? spec
                : new ProcessSpec(spec.component(), config.cpuSets().pin(spec.component().role(), spec.command()), spec.readiness());
    }

    private ReadyLine start(ProcessSpec unpinned) {
        ProcessSpec spec = pinned(unpinned);
        String name = spec.component().name();
        if (closed) {
            throw new TargetException("deployment of " + plan.id() + " was closed while starting " + name);
        }
        System.out.printf("[%s] starting %s%n", plan.id(), name);
        ReadyLine line = supervisor.start(spec, config.readyTimeout());
        components.add(spec.component());
        ready.put(name, line);
        return line;
    }

    @Override
    public EgressCase egressCase() {
        if (egressCase == null) {
            throw new IllegalStateException("a deployment of the latency study's graph runs cells, not cases: " + plan.id() + " now");
        }
        return egressCase;
    }

    /** How this deployment takes the mesh off the MongoDB path for bypass, and puts it back, in words for {@code run.json}. */
    public static final String BYPASS_SWITCH = "each service's MongoDB client re-pointed, in its running JVM, at MongoDB itself "
            + "(bypass: no process of the mesh on the path, as istio-init's excluded CIDR leaves it) or at its sidecar (every other "
            + "case), with a new connection pool; a JVM restart would throw its warm JIT away";

    /**
     * Switches the running application to case {@code next}, as Istio's control plane would: the proxies a case uses
     * and that do not run yet are started (the egress gateway, the SNI proxy), every running proxy whose part of the
     * plan changes gets its new configuration while it runs and must confirm it ({@link ProxyLaunch#reconfigure}: Envoy's
     * own {@code config_dump}, the Netty relays' {@code /config}), each service whose MongoDB path changes gets a new
     * MongoDB client ({@value #ALLOW_MONGO_SWITCH}: at MongoDB itself for bypass, else at its sidecar) so that no
     * connection of the previous case's path is left, and proxies the case does not use are stopped. Services, MongoDB and
     * their processes are never restarted.
     *
     * @throws TargetException naming the component that did not take its part (the case must not be measured then); what
     *                         was already changed stays, and the next switch starts from it
     */
    @Override
    public dev.meshbench.orchestrator.deploy.Switch apply(EgressCase next) {
        return apply(next, config.readyTimeout());
    }

    /** As {@link #apply(EgressCase)}, each component given {@code timeout} to confirm its part. */
    public synchronized dev.meshbench.orchestrator.deploy.Switch apply(EgressCase next, Duration timeout) {
        if (egressCase == null) {
            throw new IllegalStateException("a deployment of the latency study's graph runs cells, not case " + next.id());
        }
        EgressCase previous = egressCase;
        Changes ch = applyPlan(next.id(), timeout, !previous.mongoPath().equals(next.mongoPath()));
        egressCase = next;
        LOG.debug("switched from {} to {} in {} ms: {}", previous.id(), next.id(), ch.took().toMillis(), ch.done());
        return new dev.meshbench.orchestrator.deploy.Switch(previous, next, ch.took(), ch.done(), ch.cold());
    }

    /**
     * Switches a deployment of the latency study's graph to cell {@code cellId} (one of the plans it was started with,
     * {@link #startCells}) while it runs, and returns once the whole path serves again: replicas and proxies the cell
     * adds are started, running proxies whose part changes get their new configuration live (as in
     * {@link #apply(EgressCase)}), every replica whose callees' addresses change is restarted with its new
     * {@code --call} list (a pod whose template changed; on this target a caller names each callee replica, so a new
     * scale restarts the callers too), and what the cell does not use is stopped. Replicas and proxies the cell leaves
     * as they were keep running, warm.
     *
     * @return what changed, in words, in the order it was done
     * @throws TargetException naming the component that did not take its part: the cell must not be measured
     */
    public synchronized Changes applyCell(String cellId) {
        if (graph == null) {
            throw new IllegalStateException("a deployment of the egress study runs cases, not latency cell " + cellId);
        }
        String fromId = plan.id();
        appliedOver = Optional.empty();
        Changes ch = applyPlan(cellId, config.readyTimeout(), false);
        awaitGraphReady(config.readyTimeout());
        long kept = plan.components().stream().filter(c -> !ch.touched().contains(c.name())).count();
        appliedOver = Optional.of(String.format(Locale.ROOT, "applied to the deployment that ran cell %s, in %.1f s: %s; the other %d "
                + "component(s) ran on unchanged (warm)", fromId, ch.took().toMillis() / 1000.0,
                ch.done().isEmpty() ? "nothing changed" : String.join("; ", ch.done()), kept));
        return ch;
    }

    /** How the cell applied last came onto this deployment ({@link #applyCell}); empty for the cell it started with. */
    @Override
    public Optional<String> appliedOver() {
        return appliedOver;
    }

    /**
     * What one switch changed: in words, in the order it was done; the components it started, restarted, reconfigured
     * or stopped; those it (re)started as new JVMs; how long it took from the first change to the last confirmation.
     */
    public record Changes(List<String> done, java.util.Set<String> touched, List<String> cold, Duration took) {
        public Changes {
            done = List.copyOf(done);
            touched = java.util.Set.copyOf(touched);
            cold = List.copyOf(cold);
        }
    }

    /** Whether this deployment was prepared for the case or cell {@code id}, so it can be switched to it. */
    public boolean prepared(String id) {
        return plans.containsKey(id);
    }

    /** The plan this deployment was prepared for with id {@code id}, else an error naming the ones it has. */
    private TopologyPlan reachable(String id) {
        TopologyPlan to = plans.get(id);
        if (to == null) {
            throw new IllegalArgumentException(id + " was not among the " + (graph == null ? "cases" : "cells")
                    + " this deployment was prepared for: " + List.copyOf(plans.keySet()));
        }
        return to;
    }

    /**
     * Applies plan {@code id} to the running deployment, in the order that never leaves a caller without its callee:
     * (1) what the plan adds, callees first; (2) services leaving their sidecar for MongoDB itself (bypass) re-pointed;
     * (3) each running proxy whose part changed reconfigured live, or restarted where its data plane cannot change it
     * live; each graph replica whose calls changed restarted; (4) services onto their new MongoDB path; (5) what the
     * plan does not use stopped, callers first.
     *
     * @param mongoPathChanged whether the services' MongoDB path differs from the plan applied now (the egress study)
     */
    private Changes applyPlan(String id, Duration timeout, boolean mongoPathChanged) {
        if (closed) {
            throw new TargetException("the deployment was closed; " + id + " cannot be switched in");
        }
        TopologyPlan to = reachable(id);
        long started = System.nanoTime();
        TopologyPlan from = plan;
        List<String> done = new ArrayList<>();
        switches++;
        String version = ProxyLaunch.configVersion(id + "-" + switches);
        List<String> startedNow = new ArrayList<>();
        List<String> jvmsStarted = new ArrayList<>();
        // 1. What the plan adds, callees first (the plan's order): the egress chain; a graph's new replicas and sidecars.
        for (ComponentPlan c : to.components()) {
            if (!running(c.name())) {
                startIn(to, c, version, jvmsStarted);
                done.add("started " + c.name());
                startedNow.add(c.name());
            }
        }
        // 2. Services leaving their sidecar for MongoDB itself move first, so no listener they use disappears under them.
        boolean pathChanged = graph == null && (unsure || mongoPathChanged);
        boolean toMongoItself = pathChanged && to.ofKind(ComponentKind.SERVICE).stream()
                .allMatch(svc -> svc.call(ComponentNames.MONGO).component().equals(ComponentNames.MONGO));
        if (toMongoItself) {
            repointServices(to, done, timeout);
        }
        // 3. Every running proxy whose part of the plan changes: its new configuration, confirmed by the proxy itself.
        // The egress chain first (the plan's order): a sidecar's new upstream runs its new configuration before the
        // sidecar sends there. A proxy the data plane cannot change that way while it runs (nginx, which the kit does not
        // reload) is restarted instead, as Istio would roll a Deployment whose pod template changed; so is a graph replica
        // whose calls changed (its command line names them).
        boolean resync = unsure;
        unsure = true; // until this switch is through
        List<ComponentPlan> changed = to.components().stream().filter(c -> !startedNow.contains(c.name())
                && from.components().stream().anyMatch(f -> f.name().equals(c.name())) && (resync || !from.component(c.name()).equals(c))
                && (c.kind().isProxy() || graph != null)).toList();
        List<ComponentPlan> live = new ArrayList<>();
        for (ComponentPlan c : changed) {
            java.util.Optional<String> why = c.kind().isProxy() ? launch().restartNeeded(from.component(c.name()), c)
                    : Optional.of("its callees changed");
            if (why.isPresent()) {
                supervisor.stop(c.name());
                components.removeIf(k -> k.name().equals(c.name()));
                adminEndpoints.remove(c.name());
                ready.remove(c.name());
                startIn(to, c, version, jvmsStarted);
                done.add("restarted " + c.name() + " (" + why.get() + ")");
                startedNow.add(c.name());
            } else {
                live.add(c);
            }
        }
        parallel(live, c -> {
            launch().reconfigure(to, c, addresses, mesh, configDir(), version, http, adminEndpoints.get(c.name()), timeout);
            return c.name() + ": configuration " + version + " applied (" + launch().configurationMethod(c) + ")";
        }).forEach(done::add);
        // 4. Services onto the new path: a new MongoDB client each (at the sidecar, or the same address to drop connections
        //    the previous configuration accepted).
        if (pathChanged && !toMongoItself) {
            repointServices(to, done, timeout);
        }
        // 5. What the plan does not use any more, callers first.
        List<ComponentPlan> gone = new ArrayList<>(from.components().stream()
                .filter(c -> to.components().stream().noneMatch(t -> t.name().equals(c.name()))).toList());
        java.util.Collections.reverse(gone);
        for (ComponentPlan c : gone) {
            supervisor.stop(c.name());
            adminEndpoints.remove(c.name());
            components.removeIf(k -> k.name().equals(c.name()));
            ready.remove(c.name());
            done.add("stopped " + c.name());
        }
        plan = to;
        unsure = false;
        // A proxy started by this switch is a new JVM on the Netty data plane (its JIT starts over); Envoy and nginx are not.
        // A graph replica started or restarted is a new JVM on either.
        List<String> cold = new ArrayList<>(config.dataPlane().dataPlane() == DataPlane.NETTY
                ? startedNow.stream().filter(n -> !jvmsStarted.contains(n)).toList() : List.of());
        cold.addAll(jvmsStarted);
        java.util.Set<String> touched = new java.util.HashSet<>(startedNow);
        live.forEach(c -> touched.add(c.name()));
        gone.forEach(c -> touched.add(c.name()));
        return new Changes(done, touched, cold, Duration.ofNanos(System.nanoTime() - started));
    }

    /**
     * Starts component {@code c} of plan {@code to} with its configuration as {@code version}: a proxy, or a graph replica
     * (a new JVM, added to {@code jvms}).
     */
    private void startIn(TopologyPlan to, ComponentPlan c, String version, List<String> jvms) {
        withPlan(to, () -> {
            if (c.kind().isProxy()) {
                startProxy(c, version);
            } else {
                start(nodeSpec(c));
                jvms.add(c.name());
            }
        });
    }

    /** Whether component {@code name} runs now. */
    private boolean running(String name) {
        return components.stream().anyMatch(k -> k.name().equals(name));
    }

    /** Runs {@code work} with {@code to} as the plan applied (a new component's configuration is rendered from the plan it joins). */
    private void withPlan(TopologyPlan to, Runnable work) {
        TopologyPlan before = plan;
        plan = to;
        try {
            work.run();
        } finally {
            plan = before;
        }
    }

    /**
     * Gives every service a new MongoDB client at its endpoint in {@code to} and waits until each answers with it: the
     * old client's connections (through the previous case's path) are closed by the service after its grace period.
     */
    private void repointServices(TopologyPlan to, List<String> done, Duration timeout) {
        List<String> moved = parallel(to.ofKind(ComponentKind.SERVICE), svc -> {
            String uri = mongoUri(svc.call(ComponentNames.MONGO));
            URI admin = serviceAdmin.get(svc.name()).resolve(dev.meshbench.component.AcmeairApi.MONGO_SWITCH_PATH);
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(admin).timeout(timeout)
                        .PUT(HttpRequest.BodyPublishers.ofString(uri)).header("Content-Type", "text/plain").build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new TargetException("re-pointing " + svc.name() + "'s MongoDB client at " + uri + " failed: PUT " + admin
                            + " answered " + r.statusCode() + ": " + r.body().strip());
                }
                if (!r.body().contains(uri)) {
                    throw new TargetException("re-pointing " + svc.name() + "'s MongoDB client at " + uri + ": the service answered "
                            + r.body().strip() + ", which does not name it");
                }
            } catch (IOException e) {
                throw new TargetException("re-pointing " + svc.name() + "'s MongoDB client at " + uri + " failed: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("re-pointing " + svc.name() + "'s MongoDB client interrupted");
            }
            return svc.name();
        });
        boolean direct = to.ofKind(ComponentKind.SERVICE).stream()
                .allMatch(svc -> svc.call(ComponentNames.MONGO).component().equals(ComponentNames.MONGO));
        done.add("MongoDB clients of " + String.join(", ", moved) + " re-pointed at " + (direct ? "MongoDB itself" : "their sidecars"));
    }

    /**
     * {@code work} of every item at once (components are separate processes: nothing orders their changes), the answers in
     * the items' order; the first failure, after all finished, is thrown.
     */
    private static <T> List<String> parallel(List<T> items, java.util.function.Function<T, String> work) {
        if (items.isEmpty()) {
            return List.of();
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(items.size());
        try {
            List<java.util.concurrent.Future<String>> futures = items.stream().map(i -> pool.submit(() -> work.apply(i))).toList();
            List<String> out = new ArrayList<>();
            TargetException first = null;
            for (java.util.concurrent.Future<String> f : futures) {
                try {
                    out.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    if (first == null) {
                        first = e.getCause() instanceof TargetException te ? te : new TargetException(e.getCause().getMessage(), e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TargetException("switching interrupted");
                }
            }
            if (first != null) {
                throw first;
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Waits until every service's readiness check passes where the load goes (the entry, whose {@code GET /<svc>/ready}
     * is public on purpose, or each sidecar), then loads the database at each service's own port.
     */
    @Override
    public void awaitReady(Duration timeout) {
        if (graph != null) {
            awaitGraphReady(timeout);
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String svc : serviceEndpoints.keySet()) {
            String path = ready.get(svc).get("ready").orElse(Service.byId(svc).readyPath());
            URI uri = serviceEndpoints.get(svc).resolve(path);
            AcmeairData.awaitReady(http, svc, uri, deadline, timeout, 200,
                    () -> failure().map(f -> "case " + egressCase.id() + ": " + f));
        }
        AcmeairData.load(http, serviceAdmin(), config.customers(), config.flightDays(), config.workload(), egressCase.id(),
                System.out);
    }

    /** Every client target of the graph answers {@code /health/ready} with 200 through the whole path (ingress, sidecars). */
    private void awaitGraphReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpClient h1 = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).version(HttpClient.Version.HTTP_1_1).build();
        for (URI target : targets()) {
            AcmeairData.awaitReady(h1, "cell " + plan.id() + " at " + target, target.resolve("/health/ready"), deadline, timeout, 100,
                    () -> failure());
        }
    }

    /** Where the latency study's generator sends: one URI per replica of the graph's first hop ({@link LatencyPlanner#clientTargets}). */
    @Override
    public List<URI> targets() {
        if (graph == null) {
            throw new IllegalStateException("the egress study's load goes to endpoints(), not to a graph's client targets");
        }
        return LatencyPlanner.clientTargets(plan, graph.shape()).stream().map(e -> URI.create("http://" + addresses.address(e) + "/")).toList();
    }

    @Override
    public Endpoints endpoints() {
        return new Endpoints(serviceEndpoints, entry);
    }

    @Override
    public AdminEndpoints serviceAdmin() {
        return new AdminEndpoints(serviceAdmin).checkedAgainst(endpoints());
    }

    /** Admin endpoints of the mesh components running now, by component name (Netty: {@code /stats}; Envoy: its admin API). */
    public Map<String, URI> adminEndpoints() {
        synchronized (adminEndpoints) {
            return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(adminEndpoints));
        }
    }

    /** The mesh components running now. */
    private List<String> meshComponents() {
        synchronized (adminEndpoints) {
            return List.copyOf(adminEndpoints.keySet());
        }
    }

    /**
     * A mesh component's per-listener connection and byte counters as JSON, in one shape whatever the data plane
     * (the Netty relays' own {@code /stats}; Envoy's admin counters; nginx's session log).
     */
    public String stats(String component) {
        URI admin = adminEndpoints.get(component);
        if (admin == null) {
            throw new TargetException("no mesh component " + component + " in " + plan.id() + "; have " + meshComponents());
        }
        ComponentPlan c = plan.component(component);
        return switch (config.dataPlane().dataPlane()) {
            case NETTY -> get(admin.resolve("/stats"), component);
            case ENVOY -> c.kind() == ComponentKind.SNI_PROXY
                    ? NginxStatsReader.hopJson(c, addresses, NginxConfigRenderer.accessLog(nginxDir()), logDir.resolve(component + ".log"))
                    : EnvoyStatsReader.hopJson(c, addresses, get(admin.resolve("/stats"), component));
        };
    }

    private String get(URI uri, String component) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new TargetException("reading " + uri + " of " + component + " answered " + r.statusCode());
            }
            return r.body();
        } catch (IOException e) {
            throw new TargetException("reading stats of " + component + " at " + uri + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetException("reading stats interrupted");
        }
    }

    @Override
    public Map<String, Map<String, Double>> workCounters() {
        Map<String, Map<String, Double>> out = new java.util.TreeMap<>();
        // mesh component -> its listeners that receive a service's MongoDB connection
        Map<String, java.util.Set<String>> mongoListeners = new java.util.TreeMap<>();
        for (ComponentPlan svc : plan.ofKind(ComponentKind.SERVICE)) {
            Endpoint mongoVia = svc.call(ComponentNames.MONGO);
            if (mongoVia != null && !mongoVia.component().equals(ComponentNames.MONGO)) {
                mongoListeners.computeIfAbsent(mongoVia.component(), k -> new java.util.TreeSet<>()).add(mongoVia.listener());
            }
            try {
                String metrics = get(URI.create("http://" + LocalAddresses.HOST + ":" + addresses.port(svc.name(), ListenerNames.HTTP)
                        + "/metrics"), svc.name());
                out.put(svc.name(), dev.meshbench.orchestrator.deploy.ServiceCounters.of(metrics));
            } catch (TargetException e) {
                LOG.debug("work counters of {}: {}", svc.name(), e.getMessage());
            }
        }
        // every mesh component's bytes over all its listeners, and its MongoDB listener's, from one reading
        java.util.Set<String> mesh = new java.util.TreeSet<>(meshComponents());
        mesh.addAll(mongoListeners.keySet());
        for (String component : mesh) {
            try {
                Map<String, Double> bytes = HopCounters.of(HOP_JSON.readTree(stats(component)),
                        mongoListeners.getOrDefault(component, java.util.Set.of()));
                out.computeIfAbsent(component, k -> new java.util.TreeMap<>()).putAll(bytes);
            } catch (IOException | TargetException e) {
                LOG.debug("hop counters of {}: {}", component, e.getMessage());
            }
        }
        return out;
    }

    @Override
    public Map<String, String> hopStats() {
        Map<String, String> out = new java.util.TreeMap<>();
        for (String name : meshComponents()) {
            try {
                out.put(name, stats(name));
            } catch (TargetException e) {
                LOG.warn("{}", e.getMessage());
            }
        }
        return out;
    }

    /**
     * The planned data plane with the TLS provider the Netty relays chose at start (their ready lines'
     * {@code tls-provider=boringssl|jdk}): BoringSSL where netty-tcnative works on this platform, else the JDK's.
     * Envoy's is BoringSSL, known before start.
     */
    @Override
    public DataPlaneInfo dataPlane(DataPlaneInfo planned) {
        return withTlsProvider(plan, ready, planned);
    }

    /** {@code planned} with the TLS provider the Netty relays of {@code plan} printed in their ready lines. */
    private static DataPlaneInfo withTlsProvider(TopologyPlan plan, Map<String, ReadyLine> ready, DataPlaneInfo planned) {
        if (plan.options().dataPlane() != DataPlane.NETTY) {
            return planned;
        }
        TreeSet<String> providers = new TreeSet<>();
        for (ComponentPlan c : plan.components()) {
            ReadyLine line = ready.get(c.name());
            if (c.kind().isProxy() && line != null) {
                line.get("tls-provider").map(p -> "boringssl".equals(p) ? "BoringSSL" : p.toUpperCase(Locale.ROOT))
                        .ifPresent(providers::add);
            }
        }
        return providers.isEmpty() ? planned : new DataPlaneInfo(planned.name(), planned.versions(), planned.workers(),
                planned.sidecarMtls(), planned.ingress(), String.join("+", providers));
    }

    /** Ready lines by component, as printed. */
    public Map<String, ReadyLine> readyLines() {
        synchronized (ready) {
            return Map.copyOf(ready);
        }
    }

    /** Stops one component, as a fault would (tests). */
    public void kill(String component) {
        supervisor.stop(component);
    }

    /** Where each component's log is. */
    public Path logDir() {
        return logDir;
    }

    @Override
    public List<Component> components() {
        return List.copyOf(components);
    }

    @Override
    public List<ResourceSample> sampleResources() {
        return sample(supervisor);
    }

    @Override
    public Map<String, Double> jitMillis() {
        Map<String, Double> out = new java.util.TreeMap<>();
        for (ManagedProcess p : supervisor.processes()) {
            if (p.isAlive()) {
                HotSpotCounters.jitMillis(p.pid()).ifPresent(ms -> out.merge(p.component().name(), ms, Double::sum));
            }
        }
        return out;
    }

    /**
     * Cumulative CPU and memory of every live component a supervisor runs, now:
     * CPU from the component's cgroup when it has one ({@link ProcessSupervisor#cpuMethod()}), else of its live process
     * tree; memory always of the live process tree.
     */
    static List<ResourceSample> sample(ProcessSupervisor supervisor) {
        long now = System.currentTimeMillis();
        List<ResourceSample> out = new ArrayList<>();
        ProcessResources.Tree tree = ProcessResources.Tree.now();
        boolean cgroups = supervisor.cpuMethod() != CpuMethod.PROC_SAMPLED;
        for (ManagedProcess p : supervisor.processes()) {
            if (!p.isAlive()) {
                continue;
            }
            Optional<ProcessResources.Usage> u = tree.usage(p.handle());
            OptionalLong group = supervisor.cgroupCpuNanos(p.component().name());
            if (u.isEmpty() || cgroups && group.isEmpty()) {
                LOG.debug("no reading of {} (pid {}) now", p.component().name(), p.pid()); // it is ending
                continue;
            }
            long cpuMillis = cgroups ? group.getAsLong() / 1_000_000 : u.get().cpuMillis();
            out.add(new ResourceSample(now, p.component(), p.pid(), cpuMillis, u.get().rssBytes()));
        }
        return out;
    }

    @Override
    public Optional<String> failure() {
        return supervisor.deadComponent();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        System.out.printf("[%s] tearing down %d components%n", plan.id(), supervisor.processes().size());
        supervisor.close();
        deleteTree(workDir);
    }

    /** Deletes a work folder and everything in it, key files first, best effort; null or absent: nothing. */
    public static void deleteTree(Path dir) {
        dev.meshbench.orchestrator.lifetime.WorkFolders.delete(dir);
    }
}
