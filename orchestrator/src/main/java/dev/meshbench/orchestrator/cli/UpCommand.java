package dev.meshbench.orchestrator.cli;

import dev.meshbench.component.MeshNames;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.local.ComponentJars;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalDeployment;
import dev.meshbench.orchestrator.local.LocalTarget;
import dev.meshbench.orchestrator.local.LocalTargetSettings;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.run.RunSettings;
import java.nio.file.Path;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Brings one case up and keeps it up until Ctrl-C, for people to poke at: on the local target, or with
 * {@code -Dmeshbench.target=kubernetes} on a cluster (the run's cluster settings, given as {@code -D}).
 */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = "Start one egress case on the local target (or a cluster: -Dmeshbench.target=kubernetes and the run's "
                + "cluster settings), print its endpoints, and keep it up until Ctrl-C.")
final class UpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--case", required = true, completionCandidates = CaseIdCandidates.class,
            description = "Case id: ${COMPLETION-CANDIDATES}.")
    String caseId;

    @Option(names = "--project-root", defaultValue = ".", description = "Checkout whose module target/ folders hold the component jars (default: ${DEFAULT-VALUE}).")
    Path projectRoot;

    @Option(names = "--log-dir", description = "Where component logs go (default: target/meshbench-up/<case>).")
    Path logDir;

    // The defaults are the settings catalogue's (meshbench.customers, .flightDays, .dataplane, .sidecarMtls, .ingress,
    // .proxyWorkers), as a Maven run's: picocli shows a field's initial value as ${DEFAULT-VALUE}.
    @Option(names = "--customers", description = "Customers to load (default: ${DEFAULT-VALUE}).")
    int customers = Catalogue.CUSTOMERS.defaultParsed();

    @Option(names = "--flight-days", description = "Days of flights to load (default: ${DEFAULT-VALUE}).")
    int flightDays = Catalogue.FLIGHT_DAYS.defaultParsed();

    @Option(names = "--dataplane", description = "netty (the kit's stand-ins) or envoy (Envoy sidecars and gateway, nginx SNI proxy) "
            + "(default: ${DEFAULT-VALUE}).")
    String dataPlane = Catalogue.DATAPLANE.defaultValue().orElseThrow();

    @Option(names = "--sidecar-mtls", arity = "1", description = "Mutual TLS between sidecars, true or false (default: ${DEFAULT-VALUE}).")
    String sidecarMtls = Catalogue.SIDECAR_MTLS.defaultValue().orElseThrow();

    @Option(names = "--ingress", arity = "1", description = "One entry, an ingress gateway routing /auth, /customer, /flight and "
            + "/booking to the services' sidecars, true or false (default: ${DEFAULT-VALUE}).")
    String ingress = Catalogue.INGRESS.defaultValue().orElseThrow();

    @Option(names = "--proxy-workers", description = "Worker threads of every proxy (default: ${DEFAULT-VALUE}, Istio's sidecar default).")
    int proxyWorkers = Catalogue.PROXY_WORKERS.defaultParsed();

    @Option(names = "--envoy-binary", description = "Envoy binary (default: envoy on PATH).")
    String envoyBinary;

    @Option(names = "--nginx-binary", description = "nginx binary with the stream module (default: nginx on PATH).")
    String nginxBinary;

    @Option(names = "-D", paramLabel = "meshbench.<name>=<value>", mapFallbackValue = "",
            description = "A run's setting (repeatable): -Dmeshbench.target=kubernetes brings the case up on a cluster, with "
                    + "the cluster settings of docs/settings.md (kubeconfig, images, MongoDB, ...).")
    Map<String, String> settings = new LinkedHashMap<>();

    @Override
    public Integer call() throws InterruptedException {
        EgressCase c = EgressCase.byId(caseId);
        if ("kubernetes".equals(settings.get(Catalogue.TARGET.name()))) {
            return upOnCluster(c);
        }
        Path logs = (logDir != null ? logDir : projectRoot.resolve("target/meshbench-up/" + c.id())).toAbsolutePath().normalize();
        PlanOptions options;
        try {
            // the settings' rules, the loaders' limits among them, before anything is deployed
            Catalogue.CUSTOMERS.parseAs("--customers", Integer.toString(customers));
            Catalogue.FLIGHT_DAYS.parseAs("--flight-days", Integer.toString(flightDays));
            options = new PlanOptions(LocalDataPlane.planeOf(Catalogue.DATAPLANE.parseAs("--dataplane", dataPlane),
                    new LocalDataPlane.Binaries(java.util.Optional.ofNullable(envoyBinary), java.util.Optional.ofNullable(nginxBinary))),
                    Catalogue.SIDECAR_MTLS.parseAs("--sidecar-mtls", sidecarMtls),
                    Catalogue.PROXY_WORKERS.parseAs("--proxy-workers", Integer.toString(proxyWorkers)),
                    Catalogue.INGRESS.parseAs("--ingress", ingress));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        LocalDataPlane mesh = LocalDataPlane.resolve(options, envoyBinary, nginxBinary, System.getenv("PATH"),
                MeshbenchMain.class.getPackage().getImplementationVersion() == null ? "dev"
                        : MeshbenchMain.class.getPackage().getImplementationVersion());
        LocalTargetSettings config = new LocalTargetSettings(ComponentJars.inBuildTree(projectRoot),
                RunSettings.COMPONENT_READY_TIMEOUT, customers, flightDays, mesh);
        System.out.printf("meshbench up: case %s (%s) on data plane %s%n  %s%n", c.id(), c.studyName(), options.dataPlane().id(),
                c.description());
        dev.meshbench.orchestrator.lifetime.Leftovers.sweepAndSay(null, System.out);
        long t0 = System.nanoTime();
        CountDownLatch done = new CountDownLatch(1);
        try (LocalDeployment d = new LocalTarget(config).deploy(c, logs)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                d.close();
                done.countDown();
            }, "meshbench-up-shutdown"));
            d.awaitReady(RunSettings.CASE_READY_TIMEOUT);
            printEndpoints(d, (System.nanoTime() - t0) / 1_000_000);
            while (!done.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
                if (d.failure().isPresent()) {
                    System.out.println("component died: " + d.failure().get());
                    return 1;
                }
            }
        }
        return 0;
    }

    /** The case on a cluster: applied, rolled out, database loaded; torn down at Ctrl-C unless meshbench.keep. */
    private int upOnCluster(EgressCase c) throws InterruptedException {
        dev.meshbench.orchestrator.kubernetes.KubernetesSettings cluster;
        boolean ingressOn;
        try {
            Catalogue.CUSTOMERS.parseAs("--customers", Integer.toString(customers));
            Catalogue.FLIGHT_DAYS.parseAs("--flight-days", Integer.toString(flightDays));
            ingressOn = Catalogue.INGRESS.parseAs("--ingress", ingress);
            cluster = dev.meshbench.orchestrator.kubernetes.KubernetesSettings.fromProperties(settings);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Path logs = (logDir != null ? logDir : projectRoot.resolve("target/meshbench-up/" + c.id())).toAbsolutePath().normalize();
        System.out.printf("meshbench up: case %s (%s) on the cluster%n  %s%n", c.id(), c.studyName(), c.description());
        long t0 = System.nanoTime();
        CountDownLatch done = new CountDownLatch(1);
        try (dev.meshbench.orchestrator.kubernetes.KubernetesDeployment d = dev.meshbench.orchestrator.kubernetes.KubernetesTarget.of(
                cluster, customers, flightDays, dev.meshbench.results.WorkloadInfo.ORIGINAL, ingressOn, System.out).deploy(c, logs)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                d.close();
                done.countDown();
            }, "meshbench-up-shutdown"));
            d.awaitReady(cluster.readyTimeout());
            System.out.printf("%nCase %s is up on the cluster in %.1f s, namespace %s.%n", c.id(), (System.nanoTime() - t0) / 1e9,
                    cluster.namespace());
            Map<String, URI> entries = d.endpoints().services();
            String access = cluster.clusterIps() ? "each Service's ClusterIP" : "port-forwards to each Service";
            if (ingressOn) {
                URI entry = d.endpoints().entry().orElse(entries.values().iterator().next());
                System.out.printf("Entry (Istio's ingress gateway: the client API only): %s%n", entry);
                System.out.printf("  original Acmeair driver: jmeter -n -t AcmeAir-microservices-mpJwt.jmx -JHOST=%s -JPORT=%d ...%n",
                        entry.getHost(), entry.getPort());
            } else {
                System.out.printf("Services (%s):%n", access);
                entries.forEach((name, uri) -> System.out.printf("  %-9s %s%n", name, uri));
            }
            System.out.printf("Service admin (%s, where the kit loads data):%n", access);
            d.serviceAdmin().services().forEach((name, uri) -> System.out.printf("  %-9s %s%n", name, uri));
            System.out.printf("Proxies: kubectl exec -n %s deploy/<service> -c istio-proxy -- pilot-agent request GET stats%n",
                    cluster.namespace());
            System.out.println(cluster.keep() ? "Ctrl-C ends this command and leaves the case deployed (meshbench.keep)."
                    : "Ctrl-C (or SIGTERM) tears the case down.");
            done.await();
        }
        return 0;
    }

    private static void printEndpoints(LocalDeployment d, long millis) {
        System.out.printf("%nCase %s is up: %d processes in %.1f s. Logs: %s%n", d.egressCase().id(), d.components().size(),
                millis / 1000.0, d.logDir());
        Optional<URI> entry = d.endpoints().entry();
        if (entry.isPresent()) {
            System.out.printf("Entry (the ingress gateway: the client API only, each operation to its service's sidecar): %s%n",
                    entry.get());
            System.out.printf("  original Acmeair driver: jmeter -n -t AcmeAir-microservices-mpJwt.jmx -JHOST=%s -JPORT=%d ...%n",
                    entry.get().getHost(), entry.get().getPort());
        } else {
            System.out.println("Services (through each service's sidecar; no ingress, --ingress=false):");
            d.endpoints().services().forEach((name, uri) -> System.out.printf("  %-9s %s%n", name, uri));
        }
        System.out.println("Service admin (each service's own port, where the kit loads data; not routed at the entry):");
        d.serviceAdmin().services().forEach((name, uri) -> System.out.printf("  %-9s %s%n", name, uri));
        System.out.println("Data-plane configuration files: " + d.configDir());
        System.out.println("Mesh admin:");
        d.adminEndpoints().forEach((name, uri) -> {
            boolean envoy = d.plan().options().dataPlane() == DataPlane.ENVOY;
            if (envoy && d.plan().component(name).kind() == ComponentKind.SNI_PROXY) {
                System.out.printf("  %-16s nginx: session log %s (no admin API)%n", name, d.logDir());
            } else if (envoy) {
                System.out.printf("  %-16s %s  %s  %s%n", name, uri.resolve("/stats"), uri.resolve("/config_dump"), uri.resolve("/clusters"));
            } else {
                System.out.printf("  %-16s %s%n", name, uri.resolve("/stats"));
            }
        });
        Map<String, ReadyLine> ready = d.readyLines();
        ReadyLine mongo = ready.get("mongo");
        String mongoAddr = mongo.get("address").orElse("?");
        String ca = mongo.get("ca").orElse("?");
        System.out.println("MongoDB (TLS; the services reach it as " + MeshNames.MONGO_HOST + "):");
        System.out.printf("  %s  CA: %s%n", mongoAddr, ca);
        String auth = d.endpoints().service("auth").toString();
        String customer = d.endpoints().service("customer").toString();
        System.out.println("Try:");
        System.out.printf("  curl -c /tmp/mb.cookies -d 'login=uid0@email.com&password=password' %s/auth/login%n", auth);
        System.out.printf("  curl -b /tmp/mb.cookies %s/customer/byid/uid0@email.com%n", customer);
        System.out.printf("  openssl s_client -connect %s -servername %s -CAfile %s -verify_hostname %s </dev/null%n",
                mongoAddr, MeshNames.MONGO_HOST, ca, MeshNames.MONGO_HOST);
        System.out.println("Press Ctrl-C to tear everything down.");
    }
}
