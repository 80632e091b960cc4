package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.TlsMaterial;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dataplane sni-proxy}: relays each connection by the server name in the app's ClientHello. */
@Command(name = "sni-proxy", sortOptions = false,
        description = {"Routes by the server name in the app's ClientHello, wildcards allowed.",
            "Reads the server name (without terminating TLS) and relays every byte to the first matching route, like",
            "nginx 'ssl_preread' + 'proxy_pass'. No match, no server name, or a malformed ClientHello: the connection",
            "is closed, counted and logged."},
        footer = {"", DataplaneCommand.READY_LINE_HELP, DataplaneCommand.READY_LINE})
final class SniProxyCommand extends ProxyCommand {
    /** Listener name of the SNI proxy. */
    static final String LISTENER = "sni";

    @Mixin
    RouteOptions routes;

    @Override
    List<ListenerConfig> listeners() {
        return List.of(ListenerConfig.sniPassthrough(LISTENER, routes.listenPort, routes.table()));
    }

    @Override
    List<String> listenerOptions() {
        return List.of(RouteOptions.LISTEN_PORT, RouteOptions.ROUTE);
    }

    @Override
    TlsMaterial tls(boolean needed) {
        return null;
    }
}
