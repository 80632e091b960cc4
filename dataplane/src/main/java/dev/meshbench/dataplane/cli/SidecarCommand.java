package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.TlsMaterial;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/** {@code dataplane sidecar}: a service's sidecar, one TCP relay per {@code --listener}. */
@Command(name = "sidecar", sortOptions = false, description = "A service's sidecar: one TCP relay per --listener.",
        footer = {"",
            "  --listener name=N,port=P,upstream=HOST:PORT[|HOST:PORT...][,upstream-name=D][,tls=T][,sni=S][,peer-id=URI]",
            "      name           listener name (lower case, digits, '-'), e.g. mongo, inbound, to-customer",
            "      port           0 = any free port (reported in the ready line as listener.<name>)",
            "      upstream       where every connection is relayed; several, separated by '|', are replicas",
            "                     of one service: each new connection goes to the next one in turn (round",
            "                     robin per connection, not per request; no HTTP parsing). One that refuses",
            "                     the connection is not replaced by another: the client's connection is closed.",
            "                     GET /stats counts connections per upstream. Quote the spec in a shell, e.g.",
            "                     --listener 'name=to-customer,port=0,upstream=127.0.0.1:8081|127.0.0.1:8082'",
            "      upstream-name  the upstream's role, for logs (e.g. egress-gateway); one name for all replicas,",
            "                     as are sni and peer-id",
            "      tls            none (default): plain TCP relay, the app's own TLS passes untouched",
            "                     mtls-originate: wrap the stream in mutual TLS to the upstream (needs sni)",
            "                     mtls-terminate: accept only mutual TLS from clients with a certificate of the CA",
            "      sni            server name sent when originating mTLS (the external host, e.g. mongo.meshbench.test)",
            "      peer-id        expected URI SAN of the upstream's certificate (e.g. spiffe://.../sa/egress-gateway)",
            "", DataplaneCommand.READY_LINE_HELP, DataplaneCommand.READY_LINE})
final class SidecarCommand extends ProxyCommand {
    static final String LISTENER = "--listener";

    @Option(names = LISTENER, paramLabel = "SPEC", converter = ListenerSpecConverter.class,
            description = "Repeatable, at least one; SPEC below.")
    List<ListenerConfig> listeners = List.of();

    @Mixin
    TlsFileOptions tlsFiles;

    @Override
    List<ListenerConfig> listeners() {
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException(LISTENER + " is required (at least one, e.g. name=mongo,port=0,upstream=127.0.0.1:27017)");
        }
        return listeners;
    }

    @Override
    List<String> listenerOptions() {
        return List.of(LISTENER);
    }

    /** Each listener's {@code --listener} value as given. */
    @Override
    Map<String, String> listenerSpecs(List<ListenerConfig> listeners, ParseResult parsed) {
        List<String> given = parsed == null || !parsed.hasMatchedOption(LISTENER) ? List.of()
                : parsed.matchedOption(LISTENER).originalStringValues();
        Map<String, String> specs = new LinkedHashMap<>();
        for (int i = 0; i < listeners.size() && i < given.size(); i++) {
            specs.put(listeners.get(i).name(), given.get(i));
        }
        return specs;
    }

    @Override
    TlsMaterial tls(boolean needed) {
        return tlsFiles.material(needed);
    }
}
