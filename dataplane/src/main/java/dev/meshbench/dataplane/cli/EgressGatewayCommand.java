package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.TlsMaterial;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dataplane egress-gateway}: routes by SNI, as TLS passthrough or terminating mutual TLS from sidecars. */
@Command(name = "egress-gateway", sortOptions = false,
        description = {"The egress gateway: --mode sni-passthrough (plain TCP, routes by the app's SNI)",
            "or --mode mtls (terminates mutual TLS from sidecars, routes by the tunnel's SNI)."},
        footer = {"", DataplaneCommand.READY_LINE_HELP, DataplaneCommand.READY_LINE})
final class EgressGatewayCommand extends ProxyCommand {
    /** Listener name of the egress gateway. */
    static final String LISTENER = "egress";
    static final String MODE = "--mode";

    @Option(names = MODE, paramLabel = "sni-passthrough|mtls",
            description = "Required. sni-passthrough: plain TCP; read the SNI from the app's ClientHello without terminating TLS. "
                    + "mtls: accept only mutual TLS from clients with a certificate of the CA (not expired); route by the SNI "
                    + "of that handshake; relay the inner stream; needs --ca-file, --cert-file, --key-file. A listener option: "
                    + "PUT /config may change it while the gateway runs, to mtls only if it was started with those files.")
    String mode;

    @Mixin
    RouteOptions routes;

    @Mixin
    TlsFileOptions tlsFiles;

    @Override
    List<ListenerConfig> listeners() {
        if (mode == null || mode.isBlank()) {
            throw new IllegalArgumentException("--mode is required");
        }
        if (!mode.equals("sni-passthrough") && !mode.equals("mtls")) {
            throw new IllegalArgumentException("--mode must be sni-passthrough or mtls (got '" + mode + "')");
        }
        RouteTable table = routes.table();
        return List.of(mode.equals("mtls") ? ListenerConfig.mtlsTerminating(LISTENER, routes.listenPort, table)
                : ListenerConfig.sniPassthrough(LISTENER, routes.listenPort, table));
    }

    @Override
    List<String> listenerOptions() {
        // the mode is the listener's TLS mode, which a running listener can change (as a sidecar's listener's tls=)
        return List.of(MODE, RouteOptions.LISTEN_PORT, RouteOptions.ROUTE);
    }

    @Override
    TlsMaterial tls(boolean needed) {
        return tlsFiles.material(needed);
    }
}
