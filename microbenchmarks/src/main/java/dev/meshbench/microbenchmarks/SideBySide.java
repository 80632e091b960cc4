package dev.meshbench.microbenchmarks;

import dev.meshbench.component.cli.ComponentCommandLine;
import dev.meshbench.component.cli.Converters.AnyWholeNumber;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.latency.load.LoadGenerator;
import dev.meshbench.orchestrator.latency.load.LoadResult;
import dev.meshbench.orchestrator.latency.load.LoadSpec;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalDeployment;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.local.ProxyLaunch;
import dev.meshbench.orchestrator.local.envoynginx.NativeBinaries;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.Identity;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan.InboundTls;
import dev.meshbench.orchestrator.plan.ListenerPlan.OriginateMtls;
import dev.meshbench.orchestrator.plan.ListenerPlan.Protocol;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.pki.CertificateAuthority;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Side-by-side HTTP throughput and latency of the two data planes' hops, fortio-style: {@code --connections}
 * keep-alive connections in a closed loop (each sends its next request when the previous answer arrived), for
 * {@code --seconds} per row after {@code --warmup} seconds, against one loopback HTTP/1.1 echo server; the maximum
 * req/s and the p50/p99 latency of each row. Rows run one after another, never two at once; each row's proxies are
 * real processes (Netty relays from {@code dataplane.jar}, Envoy from a bootstrap rendered by the orchestrator's
 * {@code EnvoyBootstrapRenderer}) built from a small topology plan, and are stopped before the next row starts.
 *
 * <pre>{@code java -cp microbenchmarks/target/benchmarks.jar dev.meshbench.microbenchmarks.SideBySide --connections 64 --seconds 10}</pre>
 */
public final class SideBySide {
    private static final String ECHO = "echo";
    private static final String LISTENER = "relay";
    private static final String HOP_1 = "hop-1";
    private static final String HOP_2 = "hop-2";
    /** The mTLS tunnel's server name; the second hop's identity is what the first hop verifies. */
    private static final String TUNNEL_SNI = "echo.meshbench.test";
    private static final Identity HOP_2_ID = new Identity("meshbench", HOP_2);
    private static final Identity HOP_1_ID = new Identity("meshbench", HOP_1);

    /** The command line's values, checked where they enter. */
    record Options(int connections, int seconds, int warmupSeconds, int nettyThreads, int clientWarmupSeconds,
            List<String> rows, Optional<Path> dataplaneJar) {
        Options {
            positive("--connections", connections);
            positive("--seconds", seconds);
            if (warmupSeconds < 0) {
                throw new IllegalArgumentException("--warmup (" + warmupSeconds + ") must be 0 or more");
            }
            if (clientWarmupSeconds < 0) {
                throw new IllegalArgumentException("--client-warmup (" + clientWarmupSeconds + ") must be 0 or more");
            }
            positive("--netty-threads", nettyThreads);
        }

        private static void positive(String name, int v) {
            if (v < 1) {
                throw new IllegalArgumentException(name + " (" + v + ") must be at least 1");
            }
        }
    }

    /**
     * The command line (picocli): every option with its default, checked as it enters ({@link #call} builds the
     * {@link Options}); bad input is one line, {@code side-by-side: <what is wrong> (see --help)}, exit 2.
     */
    @Command(name = "side-by-side", sortOptions = false,
            customSynopsis = "java -cp microbenchmarks/target/benchmarks.jar dev.meshbench.microbenchmarks.SideBySide [options]",
            description = "HTTP req/s and p50/p99 latency of the Netty and Envoy hops, one row after another, fortio-style.",
            footer = {"", "Envoy: -Dmeshbench.envoy.binary=/path/to/envoy, else 'envoy' on PATH; without it the envoy rows are skipped."})
    static final class OptionsCommand implements Callable<Integer> {
        @Option(names = {"-c", "--connections"}, paramLabel = "N", converter = AnyWholeNumber.class,
                description = "Keep-alive connections, closed loop (default ${DEFAULT-VALUE}).")
        int connections = 64;

        @Option(names = {"-t", "--seconds"}, paramLabel = "S", converter = AnyWholeNumber.class,
                description = "Measured seconds per row (default ${DEFAULT-VALUE}).")
        int seconds = 10;

        @Option(names = "--warmup", paramLabel = "S", converter = AnyWholeNumber.class,
                description = "Unmeasured seconds per row before that (default ${DEFAULT-VALUE}; warms the proxies' JIT, TLS handshakes).")
        int warmup = 5;

        @Option(names = "--client-warmup", paramLabel = "S", converter = AnyWholeNumber.class,
                description = "Once, before the first row: the client against the echo server, not reported"
                        + " (default ${DEFAULT-VALUE}; without it the first row measures this JVM's JIT compiler).")
        int clientWarmup = 5;

        @Option(names = "--netty-threads", paramLabel = "N", converter = AnyWholeNumber.class,
                description = "Event loops of the row netty-tcp-Nt (default ${DEFAULT-VALUE}).")
        int nettyThreads = 4;

        @Option(names = "--rows", paramLabel = "ROW", split = ",",
                description = "Only these rows (ids as printed), in this order; a row may repeat (e.g. direct first and last)."
                        + " Comma-separated, and the option may repeat.")
        List<String> rows;

        @Option(names = "--dataplane-jar", paramLabel = "P",
                description = "dataplane.jar (default -Dmeshbench.dataplane.jar, else dataplane/target/dataplane.jar).")
        Path dataplaneJar;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;

        @Spec
        CommandSpec spec;

        /** The options once {@link #call} read them; null after {@code --help} or bad input. */
        Options options;

        @Override
        public Integer call() {
            try {
                options = new Options(connections, seconds, warmup, nettyThreads, clientWarmup,
                        rows == null ? List.of() : List.copyOf(rows), Optional.ofNullable(dataplaneJar));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            return 0;
        }
    }

    /**
     * The kit's own load generator ({@code orchestrator}'s {@link LoadGenerator}, the latency study's), closed loop:
     * {@code connections} keep-alive connections, each sending its next GET when the previous answer arrived.
     */
    static LoadResult closedLoop(InetSocketAddress entry, int connections, int warmupSeconds, int seconds) {
        LoadSpec spec = new LoadSpec(List.of(URI.create("http://" + entry.getHostString() + ":" + entry.getPort() + "/")), connections,
                Duration.ofSeconds(seconds), OptionalDouble.empty(), LoadSpec.DEFAULT_TIMEOUT, LoadSpec.DEFAULT_METHOD, 0,
                Duration.ofSeconds(warmupSeconds));
        try {
            return LoadGenerator.run(spec, line -> { });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The command line of {@code command}: one-line usage errors with exit code 2, no environment defaults. */
    static CommandLine commandLine(OptionsCommand command) {
        CommandLine cli = new CommandLine(command);
        cli.setUsageHelpWidth(120);
        return ComponentCommandLine.configure(cli, Map.of(), (failed, message) -> "side-by-side: " + message + " (see --help)");
    }

    /** One row: how to build its plan (empty: direct), and with which data plane and settings. */
    private record Row(String id, String description, DataPlane dataPlane, int workers, String nettyTls,
            Optional<TopologyPlan> plan) {
    }

    private SideBySide() {
    }

    public static void main(String[] args) {
        OptionsCommand command = new OptionsCommand();
        int code = commandLine(command).execute(args);
        Options o = command.options;
        if (o == null) {
            if (code != 0) {
                System.exit(code);
            }
            return;
        }
        try {
            run(o);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("side-by-side: interrupted");
            System.exit(130);
        } catch (RuntimeException | IOException e) {
            System.err.println("side-by-side: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void run(Options o) throws IOException, InterruptedException {
        List<Row> rows = rows(o);
        for (String wanted : o.rows()) {
            if (rows.stream().noneMatch(r -> r.id().equals(wanted))) {
                throw new IllegalArgumentException("--rows: no row '" + wanted + "'; rows: "
                        + String.join(", ", rows.stream().map(Row::id).toList()));
            }
        }
        if (!o.rows().isEmpty()) {
            List<Row> all = rows;
            rows = o.rows().stream().map(id -> all.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow()).toList();
        }
        Optional<Path> envoy;
        String envoyAbsent = null;
        try {
            envoy = Optional.of(NativeBinaries.find(LocalDataPlane.P_ENVOY_BINARY, System.getProperty(LocalDataPlane.P_ENVOY_BINARY),
                    "envoy", LocalDataPlane.ENVOY_INSTALL));
        } catch (IllegalArgumentException e) {
            envoy = Optional.empty();
            envoyAbsent = e.getMessage();
        }
        Path dataplaneJar = o.dataplaneJar().map(Path::toAbsolutePath).orElseGet(PlanChainFixture::dataplaneJar);
        String envoyVersion = envoy.map(p -> {
            try {
                return NativeBinaries.envoyVersion(p);
            } catch (IllegalArgumentException e) {
                return "envoy (version unknown: " + e.getMessage() + ")";
            }
        }).orElse("absent");

        System.out.printf("meshbench side-by-side: %d keep-alive connections, closed loop (max req/s), %d s measured after %d s warm-up per row;"
                + " rows run one after another%n", o.connections(), o.seconds(), o.warmupSeconds());
        System.out.printf("  machine: %d cores; the load client (the kit's load generator, one thread per connection) and the HTTP echo"
                + " server (1 event loop) run in THIS JVM on the same cores as the proxies:%n  their CPU is part of every row, so read the rows"
                + " relative to 'direct' and to each other, not as a proxy's capacity.%n", Runtime.getRuntime().availableProcessors());
        System.out.printf("  netty: %s (JVM %s); envoy: %s%n", dataplaneJar, String.join(" ", ProxyLaunch.NETTY_JVM), envoyVersion);

        AtomicReference<PlanProcesses> current = new AtomicReference<>();
        AtomicReference<Path> currentDir = new AtomicReference<>();
        Thread hook = new Thread(() -> {
            PlanProcesses p = current.getAndSet(null);
            if (p != null) {
                p.close();
            }
            LocalDeployment.deleteTree(currentDir.getAndSet(null));
        }, "side-by-side-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        List<String[]> table = new ArrayList<>();
        try (HttpEchoServer echo = new HttpEchoServer(1)) {
            if (o.clientWarmupSeconds() > 0) {
                System.out.printf("[client warm-up] %d s against the echo server directly (not reported)%n", o.clientWarmupSeconds());
                closedLoop(echo.address(), o.connections(), 0, o.clientWarmupSeconds());
            }
            for (Row row : rows) {
                if (row.dataPlane() == DataPlane.ENVOY && envoy.isEmpty()) {
                    System.out.printf("[%s] skipped: %s%n", row.id(), envoyAbsent);
                    table.add(new String[] {row.id(), "skipped: no envoy", "", "", ""});
                    continue;
                }
                System.out.printf("[%s] %s: starting%n", row.id(), row.description());
                Path workDir = Files.createTempDirectory("meshbench-side-by-side-" + row.id() + "-");
                currentDir.set(workDir);
                boolean keep = false;
                try {
                    InetSocketAddress entry = echo.address();
                    if (row.plan().isPresent()) {
                        TopologyPlan plan = row.plan().get();
                        LocalAddresses addrs = PlanProcesses.addresses(plan, Map.of(new Endpoint(ECHO, LISTENER), echo.address().getPort()));
                        MeshFiles mesh = MeshFiles.issue(plan, CertificateAuthority.create("meshbench mesh CA (side-by-side)"), workDir.resolve("pki"));
                        current.set(PlanProcesses.start(plan, addrs, mesh, new ProxyLaunch(row.dataPlane(), row.nettyTls(),
                                Path.of(System.getProperty("java.home"), "bin", "java"), Optional.of(dataplaneJar), envoy, Optional.empty()), workDir));
                        entry = new InetSocketAddress(LocalAddresses.HOST, addrs.port(HOP_1, LISTENER));
                        String tls = current.get().nettyTlsProviders();
                        if (row.dataPlane() == DataPlane.NETTY && row.id().contains("mtls")) {
                            System.out.printf("[%s] TLS provider: %s%n", row.id(), tls);
                        }
                    }
                    LoadResult r = closedLoop(entry, o.connections(), o.warmupSeconds(), o.seconds());
                    System.out.printf(Locale.ROOT, "[%s] %.0f req/s, p50 %.3f ms, p99 %.3f ms, %d errors%n", row.id(), r.achievedRate(),
                            r.latency().p50(), r.latency().p99(), r.errors().total());
                    table.add(new String[] {row.id(), String.format(Locale.ROOT, "%.0f", r.achievedRate()),
                            String.format(Locale.ROOT, "%.3f", r.latency().p50()), String.format(Locale.ROOT, "%.3f", r.latency().p99()),
                            Long.toString(r.errors().total())});
                } catch (RuntimeException e) {
                    keep = true;
                    System.out.printf("[%s] failed: %s (configs and logs kept in %s)%n", row.id(), oneLine(e.getMessage()), workDir);
                    table.add(new String[] {row.id(), "failed", "", "", ""});
                } finally {
                    PlanProcesses p = current.getAndSet(null);
                    if (p != null) {
                        p.close();
                    }
                    currentDir.set(null);
                    if (!keep) {
                        LocalDeployment.deleteTree(workDir);
                    }
                }
            }
        } finally {
            PlanProcesses p = current.getAndSet(null);
            if (p != null) {
                p.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook runs
            }
        }
        System.out.println();
        System.out.printf("%-26s %12s %10s %10s %8s%n", "row", "req/s", "p50 ms", "p99 ms", "errors");
        for (String[] t : table) {
            System.out.printf("%-26s %12s %10s %10s %8s%n", (Object[]) t);
        }
    }

    private static String oneLine(String s) {
        return s == null ? "(no message)" : s.replaceAll("\\s*\\R\\s*", " | ");
    }

    private static List<Row> rows(Options o) {
        int n = o.nettyThreads();
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("direct", "client -> echo, no proxy", DataPlane.NETTY, 1, "jdk", Optional.empty()));
        rows.add(new Row("netty-tcp-1t", "one plain TCP hop, Netty relay, 1 event loop", DataPlane.NETTY, 1, "jdk",
                Optional.of(oneHop(DataPlane.NETTY, 1, Protocol.TCP))));
        rows.add(new Row("netty-tcp-" + n + "t", "one plain TCP hop, Netty relay, " + n + " event loops", DataPlane.NETTY, n, "jdk",
                Optional.of(oneHop(DataPlane.NETTY, n, Protocol.TCP))));
        for (int c : new int[] {1, 2}) {
            rows.add(new Row("envoy-tcp-c" + c, "one plain TCP hop, Envoy tcp_proxy, --concurrency " + c, DataPlane.ENVOY, c, "jdk",
                    Optional.of(oneHop(DataPlane.ENVOY, c, Protocol.TCP))));
        }
        for (int c : new int[] {1, 2}) {
            rows.add(new Row("envoy-http-c" + c, "one HTTP hop, Envoy http_connection_manager + router, --concurrency " + c, DataPlane.ENVOY, c,
                    "jdk", Optional.of(oneHop(DataPlane.ENVOY, c, Protocol.HTTP))));
        }
        rows.add(new Row("netty-2hop-plain", "two plain TCP hops, Netty relays, 1 event loop each", DataPlane.NETTY, 1, "jdk",
                Optional.of(twoHops(DataPlane.NETTY, false))));
        rows.add(new Row("envoy-2hop-plain", "two plain TCP hops, Envoy tcp_proxy, --concurrency 1 each", DataPlane.ENVOY, 1, "jdk",
                Optional.of(twoHops(DataPlane.ENVOY, false))));
        rows.add(new Row("netty-2hop-mtls-jdk", "two TCP hops, mTLS between them, Netty relays, JDK TLS, 1 event loop each", DataPlane.NETTY,
                1, "jdk", Optional.of(twoHops(DataPlane.NETTY, true))));
        rows.add(new Row("netty-2hop-mtls-boringssl", "two TCP hops, mTLS between them, Netty relays, BoringSSL, 1 event loop each",
                DataPlane.NETTY, 1, "boringssl", Optional.of(twoHops(DataPlane.NETTY, true))));
        rows.add(new Row("envoy-2hop-mtls", "two TCP hops, mTLS between them, Envoy tcp_proxy, --concurrency 1 each", DataPlane.ENVOY, 1,
                "jdk", Optional.of(twoHops(DataPlane.ENVOY, true))));
        return rows;
    }

    /**
     * echo <- hop-1: one listener relaying every connection to the echo server. TCP: Envoy's {@code tcp_proxy};
     * HTTP: Envoy's HTTP connection manager with one route (the Netty relay has no HTTP mode).
     * The plan's case is only a label here (it names no real egress case).
     */
    private static TopologyPlan oneHop(DataPlane dp, int workers, Protocol protocol) {
        ComponentPlan hop = new ComponentPlan(HOP_1, ComponentKind.SIDECAR, Optional.of(HOP_1_ID), List.of(new ListenerPlan(LISTENER, protocol,
                InboundTls.PLAIN, Optional.of(new Routing.Fixed(new Endpoint(ECHO, LISTENER))), Optional.empty())), Map.of());
        return new TopologyPlan(EgressCase.SIDECAR, new PlanOptions(dp, false, workers, false), List.of(echo(protocol), hop));
    }

    /**
     * echo <- hop-2 <- hop-1, TCP relays. With mTLS: hop-1 originates mutual TLS (its SPIFFE workload certificate,
     * SNI {@value #TUNNEL_SNI}, hop-2's SPIFFE id required), hop-2 accepts only clients with a certificate of the
     * same per-run mesh CA, as the sidecar and gateway of case mtls; the HTTP inside the tunnel is the client's.
     */
    private static TopologyPlan twoHops(DataPlane dp, boolean mtls) {
        ComponentPlan hop2 = new ComponentPlan(HOP_2, ComponentKind.SIDECAR, Optional.of(HOP_2_ID), List.of(new ListenerPlan(LISTENER,
                Protocol.TCP, mtls ? InboundTls.MESH_MTLS : InboundTls.PLAIN, Optional.of(new Routing.Fixed(new Endpoint(ECHO, LISTENER))),
                Optional.empty())), Map.of());
        ComponentPlan hop1 = new ComponentPlan(HOP_1, ComponentKind.SIDECAR, Optional.of(HOP_1_ID), List.of(new ListenerPlan(LISTENER,
                Protocol.TCP, InboundTls.PLAIN, Optional.of(new Routing.Fixed(new Endpoint(HOP_2, LISTENER))),
                mtls ? Optional.of(new OriginateMtls(TUNNEL_SNI, HOP_2_ID)) : Optional.empty())), Map.of());
        return new TopologyPlan(mtls ? EgressCase.MTLS : EgressCase.GATEWAY, new PlanOptions(dp, false, 1, false), List.of(echo(Protocol.TCP), hop2, hop1));
    }

    /** The echo server's place in a plan: a destination, as MongoDB is in the cases' plans. */
    private static ComponentPlan echo(Protocol protocol) {
        return new ComponentPlan(ECHO, ComponentKind.DATABASE, Optional.empty(), List.of(ListenerPlan.destination(LISTENER, protocol,
                InboundTls.PLAIN)), Map.of());
    }
}
