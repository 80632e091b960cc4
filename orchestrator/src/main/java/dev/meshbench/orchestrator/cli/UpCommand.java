package dev.meshbench.orchestrator.cli;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.orchestrator.cases.EgressCase;
import dev.meshbench.orchestrator.local.ComponentJars;
import dev.meshbench.orchestrator.local.LocalDeployment;
import dev.meshbench.orchestrator.local.LocalTarget;
import dev.meshbench.orchestrator.local.LocalTargetConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Brings one case up on the local target and keeps it up until Ctrl-C, for people to poke at. */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = "Start one egress case on the local target, print its endpoints, and keep it up until Ctrl-C.")
final class UpCommand implements Callable<Integer> {
    @Option(names = "--case", required = true, description = "Case id: bypass, sidecar, gateway, mtls, sni.")
    String caseId;

    @Option(names = "--project-root", defaultValue = ".", description = "Checkout whose module target/ folders hold the component jars (default: ${DEFAULT-VALUE}).")
    Path projectRoot;

    @Option(names = "--log-dir", description = "Where component logs go (default: target/meshbench-up/<case>).")
    Path logDir;

    @Option(names = "--customers", defaultValue = "1000", description = "Customers to load (default: ${DEFAULT-VALUE}).")
    int customers;

    @Option(names = "--flight-days", defaultValue = "5", description = "Days of flights to load (default: ${DEFAULT-VALUE}).")
    int flightDays;

    @Override
    public Integer call() throws InterruptedException {
        EgressCase c = EgressCase.byId(caseId);
        Path logs = logDir != null ? logDir : projectRoot.resolve("target/meshbench-up/" + c.id());
        LocalTargetConfig config = new LocalTargetConfig(ComponentJars.inBuildTree(projectRoot),
                Duration.ofSeconds(60), customers, flightDays);
        System.out.printf("meshbench up: case %s (%s)%n  %s%n", c.id(), c.studyName(), c.description());
        long t0 = System.nanoTime();
        CountDownLatch done = new CountDownLatch(1);
        try (LocalDeployment d = new LocalTarget(config).deploy(c, logs)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                d.close();
                done.countDown();
            }, "meshbench-up-shutdown"));
            d.awaitReady(Duration.ofMinutes(2));
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

    private static void printEndpoints(LocalDeployment d, long millis) {
        System.out.printf("%nCase %s is up: %d processes in %.1f s. Logs: %s%n", d.egressCase().id(), d.components().size(),
                millis / 1000.0, d.logDir());
        System.out.println("Services (through each service's sidecar):");
        d.endpoints().services().forEach((name, uri) -> System.out.printf("  %-9s %s%n", name, uri));
        System.out.println("Mesh admin (per-listener connection and byte counters):");
        d.adminEndpoints().forEach((name, uri) -> System.out.printf("  %-16s %s%n", name, uri.resolve("/stats")));
        Map<String, ReadyLine> ready = d.readyLines();
        ReadyLine mongo = ready.get("mongo");
        String mongoAddr = mongo.get("address").orElse("?");
        String ca = mongo.get("ca").orElse("?");
        System.out.println("MongoDB (TLS; the services reach it as " + LocalDeployment.MONGO_HOST + "):");
        System.out.printf("  %s  CA: %s%n", mongoAddr, ca);
        String auth = d.endpoints().service("auth").toString();
        String customer = d.endpoints().service("customer").toString();
        System.out.println("Try:");
        System.out.printf("  curl -c /tmp/mb.cookies -d 'login=uid0@email.com&password=password' %s/auth/login%n", auth);
        System.out.printf("  curl -b /tmp/mb.cookies %s/customer/byid/uid0@email.com%n", customer);
        System.out.printf("  openssl s_client -connect %s -servername %s -CAfile %s -verify_hostname %s </dev/null%n",
                mongoAddr, LocalDeployment.MONGO_HOST, ca, LocalDeployment.MONGO_HOST);
        System.out.println("Press Ctrl-C to tear everything down.");
    }
}
