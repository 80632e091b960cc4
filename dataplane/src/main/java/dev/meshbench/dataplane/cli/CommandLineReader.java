package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.Ports;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.pki.PkiException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Turns the arguments of one command into a {@link ComponentConfig}; every error names the option. */
public final class CommandLineReader {
    /** Listener name of the egress gateway. */
    public static final String GATEWAY_LISTENER = "egress";
    /** Listener name of the SNI proxy. */
    public static final String SNI_PROXY_LISTENER = "sni";

    static final String NAME = "--name";
    static final String BIND_HOST = "--bind-host";
    static final String ADMIN_PORT = "--admin-port";
    static final String IO_THREADS = "--io-threads";
    static final String TLS_PROVIDER = TlsProvider.OPTION;
    static final String LISTENER = "--listener";
    static final String LISTEN_PORT = "--listen-port";
    static final String MODE = "--mode";
    static final String ROUTE = "--route";
    static final String CA_FILE = "--ca-file";
    static final String CERT_FILE = "--cert-file";
    static final String KEY_FILE = "--key-file";
    static final String EXIT_ON_STDIN_EOF = "--exit-on-stdin-eof";
    static final String HELP = "--help";

    private static final Set<String> COMMON = Set.of(NAME, BIND_HOST, ADMIN_PORT, IO_THREADS, TLS_PROVIDER);
    private static final Set<String> TLS_FILES = Set.of(CA_FILE, CERT_FILE, KEY_FILE);
    private static final Set<String> FLAGS = Set.of(EXIT_ON_STDIN_EOF, HELP);
    private static final Set<String> LISTENER_KEYS = Set.of("name", "port", "upstream", "upstream-name", "tls", "sni", "peer-id");
    private static final Set<String> ROUTE_KEYS = Set.of("upstream-name");

    /** What {@code main} should start. */
    public record LaunchPlan(ComponentConfig config, boolean exitOnStdinEof, boolean help) {
    }

    private CommandLineReader() {
    }

    public static LaunchPlan read(Command command, List<String> args) throws UsageException {
        ParsedArguments p = ParsedArguments.parse(args, singleOptions(command), repeatable(command), FLAGS);
        if (p.flag(HELP)) {
            return new LaunchPlan(null, false, true);
        }
        String name = p.require(NAME);
        List<ListenerConfig> listeners = switch (command) {
            case SIDECAR -> sidecarListeners(p);
            case EGRESS_GATEWAY -> List.of(gatewayListener(p));
            case SNI_PROXY -> List.of(ListenerConfig.sniPassthrough(SNI_PROXY_LISTENER, port(p, LISTEN_PORT), routes(p)));
        };
        TlsMaterial tls = tlsMaterial(p, listeners.stream().anyMatch(ListenerConfig::usesMtls));
        TlsProvider tlsProvider = tlsProvider(p);
        try {
            ComponentConfig config = new ComponentConfig(name, p.get(BIND_HOST, ComponentConfig.DEFAULT_BIND_HOST),
                    port(p, ADMIN_PORT), ioThreads(p), listeners, tls, tlsProvider);
            return new LaunchPlan(config, p.flag(EXIT_ON_STDIN_EOF), false);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static Set<String> singleOptions(Command c) {
        Set<String> s = new java.util.HashSet<>(COMMON);
        switch (c) {
            case SIDECAR -> s.addAll(TLS_FILES);
            case EGRESS_GATEWAY -> {
                s.addAll(TLS_FILES);
                s.add(LISTEN_PORT);
                s.add(MODE);
            }
            case SNI_PROXY -> s.add(LISTEN_PORT);
        }
        return s;
    }

    private static Set<String> repeatable(Command c) {
        return switch (c) {
            case SIDECAR -> Set.of(LISTENER);
            case EGRESS_GATEWAY, SNI_PROXY -> Set.of(ROUTE);
        };
    }

    private static int port(ParsedArguments p, String option) throws UsageException {
        try {
            return Ports.parse(p.get(option, "0"), option, 0);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static int ioThreads(ParsedArguments p) throws UsageException {
        String v = p.get(IO_THREADS, "0");
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0 || n > 256) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(IO_THREADS + " must be a number 0-256, 0 meaning Netty's default (got '" + v + "')");
        }
    }

    /**
     * Checked here, so that {@code boringssl} where BoringSSL is not usable is bad input, not a start failure; kept
     * as given ({@code auto} stays {@code auto}), so that the component logs what auto chose when it starts.
     */
    private static TlsProvider tlsProvider(ParsedArguments p) throws UsageException {
        try {
            TlsProvider requested = TlsProvider.parse(p.get(TLS_PROVIDER, TlsProvider.DEFAULT.word()));
            requested.resolve();
            return requested;
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static List<ListenerConfig> sidecarListeners(ParsedArguments p) throws UsageException {
        List<String> specs = p.all(LISTENER);
        if (specs.isEmpty()) {
            throw new UsageException(LISTENER + " is required (at least one, e.g. name=mongo,port=0,upstream=127.0.0.1:27017)");
        }
        List<ListenerConfig> out = new ArrayList<>();
        for (String spec : specs) {
            try {
                out.add(listener(spec));
            } catch (IllegalArgumentException e) {
                throw new UsageException(LISTENER + " '" + spec + "': " + e.getMessage());
            }
        }
        return out;
    }

    /**
     * {@code name=N,port=P,upstream=H:P[|H:P...][,upstream-name=D][,tls=none|mtls-originate|mtls-terminate][,sni=S][,peer-id=URI]}.
     * Several upstreams are the replicas of one service: one name, and with mtls-originate one {@code sni} and
     * {@code peer-id} for all; the listener takes them in turn per connection ({@link Routing.RoundRobin}).
     */
    static ListenerConfig listener(String spec) {
        Map<String, String> kv = keyValues(spec, LISTENER_KEYS);
        String name = required(kv, "name");
        int port = Ports.parse(required(kv, "port"), "port", 0);
        Routing routing = Routing.of(upstreams(required(kv, "upstream"), kv.get("upstream-name")));
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

    private static ListenerConfig gatewayListener(ParsedArguments p) throws UsageException {
        String mode = p.require(MODE);
        int port = port(p, LISTEN_PORT);
        RouteTable routes = routes(p);
        return switch (mode) {
            case "sni-passthrough" -> ListenerConfig.sniPassthrough(GATEWAY_LISTENER, port, routes);
            case "mtls" -> ListenerConfig.mtlsTerminating(GATEWAY_LISTENER, port, routes);
            default -> throw new UsageException(MODE + " must be sni-passthrough or mtls (got '" + mode + "')");
        };
    }

    private static RouteTable routes(ParsedArguments p) throws UsageException {
        List<String> specs = p.all(ROUTE);
        if (specs.isEmpty()) {
            throw new UsageException(ROUTE + " is required (at least one, e.g. '*.meshbench.test=127.0.0.1:27017')");
        }
        List<RouteTable.Route> routes = new ArrayList<>();
        for (String spec : specs) {
            try {
                routes.add(route(spec));
            } catch (IllegalArgumentException e) {
                throw new UsageException(ROUTE + " '" + spec + "': " + e.getMessage());
            }
        }
        try {
            return new RouteTable(routes);
        } catch (IllegalArgumentException e) {
            throw new UsageException(ROUTE + ": " + e.getMessage());
        }
    }

    /** {@code PATTERN=HOST:PORT[,upstream-name=NAME]}. */
    static RouteTable.Route route(String spec) {
        int comma = spec.indexOf(',');
        String head = comma < 0 ? spec : spec.substring(0, comma);
        int eq = head.indexOf('=');
        if (eq <= 0 || eq == head.length() - 1) {
            throw new IllegalArgumentException("a route is PATTERN=HOST:PORT[,upstream-name=NAME]");
        }
        Map<String, String> kv = comma < 0 ? Map.of() : keyValues(spec.substring(comma + 1), ROUTE_KEYS);
        return new RouteTable.Route(head.substring(0, eq), Upstream.of(HostAndPort.parse(head.substring(eq + 1)), kv.get("upstream-name")));
    }

    private static TlsMaterial tlsMaterial(ParsedArguments p, boolean needed) throws UsageException {
        boolean any = p.has(CA_FILE) || p.has(CERT_FILE) || p.has(KEY_FILE);
        if (!any && !needed) {
            return null;
        }
        for (String o : List.of(CA_FILE, CERT_FILE, KEY_FILE)) {
            if (!p.has(o)) {
                throw new UsageException(o + " is required " + (needed ? "for mutual TLS" : "with " + CA_FILE + ", " + CERT_FILE
                        + " and " + KEY_FILE) + " (give all three)");
            }
        }
        try {
            return TlsMaterial.fromPemFiles(Path.of(p.get(CA_FILE, null)), Path.of(p.get(CERT_FILE, null)), Path.of(p.get(KEY_FILE, null)));
        } catch (PkiException | IllegalArgumentException e) {
            throw new UsageException(CA_FILE + "/" + CERT_FILE + "/" + KEY_FILE + ": " + e.getMessage());
        }
    }

    private static Map<String, String> keyValues(String spec, Set<String> allowed) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : spec.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + part + "' is not key=value");
            }
            String k = part.substring(0, eq).trim();
            if (!allowed.contains(k)) {
                throw new IllegalArgumentException("unknown key '" + k + "' (allowed: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
            if (kv.put(k, part.substring(eq + 1).trim()) != null) {
                throw new IllegalArgumentException("key '" + k + "' is given twice");
            }
        }
        return kv;
    }

    private static String required(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("missing " + key + "=");
        }
        return v;
    }

    private static URI uri(String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("peer-id is not a URI: " + e.getMessage());
        }
    }
}
