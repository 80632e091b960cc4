package dev.meshbench.acmeair.cli;

import dev.meshbench.acmeair.graph.GraphNodeConfig;
import dev.meshbench.acmeair.graph.GraphNodeOptions;
import dev.meshbench.acmeair.graph.GraphNodeService;
import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.component.cli.Converters;
import dev.meshbench.component.cli.EnvironmentVariable;
import dev.meshbench.graph.GraphException;
import dev.meshbench.graph.ServiceGraph;
import dev.meshbench.graph.ServiceGraphReader;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code acmeair-services.jar graph-node}: one service of a mock service graph. Options fall back to environment
 * variables (for Kubernetes, where the graph comes from a ConfigMap); the command line wins.
 */
@Command(name = "graph-node", sortOptions = false,
        description = "One service of a mock service graph. Options fall back to the environment variable in brackets; "
                + "the command line wins.",
        footer = {"", "Ready line on stdout once listening: MESHBENCH-READY component=<service> address=HOST:PORT metrics=/metrics "
                + "ready=/health/ready"})
public final class GraphNodeCommand extends ServerCommand {
    static final String COMPONENT = "graph-node";

    @Option(names = "--graph", paramLabel = "FILE", description = "The service graph (GRAPH_FILE; required).")
    @EnvironmentVariable("GRAPH_FILE")
    Path graph;

    @Option(names = "--service", paramLabel = "NAME", description = "Which of its services to be (SERVICE_NAME; required).")
    @EnvironmentVariable("SERVICE_NAME")
    String service;

    @Option(names = "--port", paramLabel = "P", converter = Converters.Port.class,
            description = "Port to bind, 0 for a free one (PORT; required).")
    @EnvironmentVariable("PORT")
    Integer port;

    @Option(names = "--bind-host", paramLabel = "HOST", description = "Address to bind (BIND_HOST; default ${DEFAULT-VALUE}).")
    @EnvironmentVariable("BIND_HOST")
    String bindHost = "127.0.0.1";

    @Option(names = "--call", paramLabel = "SERVICE=URL[,URL...]", converter = CallConverter.class,
            description = "Where a callee is, its URLs taken in turn; repeatable, once per callee (default http://SERVICE:8080).")
    List<Map.Entry<String, List<URI>>> calls = new ArrayList<>();

    @Option(names = "--pause-every", paramLabel = "N", converter = Converters.WholeNumber.class,
            description = "Every Nth request waits --pause-ms before answering (PAUSE_EVERY; the two go together).")
    @EnvironmentVariable("PAUSE_EVERY")
    Integer pauseEvery;

    @Option(names = "--pause-ms", paramLabel = "MS", converter = Converters.WholeNumber.class, description = "(PAUSE_MS)")
    @EnvironmentVariable("PAUSE_MS")
    Integer pauseMs;

    /** Parses a graph-node command line (with {@code environment} for the fallbacks) without starting anything. */
    public static GraphNodeOptions options(List<String> args, Map<String, String> environment) {
        GraphNodeCommand command = new GraphNodeCommand();
        AcmeairCommandLine.configure(new CommandLine(command), environment).parseArgs(args.toArray(String[]::new));
        return command.options();
    }

    /** The options, checked for form (the graph is not read yet); bad ones are a {@link ParameterException}. */
    GraphNodeOptions options() {
        if (graph == null) {
            throw usage("--graph (GRAPH_FILE) is required");
        }
        if (service == null || service.isBlank()) {
            throw usage("--service (SERVICE_NAME) is required");
        }
        if (port == null) {
            throw usage("--port (PORT) is required: the port to listen on, 0 for a free one");
        }
        if ((pauseEvery == null) != (pauseMs == null)) {
            throw usage("--pause-every (PAUSE_EVERY) and --pause-ms (PAUSE_MS) go together; "
                    + (pauseEvery != null ? "--pause-ms" : "--pause-every") + " is missing");
        }
        if (pauseEvery != null && pauseEvery < 1) {
            throw usage("--pause-every " + pauseEvery + " must be at least 1");
        }
        Map<String, List<URI>> byCallee = new LinkedHashMap<>();
        for (Map.Entry<String, List<URI>> call : calls) {
            if (byCallee.put(call.getKey(), call.getValue()) != null) {
                throw usage("--call " + call.getKey() + " is given twice; list its URLs in one --call, comma-separated");
            }
        }
        return new GraphNodeOptions(graph, service, bindHost, port, byCallee, pauseEvery == null ? 0 : pauseEvery,
                pauseMs == null ? 0 : pauseMs, exitOnStdinEof());
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    @Override
    public Integer call() {
        GraphNodeOptions options = options();
        ServiceGraph read;
        try {
            read = ServiceGraphReader.read(options.graph());
        } catch (GraphException e) {
            return failed(COMPONENT, "reading the graph", e);
        } catch (IOException e) {
            String why = e instanceof NoSuchFileException ? "no such file" : ComponentMain.describe(e);
            return failed(COMPONENT, "reading the graph", new IOException("--graph " + options.graph() + ": " + why));
        }
        GraphNodeConfig config;
        try {
            config = GraphNodeConfig.of(options, read);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        String name = config.service().name();
        watchStdin(name);
        GraphNodeService node;
        try {
            node = GraphNodeService.start(config);
        } catch (RuntimeException e) {
            return failed(name, "starting on " + config.host() + ":" + config.port(), e);
        }
        return serving(name, node, ReadyLine.of(name, "address", node.address(), "metrics", GraphNodeService.METRICS_PATH,
                "ready", GraphNodeService.READY_PATH));
    }

    /** {@code SERVICE=URL[,URL...]}: one callee and its URLs (http(s) with a host; an empty path becomes {@code /}). */
    static final class CallConverter implements ITypeConverter<Map.Entry<String, List<URI>>> {
        @Override
        public Map.Entry<String, List<URI>> convert(String spec) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || eq == spec.length() - 1) {
                throw new TypeConversionException("'" + spec + "' must be SERVICE=URL[,URL...], e.g. backend=http://127.0.0.1:9081");
            }
            String callee = spec.substring(0, eq).trim();
            List<URI> urls = new ArrayList<>();
            for (String u : spec.substring(eq + 1).split(",")) {
                urls.add(url(callee, u.trim()));
            }
            return Map.entry(callee, List.copyOf(urls));
        }

        private static URI url(String callee, String u) {
            URI uri;
            try {
                uri = new URI(u);
            } catch (URISyntaxException e) {
                uri = null;
            }
            if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new TypeConversionException(callee + ": '" + u + "' is not an http(s) URL with a host, e.g. http://127.0.0.1:9081");
            }
            return uri.getRawPath() == null || uri.getRawPath().isEmpty() ? uri.resolve("/") : uri;
        }
    }
}
