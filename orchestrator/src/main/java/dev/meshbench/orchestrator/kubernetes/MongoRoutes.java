package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.model.EgressCase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What an Istio proxy does with MongoDB's connections, as its own Envoy says (its listeners' and clusters' config
 * dumps), and what each case makes it do. A route is one filter chain that takes MongoDB's TLS by its server name:
 * which names it matches, whether it ends TLS there, the cluster it sends the bytes to and whether that cluster starts
 * TLS of its own. The cases differ exactly there ({@code istio-config/cases}):
 *
 * <table>
 *   <caption>MongoDB's route in each proxy, per case (H the host, W its wildcard)</caption>
 *   <tr><th>case</th><th>sidecar (port 27017)</th><th>Istio's egress gateway</th><th>the kit's egress gateway</th></tr>
 *   <tr><td>bypass</td><td>none (istio-init leaves MongoDB's address alone)</td><td>none</td><td>not deployed</td></tr>
 *   <tr><td>sidecar</td><td>H to {@code outbound|27017||H}</td><td>none</td><td>not deployed</td></tr>
 *   <tr><td>gateway</td><td>H to {@code outbound|443|mongo|istio-egressgateway...}</td><td>H, passed through, to
 *       {@code outbound|27017||H}</td><td>not deployed</td></tr>
 *   <tr><td>mtls</td><td>as gateway, the cluster starting Istio's mTLS with SNI H</td><td>H, mTLS ended, to
 *       {@code outbound|27017||H}</td><td>not deployed</td></tr>
 *   <tr><td>sni</td><td>W to {@code outbound|443|mongo|meshbench-egressgateway...}, mTLS with SNI H</td><td>none</td>
 *       <td>W, mTLS ended, to {@code outbound|27017||sni-proxy.local}</td></tr>
 * </table>
 */
final class MongoRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The Envoy filter that carries a TLS or TCP connection to a cluster. */
    static final String TCP_PROXY = "envoy.filters.network.tcp_proxy";

    /** The kinds of Istio proxy on a MongoDB path. */
    enum Proxy {
        SIDECAR("sidecar"), ISTIO_EGRESS_GATEWAY("Istio's egress gateway"), KIT_EGRESS_GATEWAY("the kit's egress gateway");

        private final String words;

        Proxy(String words) {
            this.words = words;
        }

        String words() {
            return words;
        }
    }

    /**
     * One filter chain on MongoDB's path.
     *
     * @param serverNames the names it matches (the host or its wildcard), sorted
     * @param endsTls     whether the chain ends TLS itself (a gateway in mtls and sni); else the app's TLS passes through
     * @param cluster     where it sends the bytes
     * @param startsTls   the SNI of the TLS its cluster starts (Istio's mTLS to a gateway), or empty for none
     */
    record Route(List<String> serverNames, boolean endsTls, String cluster, Optional<String> startsTls) {
        Route {
            serverNames = serverNames.stream().sorted().toList();
            Objects.requireNonNull(cluster, "cluster");
            Objects.requireNonNull(startsTls, "startsTls");
        }

        @Override
        public String toString() {
            return "SNI " + String.join(",", serverNames) + (endsTls ? " (TLS ended here)" : "") + " -> " + cluster
                    + startsTls.map(sni -> " (TLS started, SNI " + sni + ")").orElse("");
        }
    }

    /**
     * What the cases need to know about the cluster: MongoDB's host, port, wildcard and address (CIDR, what bypass
     * leaves out of the sidecars), and where the gateways run.
     */
    record Mesh(String host, int port, String wildcard, String cidr, String namespace, String egressGatewayNamespace) {
        Mesh {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(cidr, "cidr");
            Objects.requireNonNull(wildcard, "wildcard");
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(egressGatewayNamespace, "egressGatewayNamespace");
        }

        static Mesh of(KubernetesSettings s) {
            KubernetesSettings.Mongo m = s.requireMongo();
            return new Mesh(m.host(), m.uri().getPort() > 0 ? m.uri().getPort() : 27017, m.wildcard(), m.cidr(),
                    s.namespace(), s.egressGatewayNamespace());
        }

        /** The port on which a sidecar takes MongoDB's connections: the app's MongoDB port. Gateways: any port. */
        OptionalInt listenerPort(Proxy proxy) {
            return proxy == Proxy.SIDECAR ? OptionalInt.of(port) : OptionalInt.empty();
        }
    }

    private MongoRoutes() {
    }

    /** The routes case {@code c} gives a proxy of kind {@code proxy}; empty where MongoDB does not pass it. */
    static Set<Route> expected(EgressCase c, Proxy proxy, Mesh mesh) {
        String h = mesh.host();
        String mongoCluster = "outbound|" + mesh.port() + "||" + h;
        String istioGateway = "outbound|443|mongo|istio-egressgateway." + mesh.egressGatewayNamespace() + ".svc.cluster.local";
        String kitGateway = "outbound|443|mongo|" + KubernetesDeployment.KIT_GATEWAY + "." + mesh.namespace() + ".svc.cluster.local";
        Route route = switch (proxy) {
            case SIDECAR -> switch (c) {
                case BYPASS -> null;
                case SIDECAR -> new Route(List.of(h), false, mongoCluster, Optional.empty());
                case GATEWAY -> new Route(List.of(h), false, istioGateway, Optional.empty());
                case MTLS -> new Route(List.of(h), false, istioGateway, Optional.of(h));
                case SNI -> new Route(List.of(mesh.wildcard()), false, kitGateway, Optional.of(h));
            };
            case ISTIO_EGRESS_GATEWAY -> switch (c) {
                case BYPASS, SIDECAR, SNI -> null;
                case GATEWAY -> new Route(List.of(h), false, mongoCluster, Optional.empty());
                case MTLS -> new Route(List.of(h), true, mongoCluster, Optional.empty());
            };
            case KIT_EGRESS_GATEWAY -> switch (c) {
                case BYPASS, SIDECAR, GATEWAY, MTLS -> null;
                case SNI -> new Route(List.of(mesh.wildcard()), true, "outbound|27017||sni-proxy.local", Optional.empty());
            };
        };
        return route == null ? Set.of() : Set.of(route);
    }

    /** The cases whose routes for {@code proxy} are {@code routes}, for messages ("as in case mtls"). */
    static List<EgressCase> casesWith(Set<Route> routes, Proxy proxy, Mesh mesh) {
        List<EgressCase> out = new ArrayList<>();
        for (EgressCase c : EgressCase.values()) {
            if (expected(c, proxy, mesh).equals(routes)) {
                out.add(c);
            }
        }
        return out;
    }

    /** {@code routes} in words, sorted; "no route for MongoDB" when empty. */
    static String describe(Set<Route> routes) {
        return routes.isEmpty() ? "no route for MongoDB"
                : routes.stream().map(Route::toString).sorted().collect(Collectors.joining("; "));
    }

    /**
     * The routes an Envoy has for MongoDB: every active filter chain (on {@code port} only, if given) that matches
     * MongoDB's host by server name (the host itself or a wildcard covering it) and ends in a TCP proxy.
     *
     * @param listenersDump {@code config_dump?resource=dynamic_listeners}
     * @param clustersDump  {@code config_dump?resource=dynamic_active_clusters}
     * @throws IllegalArgumentException a dump that is not JSON, naming which
     */
    static Set<Route> observed(String listenersDump, String clustersDump, String host, OptionalInt port) {
        JsonNode listeners = parse(listenersDump, "the listeners' config dump");
        JsonNode clusters = parse(clustersDump, "the clusters' config dump");
        Set<Route> routes = new TreeSet<>(Comparator.comparing(Route::toString));
        for (JsonNode listener : activeListeners(listeners)) {
            int listenerPort = listener.path("address").path("socket_address").path("port_value").asInt(-1);
            if (port.isPresent() && listenerPort != port.getAsInt()) {
                continue;
            }
            for (JsonNode chain : listener.path("filter_chains")) {
                List<String> names = new ArrayList<>();
                chain.path("filter_chain_match").path("server_names").forEach(n -> names.add(n.asText()));
                if (names.stream().noneMatch(n -> covers(n, host))) {
                    continue;
                }
                for (JsonNode filter : chain.path("filters")) {
                    if (!TCP_PROXY.equals(filter.path("name").asText())) {
                        continue;
                    }
                    for (String cluster : tcpProxyClusters(filter.path("typed_config"))) {
                        routes.add(new Route(names, chain.has("transport_socket"), cluster, startsTls(clusters, cluster)));
                    }
                }
            }
        }
        return Set.copyOf(routes);
    }

    /**
     * The healthy endpoints of {@code cluster} in Envoy's {@code clusters} text ({@code name::address::health_flags::healthy}).
     */
    static int healthyEndpoints(String clustersText, String cluster) {
        String prefix = cluster + "::";
        Set<String> healthy = new TreeSet<>();
        String suffix = "::health_flags::healthy";
        for (String line : clustersText.split("\n")) {
            String l = line.strip();
            if (l.startsWith(prefix) && l.endsWith(suffix) && l.length() > prefix.length() + suffix.length()) {
                healthy.add(l.substring(prefix.length(), l.length() - suffix.length()));
            }
        }
        return healthy.size();
    }

    /**
     * Envoy's count of listeners and filter chains still draining after an update (its {@code listener_manager} gauges):
     * connections taken on the routes before it, which Envoy closes when its drain time ends. Empty when the stats
     * do not have the gauges.
     */
    static OptionalInt draining(String statsText) {
        int total = 0;
        boolean seen = false;
        for (String line : statsText.split("\n")) {
            String[] kv = line.split(":\\s*", 2);
            if (kv.length == 2 && (kv[0].equals("listener_manager.total_filter_chains_draining")
                    || kv[0].equals("listener_manager.total_listeners_draining"))) {
                seen = true;
                try {
                    total += Integer.parseInt(kv[1].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("Envoy's stat " + kv[0] + " is not a number: " + kv[1]);
                }
            }
        }
        return seen ? OptionalInt.of(total) : OptionalInt.empty();
    }

    /** Whether a server name of a filter chain ({@code mongo.x.test} or {@code *.x.test}) covers {@code host}. */
    static boolean covers(String serverName, String host) {
        String n = serverName.toLowerCase(Locale.ROOT);
        String h = host.toLowerCase(Locale.ROOT);
        return n.equals(h) || (n.startsWith("*.") && h.endsWith(n.substring(1)) && h.length() > n.length() - 1);
    }

    private static List<JsonNode> activeListeners(JsonNode dump) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode config : dump.path("configs")) {
            // Without resource=: one ListenersConfigDump with dynamic_listeners; with it: each DynamicListener.
            JsonNode dynamic = config.has("dynamic_listeners") ? config.path("dynamic_listeners") : null;
            if (dynamic != null) {
                dynamic.forEach(l -> addActive(l, out));
            } else {
                addActive(config, out);
            }
        }
        return out;
    }

    private static void addActive(JsonNode dynamicListener, List<JsonNode> out) {
        JsonNode l = dynamicListener.path("active_state").path("listener");
        if (!l.isMissingNode()) {
            out.add(l);
        }
    }

    private static List<String> tcpProxyClusters(JsonNode tcpProxy) {
        if (tcpProxy.hasNonNull("cluster")) {
            return List.of(tcpProxy.path("cluster").asText());
        }
        List<String> out = new ArrayList<>();
        tcpProxy.path("weighted_clusters").path("clusters").forEach(c -> out.add(c.path("name").asText()));
        return out;
    }

    /** The SNI of the TLS the cluster starts, "" for TLS without one; empty when it starts none (or is unknown). */
    private static Optional<String> startsTls(JsonNode clustersDump, String name) {
        for (JsonNode config : clustersDump.path("configs")) {
            List<JsonNode> candidates = new ArrayList<>();
            if (config.has("dynamic_active_clusters")) {
                config.path("dynamic_active_clusters").forEach(candidates::add);
            } else {
                candidates.add(config);
            }
            for (JsonNode dc : candidates) {
                JsonNode cluster = dc.path("cluster");
                if (name.equals(cluster.path("name").asText())) {
                    JsonNode socket = cluster.path("transport_socket");
                    if (socket.path("name").asText().contains("tls")) {
                        return Optional.of(socket.path("typed_config").path("sni").asText(""));
                    }
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static JsonNode parse(String text, String what) {
        try {
            JsonNode n = JSON.readTree(text);
            if (n == null || !n.isObject()) {
                throw new IllegalArgumentException(what + " is not a JSON object: " + abbreviate(text));
            }
            return n;
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " is not JSON (" + e.getMessage() + "): " + abbreviate(text));
        }
    }

    static String abbreviate(String s) {
        String t = s == null ? "" : s.strip().replaceAll("\\s+", " ");
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }
}
