package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.Ports;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A sidecar's {@code --listener} value:
 * {@code name=N,port=P,upstream=H:P[|H:P...][,upstream-name=D][,tls=none|mtls-originate|mtls-terminate][,sni=S][,peer-id=URI]}.
 * Several upstreams are the replicas of one service: one name, and with mtls-originate one {@code sni} and
 * {@code peer-id} for all; the listener takes them in turn per connection ({@link Routing.RoundRobin}). An error
 * quotes the spec and says what is wrong: {@code --listener 'name=a,port=x': port must be a number 0-65535 (got 'x')}.
 */
public final class ListenerSpecConverter implements ITypeConverter<ListenerConfig> {
    private static final Set<String> KEYS = Set.of("name", "port", "upstream", "upstream-name", "tls", "sni", "peer-id");

    @Override
    public ListenerConfig convert(String spec) {
        try {
            return listener(spec);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + spec + "': " + e.getMessage());
        }
    }

    static ListenerConfig listener(String spec) {
        Map<String, String> kv = KeyValues.parse(spec, KEYS);
        String name = KeyValues.required(kv, "name");
        int port = Ports.parse(KeyValues.required(kv, "port"), "port", 0);
        Routing routing = Routing.of(upstreams(KeyValues.required(kv, "upstream"), kv.get("upstream-name")));
        String tls = kv.getOrDefault("tls", "none");
        switch (tls) {
            case "none", "mtls-terminate" -> {
                if (kv.containsKey("sni") || kv.containsKey("peer-id")) {
                    throw new IllegalArgumentException("sni and peer-id apply only with tls=mtls-originate");
                }
                return new ListenerConfig(name, port, tls.equals("mtls-terminate"), routing, UpstreamTls.NONE);
            }
            case "mtls-originate" -> {
                String sni = kv.get("sni");
                if (sni == null) {
                    throw new IllegalArgumentException("tls=mtls-originate needs sni=<host the app connects to>");
                }
                URI peer = kv.containsKey("peer-id") ? uri(kv.get("peer-id")) : null;
                return new ListenerConfig(name, port, false, routing, new UpstreamTls.MutualTls(sni, peer));
            }
            default -> throw new IllegalArgumentException("tls must be none, mtls-originate or mtls-terminate (got '" + tls + "')");
        }
    }

    /** {@code H:P}, or {@code H1:P1|H2:P2|...} for replicas; every one named {@code displayName}. */
    private static List<Upstream> upstreams(String text, String displayName) {
        List<Upstream> out = new ArrayList<>();
        for (String part : text.split("\\|", -1)) {
            if (part.isBlank()) {
                throw new IllegalArgumentException("upstream '" + text + "' has an empty entry (replicas are HOST:PORT|HOST:PORT|...)");
            }
            out.add(Upstream.of(HostAndPort.parse(part), displayName));
        }
        return out;
    }

    private static URI uri(String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("peer-id is not a URI: " + e.getMessage());
        }
    }
}
