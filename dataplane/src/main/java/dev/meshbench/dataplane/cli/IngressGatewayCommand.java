package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.PathRoutes;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.TlsMaterial;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code dataplane ingress-gateway}: an HTTP/1.1 router by method and path (or path prefix), what Istio's ingress
 * gateway does with a Gateway and a VirtualService (the orchestrator gives it Acmeair's client API, one route per
 * operation, each to its service's sidecar).
 */
@Command(name = "ingress-gateway", sortOptions = false,
        description = {"The ingress gateway: terminates HTTP/1.1 from clients and routes each request to its upstream,",
            "over pooled keep-alive connections, by method and path ('GET /customer/byid/{id}': that method, that",
            "whole path, {name} matching one segment) or by path prefix ('/auth': any method, /auth and below, not",
            "/authx; the longest wins). The path is routed decoded, with runs of '/' merged; a path with a '.' or '..'",
            "segment or an escaped slash (%2F, %5C) is refused with 400. The gateway answers itself: 404 when no route",
            "matches, 413 for a body over --max-request-bytes, 431 for request headers over 8 KiB, 414 for a longer",
            "request line, 503 when the upstream refuses or closes before a response; each is counted in GET /stats",
            "and the 503 is logged."},
        footer = {"", "Example:",
            "  dataplane ingress-gateway --name ingress-gateway --listen-port 0 \\",
            "    --route 'POST /auth/login=127.0.0.1:41001,upstream-name=sidecar-auth' \\",
            "    --route 'GET /booking/byuser/{user}=127.0.0.1:41004,upstream-name=sidecar-booking' --route /flight=127.0.0.1:41003",
            "", DataplaneCommand.READY_LINE_HELP, DataplaneCommand.READY_LINE})
final class IngressGatewayCommand extends ProxyCommand {
    /** Listener name of the ingress gateway. */
    static final String LISTENER = "ingress";
    static final String ROUTE = "--route";
    static final String LISTEN_PORT = "--listen-port";
    static final String MAX_REQUEST_BYTES = "--max-request-bytes";
    static final String MAX_CONNECTIONS_PER_UPSTREAM = "--max-connections-per-upstream";

    @Option(names = LISTEN_PORT, paramLabel = "P", converter = ProxyOptions.PortConverter.class,
            description = "Port of the HTTP listener; default 0 = any free one (the ready line reports it).")
    int listenPort;

    @Option(names = ROUTE, paramLabel = PathRouteSpecConverter.SYNTAX, converter = PathRouteSpecConverter.class,
            description = "Repeatable, at least one. With a METHOD, that method and the whole PATH ({name} = any one segment); "
                    + "without, PATH is a prefix for any method, the longest matching prefix wins, '/' matches everything; "
                    + "e.g. 'POST /auth/login=127.0.0.1:41001,upstream-name=sidecar-auth'.")
    List<PathRoutes.Route> routes = List.of();

    @Option(names = MAX_REQUEST_BYTES, paramLabel = "N", converter = MaxRequestBytesConverter.class,
            description = "Largest request body accepted; a larger one is answered 413 and the connection closed. Default ${DEFAULT-VALUE}.")
    int maxRequestBytes = Routing.ByPathPrefix.DEFAULT_MAX_REQUEST_BYTES;

    @Option(names = MAX_CONNECTIONS_PER_UPSTREAM, paramLabel = "N", converter = MaxConnectionsConverter.class,
            description = "Keep-alive connections open at most per upstream; more requests at once wait for one. Default ${DEFAULT-VALUE}.")
    int maxConnectionsPerUpstream = Routing.ByPathPrefix.DEFAULT_MAX_CONNECTIONS_PER_UPSTREAM;

    @Override
    List<ListenerConfig> listeners() {
        if (routes.isEmpty()) {
            throw new IllegalArgumentException(ROUTE + " is required (at least one, e.g. '/auth=127.0.0.1:41001,upstream-name=sidecar-auth')");
        }
        Map<String, PathRoutes.Route> seen = new HashMap<>();
        for (PathRoutes.Route r : routes) {
            PathRoutes.Route first = seen.putIfAbsent(r.spec(), r);
            if (first != null) {
                throw new IllegalArgumentException(ROUTE + " '" + text(r) + "': " + (r.isPrefix() ? "path prefix " : "") + r.spec()
                        + " is already routed by '" + text(first) + "'");
            }
        }
        PathRoutes table;
        try {
            table = new PathRoutes(routes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ROUTE + ": " + e.getMessage(), e);
        }
        return List.of(ListenerConfig.httpPathRouter(LISTENER, listenPort,
                new Routing.ByPathPrefix(table, maxRequestBytes, maxConnectionsPerUpstream)));
    }

    /** A route as it was given (modulo spacing), for error messages. */
    private static String text(PathRoutes.Route r) {
        String s = r.spec() + "=" + r.upstream().address();
        return r.upstream().displayName().equals(r.upstream().address().toString()) ? s : s + ",upstream-name=" + r.upstream().displayName();
    }

    @Override
    List<String> listenerOptions() {
        return List.of(LISTEN_PORT, MAX_REQUEST_BYTES, MAX_CONNECTIONS_PER_UPSTREAM, ROUTE);
    }

    @Override
    TlsMaterial tls(boolean needed) {
        return null;
    }

    static final class MaxRequestBytesConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return positive(value, 0, Integer.MAX_VALUE - 1);
        }
    }

    static final class MaxConnectionsConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return positive(value, 1, 100_000);
        }
    }

    private static int positive(String value, int min, int max) {
        try {
            long n = Long.parseLong(value.trim());
            if (n >= min && n <= max) {
                return (int) n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new TypeConversionException("must be a number " + min + "-" + max + " (got '" + value + "')");
    }
}
