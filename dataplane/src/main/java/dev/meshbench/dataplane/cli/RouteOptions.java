package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.RouteTable;
import java.util.List;
import picocli.CommandLine.Option;

/** The listener of the egress gateway and the SNI proxy: its port and its routes by server name (a picocli mixin). */
final class RouteOptions {
    static final String ROUTE = "--route";
    static final String LISTEN_PORT = "--listen-port";

    @Option(names = LISTEN_PORT, paramLabel = "P", converter = ProxyOptions.PortConverter.class,
            description = "Port of the listener; default 0 = any free one (the ready line reports it).")
    int listenPort;

    @Option(names = ROUTE, paramLabel = "PATTERN=HOST:PORT[,upstream-name=D]", converter = RouteSpecConverter.class,
            description = "Repeatable, at least one. PATTERN is a host name, *.domain or *; exact beats wildcard, longer beats "
                    + "shorter; e.g. '*.meshbench.test=127.0.0.1:27017'.")
    List<RouteTable.Route> routes = List.of();

    /** @throws IllegalArgumentException naming the option */
    RouteTable table() {
        if (routes.isEmpty()) {
            throw new IllegalArgumentException(ROUTE + " is required (at least one, e.g. '*.meshbench.test=127.0.0.1:27017')");
        }
        try {
            return new RouteTable(routes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ROUTE + ": " + e.getMessage(), e);
        }
    }
}
