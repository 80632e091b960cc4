package dev.meshbench.acmeair;

import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.config.ServiceOptionsReader;
import dev.meshbench.acmeair.graph.GraphNodeConfig;
import dev.meshbench.acmeair.graph.GraphNodeOptions;
import dev.meshbench.acmeair.graph.GraphNodeOptionsReader;
import dev.meshbench.acmeair.graph.GraphNodeService;
import dev.meshbench.acmeair.local.AllInOneLauncher;
import dev.meshbench.acmeair.security.JwtKeys;
import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.graph.GraphException;
import dev.meshbench.graph.ServiceGraph;
import dev.meshbench.graph.ServiceGraphReader;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of {@code acmeair-services.jar}:
 *
 * <pre>
 * java -jar acmeair-services.jar auth|customer|flight|booking [options]   one service (see ServiceOptionsReader)
 * java -jar acmeair-services.jar all [--base-port 9080] [--customers N] [--days N]   everything in one JVM, for people
 * java -jar acmeair-services.jar jwt-keys --dir DIR                        writes jwt-private.pem and jwt-public.pem
 * java -jar acmeair-services.jar graph-node --graph FILE --service NAME --port P [options]
 *                                                  one service of a mock service graph (see GraphNodeOptionsReader)
 * </pre>
 *
 * A service prints {@code MESHBENCH-READY component=<service> address=127.0.0.1:<port> metrics=/metrics
 * ready=/<service>/ready} once it listens (a graph node: {@code ready=/health/ready}); on a start failure it prints
 * one line on stderr and exits with 2.
 */
public final class AcmeairMain {
    static final String USAGE = ServiceOptionsReader.USAGE + "\n   or: java -jar acmeair-services.jar all " + AllInOneLauncher.USAGE_ARGS
            + "\n   or: java -jar acmeair-services.jar jwt-keys --dir DIR"
            + "\n   or: " + GraphNodeOptionsReader.USAGE.substring("usage: ".length());

    private AcmeairMain() {
    }

    public static void main(String[] args) {
        quietLibraries();
        if (args.length == 0 || "--help".equals(args[0]) || "-h".equals(args[0])) {
            System.err.println(USAGE);
            System.exit(args.length == 0 ? ComponentMain.EXIT_START_FAILED : 0);
            return;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "all" -> AllInOneLauncher.main(rest);
            case "jwt-keys" -> jwtKeys(rest);
            case "graph-node" -> graphNode(rest);
            default -> service(args[0], rest, args);
        }
    }

    /** Library chatter (per-connection and start-up INFO lines) stays off stderr unless asked for. */
    static void quietLibraries() {
        for (String logger : new String[] {"de.bwaldvogel.mongo", "org.eclipse.jetty", "io.javalin"}) {
            String key = "org.slf4j.simpleLogger.log." + logger;
            if (System.getProperty(key) == null) {
                System.setProperty(key, "warn");
            }
        }
    }

    private static void service(String which, List<String> rest, String[] args) {
        ServiceName name;
        ServiceOptionsReader.Parsed parsed;
        try {
            name = ServiceName.parse(which);
        } catch (IllegalArgumentException e) {
            ComponentMain.fail("acmeair", "reading the command line", new IllegalArgumentException(e.getMessage() + "\n" + USAGE));
            return;
        }
        try {
            parsed = ServiceOptionsReader.read(name, rest, System.getenv());
        } catch (IllegalArgumentException e) {
            ComponentMain.fail(name.id(), "reading options", e);
            return;
        }
        if (parsed.exitOnStdinEof()) {
            ComponentMain.exitWhenStdinCloses(name.id());
        }
        AcmeairService service;
        try {
            service = AcmeairService.start(parsed.config());
        } catch (RuntimeException e) {
            ComponentMain.fail(name.id(), "starting on " + parsed.config().host() + ":" + parsed.config().port(), rootOf(e));
            return;
        }
        ReadyLine.of(name.id(), "address", service.address(), "metrics", "/metrics", "ready", name.readyPath()).print();
        ComponentMain.awaitShutdown(name.id(), service::close);
    }

    private static void graphNode(List<String> rest) {
        String component = "graph-node";
        GraphNodeOptions options;
        GraphNodeConfig config;
        try {
            options = GraphNodeOptionsReader.read(rest, System.getenv());
        } catch (IllegalArgumentException e) {
            ComponentMain.fail(component, "reading options", e);
            return;
        }
        ServiceGraph graph;
        try {
            graph = ServiceGraphReader.read(options.graph());
        } catch (GraphException e) {
            ComponentMain.fail(component, "reading the graph", e);
            return;
        } catch (IOException e) {
            String why = e instanceof NoSuchFileException ? "no such file" : ComponentMain.describe(e);
            ComponentMain.fail(component, "reading the graph", new IOException("--graph " + options.graph() + ": " + why));
            return;
        }
        try {
            config = GraphNodeConfig.of(options, graph);
        } catch (IllegalArgumentException e) {
            ComponentMain.fail(component, "reading options", e);
            return;
        }
        String name = config.service().name();
        if (options.exitOnStdinEof()) {
            ComponentMain.exitWhenStdinCloses(name);
        }
        GraphNodeService node;
        try {
            node = GraphNodeService.start(config);
        } catch (RuntimeException e) {
            ComponentMain.fail(name, "starting on " + config.host() + ":" + config.port(), rootOf(e));
            return;
        }
        ReadyLine.of(name, "address", node.address(), "metrics", GraphNodeService.METRICS_PATH, "ready", GraphNodeService.READY_PATH).print();
        ComponentMain.awaitShutdown(name, node::close);
    }

    private static Throwable rootOf(RuntimeException e) {
        return e instanceof ServiceStartException && e.getCause() != null ? e.getCause() : e;
    }

    private static void jwtKeys(List<String> rest) {
        if (rest.size() != 2 || !"--dir".equals(rest.get(0))) {
            ComponentMain.fail("jwt-keys", "reading options", new IllegalArgumentException("usage: jwt-keys --dir DIR"));
            return;
        }
        JwtKeys.KeyFiles f = JwtKeys.generate(Path.of(rest.get(1)));
        System.out.println("private key (auth --jwt-private-key): " + f.privateKey());
        System.out.println("public key (customer, booking --jwt-public-key): " + f.publicKey());
    }
}
