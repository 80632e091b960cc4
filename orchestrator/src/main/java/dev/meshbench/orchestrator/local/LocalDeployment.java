package dev.meshbench.orchestrator.local;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.orchestrator.cases.EgressCase;
import dev.meshbench.orchestrator.target.Component;
import dev.meshbench.orchestrator.target.Deployment;
import dev.meshbench.orchestrator.target.Endpoints;
import dev.meshbench.orchestrator.target.ResourceSample;
import dev.meshbench.orchestrator.target.Role;
import dev.meshbench.orchestrator.target.TargetException;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import dev.meshbench.pki.IssuedCertificate;
import dev.meshbench.pki.KeyType;
import dev.meshbench.pki.Pem;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One case running as processes on loopback. Start order resolves the dependencies of ephemeral ports:
 * MongoDB, then the egress chain backwards from MongoDB (SNI proxy, gateway), then the sidecars of services that
 * call nobody before those that call them, then the services on ports reserved up front (a sidecar must know its
 * service's port before the service knows its sidecar's).
 */
public final class LocalDeployment implements Deployment {
    /** The name services use for MongoDB: a name (not an IP literal), so the driver sends SNI. */
    public static final String MONGO_HOST = "mongo.meshbench.test";
    /** The wildcard the SNI proxy serves in case {@code sni}, as the study's {@code *.com}. */
    public static final String MONGO_WILDCARD = "*.meshbench.test";
    /** The egress gateway's workload identity, as Istio's. */
    static final String GATEWAY_NAMESPACE = "istio-system";
    static final String GATEWAY_ACCOUNT = "istio-egressgateway";
    static final String GATEWAY_ID = "spiffe://cluster.local/ns/" + GATEWAY_NAMESPACE + "/sa/" + GATEWAY_ACCOUNT;
    /** Services in start order: callees before callers. */
    public static final List<String> SERVICES = List.of("customer", "flight", "auth", "booking");

    private static final Logger LOG = LoggerFactory.getLogger(LocalDeployment.class);
    private static final List<String> PROXY_JVM = List.of("-Xms32m", "-Xmx192m", "-XX:+UseSerialGC", "-Xss512k");
    private static final List<String> APP_JVM = List.of("-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-Xss512k");
    private static final List<String> MONGO_JVM = List.of("-Xms64m", "-Xmx1g", "-XX:+UseSerialGC");

    private final EgressCase egressCase;
    private final LocalTargetConfig config;
    private final ProcessSupervisor supervisor;
    private final List<Component> components = new ArrayList<>();
    private final Map<String, ReadyLine> ready = new LinkedHashMap<>();
    private final Map<String, URI> serviceEndpoints = new LinkedHashMap<>();
    private final Map<String, URI> adminEndpoints = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Path workDir;
    private ComponentJars jars;
    private volatile boolean closed;

    private final Path logDir;

    private LocalDeployment(EgressCase egressCase, LocalTargetConfig config, Path logDir) {
        this.logDir = logDir;
        this.egressCase = egressCase;
        this.config = config;
        try {
            this.workDir = Files.createTempDirectory("meshbench-" + egressCase.id() + "-");
        } catch (IOException e) {
            throw new TargetException("creating a private work folder for case " + egressCase.id() + " failed: " + e.getMessage(), e);
        }
        this.supervisor = new ProcessSupervisor(logDir, Duration.ofSeconds(5));
    }

    static LocalDeployment start(EgressCase egressCase, LocalTargetConfig config, Path logDir) {
        LocalDeployment d = new LocalDeployment(egressCase, config, logDir);
        try {
            d.startAll();
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    private void startAll() {
        Path pki = workDir.resolve("pki");
        jars = config.jars().copyTo(workDir.resolve("jars"));

        // Per-run identities: the mesh CA issues workload certificates; the JWT key signs login tokens.
        CertificateAuthority meshCa = CertificateAuthority.create("meshbench mesh CA " + egressCase.id());
        Path meshCaPem = meshCa.writeCertificatePem(pki.resolve("mesh-ca.pem"));
        KeyPair jwt = KeyType.RSA_2048.generate();
        Path jwtPrivate = pki.resolve("jwt-private.pem");
        Path jwtPublic = pki.resolve("jwt-public.pem");
        Pem.writePrivateKey(jwtPrivate, jwt.getPrivate());
        Pem.writePublicKey(jwtPublic, jwt.getPublic());

        ReadyLine mongo = start("mongo", Role.DATABASE, jars.javaJar(jars.embeddedMongo(), MONGO_JVM),
                "--host", "127.0.0.1", "--port", "0", "--dir", workDir.resolve("mongo").toString(),
                "--server-name", MONGO_HOST);
        String mongoAddress = mongo.get("address").orElseThrow();
        String mongoCa = mongo.get("ca").orElseThrow(() -> new TargetException("mongo's ready line has no ca= field: " + mongo));

        // Where a sidecar's MongoDB listener sends the app's stream, and whether it wraps it in mTLS.
        String sidecarMongoUpstream = switch (egressCase) {
            case BYPASS, SIDECAR -> mongoAddress;
            case GATEWAY -> listener(startDataplane("egress-gateway", "egress-gateway",
                    "--mode", "sni-passthrough", "--route", MONGO_HOST + "=" + mongoAddress + ",upstream-name=mongo"), "egress");
            case MTLS -> listener(startDataplane("egress-gateway", "egress-gateway",
                    withIdentity(meshCa, meshCaPem, pki, "egress-gateway", GATEWAY_NAMESPACE, GATEWAY_ACCOUNT,
                            "--mode", "mtls", "--route", MONGO_HOST + "=" + mongoAddress + ",upstream-name=mongo")), "egress");
            case SNI -> {
                String sniProxy = listener(startDataplane("sni-proxy", "sni-proxy",
                        "--route", MONGO_WILDCARD + "=" + mongoAddress + ",upstream-name=mongo"), "sni");
                yield listener(startDataplane("egress-gateway", "egress-gateway",
                        withIdentity(meshCa, meshCaPem, pki, "egress-gateway", GATEWAY_NAMESPACE, GATEWAY_ACCOUNT,
                                "--mode", "mtls", "--route", MONGO_WILDCARD + "=" + sniProxy + ",upstream-name=sni-proxy")), "egress");
            }
        };

        Map<String, Integer> appPorts = PortReservations.reserve(SERVICES);
        Map<String, String> sidecarInbound = new LinkedHashMap<>();
        Map<String, ReadyLine> sidecars = new LinkedHashMap<>();
        for (String svc : SERVICES) {
            List<String> args = new ArrayList<>(List.of(
                    "--listener", "name=inbound,port=0,upstream=127.0.0.1:" + appPorts.get(svc) + ",upstream-name=" + svc));
            for (String peer : peersOf(svc)) {
                args.addAll(List.of("--listener", "name=to-" + peer + ",port=0,upstream=" + sidecarInbound.get(peer)
                        + ",upstream-name=sidecar-" + peer));
            }
            if (egressCase.meshMtls()) {
                args.addAll(List.of("--listener", "name=mongo,port=0,upstream=" + sidecarMongoUpstream
                        + ",upstream-name=egress-gateway,tls=mtls-originate,sni=" + MONGO_HOST + ",peer-id=" + GATEWAY_ID));
                args = withIdentity(meshCa, meshCaPem, pki, "sidecar-" + svc, "acmeair", svc, args.toArray(String[]::new));
            } else if (egressCase != EgressCase.BYPASS) {
                args.addAll(List.of("--listener", "name=mongo,port=0,upstream=" + sidecarMongoUpstream
                        + ",upstream-name=" + (egressCase == EgressCase.GATEWAY ? "egress-gateway" : "mongo")));
            }
            ReadyLine line = startDataplane("sidecar", "sidecar-" + svc, args.toArray(String[]::new));
            sidecars.put(svc, line);
            sidecarInbound.put(svc, listener(line, "inbound"));
        }

        List<ProcessSpec> services = new ArrayList<>();
        for (String svc : SERVICES) {
            ReadyLine sidecar = sidecars.get(svc);
            String mongoPort = (egressCase == EgressCase.BYPASS ? mongoAddress : listener(sidecar, "mongo")).split(":")[1];
            List<String> args = new ArrayList<>(List.of(svc, "--port", Integer.toString(appPorts.get(svc)),
                    "--mongo-uri", "mongodb://" + MONGO_HOST + ":" + mongoPort + "/?tls=true",
                    "--mongo-ca-file", mongoCa,
                    "--mongo-host-alias", MONGO_HOST + "=127.0.0.1"));
            for (String peer : peersOf(svc)) {
                args.addAll(List.of("--" + peer + "-url", "http://" + listener(sidecar, "to-" + peer)));
            }
            args.addAll(svc.equals("auth") ? List.of("--jwt-private-key", jwtPrivate.toString())
                    : List.of("--jwt-public-key", jwtPublic.toString()));
            List<String> cmd = new ArrayList<>(jars.javaJar(jars.acmeairServices(), APP_JVM));
            cmd.addAll(args);
            cmd.add("--exit-on-stdin-eof");
            services.add(new ProcessSpec(new Component(svc, Role.APP), cmd));
            serviceEndpoints.put(svc, URI.create("http://" + sidecarInbound.get(svc)));
        }
        // The services are independent once their ports are reserved: start them together.
        System.out.printf("[%s] starting %s%n", egressCase.id(), String.join(", ", SERVICES));
        Map<String, ReadyLine> started = supervisor.startAll(services, config.readyTimeout());
        for (ProcessSpec spec : services) {
            components.add(spec.component());
            ready.put(spec.component().name(), started.get(spec.component().name()));
        }
        LOG.debug("case {} deployed: {} components", egressCase.id(), components.size());
    }

    /** Which services a service calls (REFERENCE section 3). */
    static List<String> peersOf(String service) {
        return switch (service) {
            case "auth" -> List.of("customer");
            case "booking" -> List.of("flight", "customer");
            default -> List.of();
        };
    }

    private List<String> withIdentity(CertificateAuthority ca, Path caPem, Path pki, String component, String namespace,
            String serviceAccount, String... args) {
        IssuedCertificate cert = ca.issue(CertificateSpec.workload("cluster.local", namespace, serviceAccount));
        IssuedCertificate.PemFiles files = cert.writePem(pki, component);
        List<String> out = new ArrayList<>(List.of(args));
        out.addAll(List.of("--ca-file", caPem.toString(), "--cert-file", files.certificateChain().toString(),
                "--key-file", files.privateKey().toString()));
        return out;
    }

    private ReadyLine startDataplane(String kind, String name, List<String> args) {
        return startDataplane(kind, name, args.toArray(String[]::new));
    }

    private ReadyLine startDataplane(String kind, String name, String... args) {
        List<String> all = new ArrayList<>(List.of(kind, "--name", name, "--admin-port", "0"));
        all.addAll(List.of(args));
        ReadyLine line = start(name, Role.MESH, jars.javaJar(jars.dataplane(), PROXY_JVM), all.toArray(String[]::new));
        adminEndpoints.put(name, URI.create("http://" + line.get("address").orElseThrow()));
        return line;
    }

    private ReadyLine start(String name, Role role, List<String> prefix, String... args) {
        if (closed) {
            throw new TargetException("deployment of case " + egressCase.id() + " was closed while starting " + name);
        }
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(args));
        cmd.add("--exit-on-stdin-eof");
        Component c = new Component(name, role);
        System.out.printf("[%s] starting %s%n", egressCase.id(), name);
        ReadyLine line = supervisor.start(new ProcessSpec(c, cmd), config.readyTimeout());
        components.add(c);
        ready.put(name, line);
        return line;
    }

    private static String listener(ReadyLine line, String listener) {
        return line.get("listener." + listener).orElseThrow(() -> new TargetException(
                line.component() + " reported no listener '" + listener + "' in its ready line: " + line));
    }

    @Override
    public EgressCase egressCase() {
        return egressCase;
    }

    /** Waits until every service's readiness check (through its sidecar) passes, then loads the database. */
    @Override
    public void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String svc : SERVICES) {
            String path = ready.get(svc).get("ready").orElse("/" + svc + "/health/ready");
            URI uri = serviceEndpoints.get(svc).resolve(path);
            String last = "no answer";
            while (true) {
                failure().ifPresent(f -> {
                    throw new TargetException("case " + egressCase.id() + " is not ready: " + f);
                });
                try {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200) {
                        break;
                    }
                    last = r.statusCode() + " " + r.body();
                } catch (IOException e) {
                    last = e.toString();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TargetException("waiting for " + svc + " interrupted");
                }
                if (System.nanoTime() > deadline) {
                    throw new TargetException(svc + " not ready after " + timeout.toSeconds() + " s at " + uri + ": " + last);
                }
                sleep(200);
            }
        }
        load("customer", "/customer/loader/load?numCustomers=" + config.customers());
        load("flight", "/flight/loader/load?numDays=" + config.flightDays());
    }

    private void load(String svc, String path) {
        URI uri = serviceEndpoints.get(svc).resolve(path);
        System.out.printf("[%s] loading database: GET %s%n", egressCase.id(), path);
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new TargetException("loading the database failed: GET " + uri + " answered " + r.statusCode() + ": " + r.body());
            }
        } catch (IOException e) {
            throw new TargetException("loading the database failed: GET " + uri + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetException("loading the database interrupted");
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetException("interrupted");
        }
    }

    @Override
    public Endpoints endpoints() {
        return new Endpoints(serviceEndpoints);
    }

    /** Admin endpoints ({@code /stats}, {@code /ready}) of the mesh components, by component name. */
    public Map<String, URI> adminEndpoints() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(adminEndpoints));
    }

    /** The JSON of a mesh component's {@code /stats}: per-listener connection and byte counters. */
    public String stats(String component) {
        URI admin = adminEndpoints.get(component);
        if (admin == null) {
            throw new TargetException("no mesh component " + component + " in case " + egressCase.id() + "; have " + adminEndpoints.keySet());
        }
        try {
            return http.send(HttpRequest.newBuilder(admin.resolve("/stats")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new TargetException("reading stats of " + component + " at " + admin + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetException("reading stats interrupted");
        }
    }

    @Override
    public Map<String, String> hopStats() {
        Map<String, String> out = new java.util.TreeMap<>();
        for (String name : adminEndpoints.keySet()) {
            try {
                out.put(name, stats(name));
            } catch (TargetException e) {
                LOG.warn("{}", e.getMessage());
            }
        }
        return out;
    }

    /** Ready lines by component, as printed. */
    public Map<String, ReadyLine> readyLines() {
        return Map.copyOf(ready);
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
        long now = System.currentTimeMillis();
        List<ResourceSample> out = new ArrayList<>();
        for (ManagedProcess p : supervisor.processes()) {
            if (!p.isAlive()) {
                continue;
            }
            long cpu = ProcessResources.cpuMillis(p.handle());
            if (cpu >= 0) {
                out.add(new ResourceSample(now, p.component(), p.pid(), cpu, ProcessResources.rssBytes(p.pid())));
            }
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
        System.out.printf("[%s] tearing down %d components%n", egressCase.id(), supervisor.processes().size());
        supervisor.close();
        deleteTree(workDir);
    }

    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.warn("could not delete {}: {}", p, e.toString());
                }
            });
        } catch (IOException e) {
            LOG.warn("could not delete work folder {}: {}", dir, e.toString());
        }
    }
}
