package dev.meshbench.orchestrator.local.envoynginx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.meshbench.component.AcmeairApi;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan.InboundTls;
import dev.meshbench.orchestrator.plan.ListenerPlan.OriginateMtls;
import dev.meshbench.orchestrator.plan.ListenerPlan.PathRoute;
import dev.meshbench.orchestrator.plan.ListenerPlan.Protocol;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import dev.meshbench.orchestrator.plan.ListenerPlan.ServerNameRoute;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A sidecar's or a gateway's Envoy v3 listeners and clusters ({@link #resources}), rendered from the plan as Istio's
 * control plane would push the same routes (see {@code orchestrator/ENVOY.md} for where it differs and why). The
 * running Envoys get them as LDS / CDS documents ({@link EnvoyConfigs}); {@link #render} puts them in a static
 * bootstrap, which {@code envoy --mode validate} can check. What they hold:
 * <ul>
 *   <li>one listener per plan listener, named and stat-prefixed by the listener's name, on {@code 127.0.0.1};</li>
 *   <li>HTTP listeners: an HTTP connection manager with one catch-all route to the upstream cluster (no route
 *       timeout, as Istio's default); the ingress gateway's instead one route per operation of the plan (method and
 *       path), with paths normalized and escaped slashes refused, so anything else answers 404; a {@code MESH_MTLS} listener requires a client certificate of the mesh CA
 *       (any mesh identity, as Istio's inbound) and forwards the peer's identity in {@code x-forwarded-client-cert};</li>
 *   <li>TCP listeners routing by server name: {@code tls_inspector} and one filter chain per upstream matched on
 *       {@code server_names}; no default chain, so a name no route matches is refused
 *       ({@code listener.<name>.no_filter_chain_match}); a {@code MESH_MTLS} listener terminates the tunnel in
 *       that chain, so it matches the tunnel's server name;</li>
 *   <li>one {@code STATIC} cluster per upstream ({@link EnvoyClusterNames}), HTTP/1.1 with keep-alive for HTTP
 *       listeners, circuit breakers raised to Istio's 4294967295 (with {@code track_remaining}, as Istio), connect
 *       timeout 10 s (Istio's default {@code connectTimeout}); a listener that originates
 *       mTLS gives its cluster an {@code UpstreamTlsContext} with the plan's SNI and the peer's SPIFFE id as the
 *       only accepted URI SAN.</li>
 * </ul>
 * Keys are written in a fixed order and the file holds only paths to key material, never keys.
 */
public final class EnvoyBootstrapRenderer {
    /** Istio's "no limit" for circuit breakers: the largest value of the uint32 fields. */
    static final long UNLIMITED = 4294967295L;
    static final String CONNECT_TIMEOUT = "10s";

    private static final String TYPE = "@type";
    private static final String API = "type.googleapis.com/envoy.extensions.";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build();

    private EnvoyBootstrapRenderer() {
    }

    /**
     * The static bootstrap YAML of {@code proxy} (a sidecar, the egress gateway or an ingress gateway): node, admin and
     * {@link #resources} as {@code static_resources}. The kit runs its Envoys on {@link EnvoyConfigs} (the same
     * resources served from files); this form is what {@code envoy --mode validate} can check, since validation does
     * not read dynamic resources.
     */
    public static String render(TopologyPlan plan, ComponentPlan proxy, LocalAddresses addrs, MeshFiles files) {
        return yaml(bootstrap(plan, proxy, addrs, files), "bootstrap of " + proxy.name());
    }

    static ObjectNode bootstrap(TopologyPlan plan, ComponentPlan proxy, LocalAddresses addrs, MeshFiles files) {
        Resources r = resources(plan, proxy, addrs, files);
        ObjectNode root = nodeAndAdmin(proxy, addrs);
        ObjectNode resources = root.putObject("static_resources");
        resources.putArray("listeners").addAll(r.listeners());
        resources.putArray("clusters").addAll(r.clusters());
        return root;
    }

    /**
     * The start of every bootstrap of {@code proxy}: {@code node} (id and cluster: the component's name) and
     * {@code admin} on its admin port, access log to {@code /dev/null}.
     */
    static ObjectNode nodeAndAdmin(ComponentPlan proxy, LocalAddresses addrs) {
        checkEnvoyRuns(proxy);
        ObjectNode root = F.objectNode();
        ObjectNode node = root.putObject("node");
        node.put("id", proxy.name());
        node.put("cluster", proxy.name());

        ObjectNode admin = root.putObject("admin");
        admin.putArray("access_log").add(fileAccessLog("/dev/null"));
        admin.set("address", socketAddress(LocalAddresses.HOST, addrs.adminPort(proxy.name())));
        return root;
    }

    /**
     * A proxy's listeners and clusters as Envoy v3 resources (without {@code @type}), in plan order: the one place
     * where a {@link ListenerPlan} becomes an Envoy listener and its upstreams become clusters.
     *
     * @param listeners one per plan listener
     * @param clusters  one per distinct upstream cluster ({@link EnvoyClusterNames}), in the order listeners first
     *                  name them
     */
    record Resources(List<ObjectNode> listeners, List<ObjectNode> clusters) {
        Resources {
            listeners = List.copyOf(listeners);
            clusters = List.copyOf(clusters);
        }
    }

    static Resources resources(TopologyPlan plan, ComponentPlan proxy, LocalAddresses addrs, MeshFiles files) {
        checkEnvoyRuns(proxy);
        plan.component(proxy.name()); // the proxy must belong to the plan
        Optional<Certificates> certs = proxy.usesMeshMtls()
                ? Optional.of(new Certificates(files.caPem().toString(), files.certChain(proxy.name()).toString(),
                        files.key(proxy.name()).toString()))
                : Optional.empty();
        List<ObjectNode> listeners = new ArrayList<>();
        Map<String, ObjectNode> clusters = new LinkedHashMap<>();
        for (ListenerPlan l : proxy.listeners()) {
            listeners.add(listener(plan, proxy, l, addrs, certs, clusters));
        }
        return new Resources(listeners, new ArrayList<>(clusters.values()));
    }

    /** The names of the clusters {@link #resources} renders for {@code proxy}, in the same order. */
    static List<String> clusterNames(ComponentPlan proxy, LocalAddresses addrs) {
        checkEnvoyRuns(proxy);
        return proxy.listeners().stream().flatMap(l -> clustersOf(l, addrs).keySet().stream()).distinct().toList();
    }

    /**
     * The clusters a listener sends to, by name, with the upstreams of each: one per upstream, or one for all the
     * replicas of a round-robin service.
     */
    private static Map<String, List<Endpoint>> clustersOf(ListenerPlan l, LocalAddresses addrs) {
        Map<String, List<Endpoint>> out = new LinkedHashMap<>();
        if (l.routing().orElse(null) instanceof Routing.RoundRobin rr) {
            out.put(EnvoyClusterNames.ofService(rr.host()), rr.upstreams());
        } else {
            for (Endpoint up : l.upstreams()) {
                String name = EnvoyClusterNames.of(up, addrs);
                List<Endpoint> before = out.putIfAbsent(name, List.of(up));
                if (before != null) {
                    throw new IllegalStateException("two different clusters would be named " + name + ": to " + before + " and to " + up);
                }
            }
        }
        return out;
    }

    private static void checkEnvoyRuns(ComponentPlan proxy) {
        if (proxy.kind() != ComponentKind.SIDECAR && proxy.kind() != ComponentKind.EGRESS_GATEWAY
                && proxy.kind() != ComponentKind.INGRESS_GATEWAY) {
            throw new IllegalArgumentException("Envoy runs sidecars and the gateways, not " + proxy.name() + " (" + proxy.kind() + ")");
        }
    }

    /** {@code node} as YAML in the kit's fixed style. */
    static String yaml(ObjectNode node, String what) {
        try {
            return YAML.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("writing the Envoy " + what + " failed", e);
        }
    }

    private static ObjectNode listener(TopologyPlan plan, ComponentPlan proxy, ListenerPlan l, LocalAddresses addrs,
            Optional<Certificates> certs, Map<String, ObjectNode> clusters) {
        Routing routing = l.routing().orElseThrow(() ->
                new IllegalArgumentException(proxy.name() + "/" + l.name() + " has no upstream: a proxy listener must relay"));
        if (l.inbound() == InboundTls.SERVER_TLS) {
            throw new IllegalArgumentException(proxy.name() + "/" + l.name() + ": a proxy listener cannot end the app's own TLS");
        }
        clustersOf(l, addrs).forEach((name, upstreams) -> addCluster(clusters, cluster(plan, proxy, l, name, upstreams, addrs, certs)));

        ObjectNode out = F.objectNode();
        out.put("name", l.name());
        out.put("stat_prefix", l.name());
        out.set("address", socketAddress(LocalAddresses.HOST, addrs.port(proxy.name(), l.name())));
        if (routing instanceof Routing.ByServerName) {
            out.putArray("listener_filters").add(typed("envoy.filters.listener.tls_inspector",
                    API + "filters.listener.tls_inspector.v3.TlsInspector"));
        }
        ArrayNode chains = out.putArray("filter_chains");
        if (routing instanceof Routing.Fixed fixed) {
            chains.add(filterChain(proxy, l, List.of(), everything(EnvoyClusterNames.of(fixed.upstream(), addrs)), certs));
        } else if (routing instanceof Routing.RoundRobin rr) {
            chains.add(filterChain(proxy, l, List.of(), everything(EnvoyClusterNames.ofService(rr.host())), certs));
        } else if (routing instanceof Routing.ByPath byPath) {
            // One route per operation, as Istio renders a VirtualService's method + uri matches; no catch-all.
            List<HttpRoute> routes = byPath.routes().stream()
                    .map(r -> new HttpRoute(operationMatch(r), EnvoyClusterNames.of(r.upstream(), addrs))).toList();
            chains.add(filterChain(proxy, l, List.of(), routes, certs));
        } else {
            if (l.protocol() == Protocol.HTTP) {
                throw new IllegalArgumentException(proxy.name() + "/" + l.name() + ": routing HTTP by server name is not supported");
            }
            Map<Endpoint, List<String>> namesByUpstream = new LinkedHashMap<>();
            for (ServerNameRoute r : ((Routing.ByServerName) routing).routes()) {
                namesByUpstream.computeIfAbsent(r.upstream(), u -> new ArrayList<>()).add(r.pattern());
            }
            namesByUpstream.forEach((up, names) -> chains.add(filterChain(proxy, l, names, everything(EnvoyClusterNames.of(up, addrs)), certs)));
        }
        return out;
    }

    private static ObjectNode filterChain(ComponentPlan proxy, ListenerPlan l, List<String> serverNames, List<HttpRoute> routes,
            Optional<Certificates> certs) {
        ObjectNode chain = F.objectNode();
        if (!serverNames.isEmpty()) {
            ArrayNode names = chain.putObject("filter_chain_match").putArray("server_names");
            serverNames.forEach(names::add);
        }
        ArrayNode filters = chain.putArray("filters");
        filters.add(switch (l.protocol()) {
            case HTTP -> httpConnectionManager(l, routes);
            case TCP -> tcpProxy(l, only(proxy, l, routes));
        });
        if (l.inbound() == InboundTls.MESH_MTLS) {
            Certificates c = certs.orElseThrow(() -> new IllegalArgumentException(proxy.name() + " terminates mTLS but has no certificate"));
            ObjectNode tls = typedConfig(API + "transport_sockets.tls.v3.DownstreamTlsContext");
            tls.put("require_client_certificate", true);
            ObjectNode common = commonTls(c);
            // Istio's inbound accepts any identity of the mesh CA: no SAN match here.
            common.putObject("validation_context").set("trusted_ca", file(c.ca()));
            tls.set("common_tls_context", common);
            chain.set("transport_socket", transportSocket(tls));
        }
        return chain;
    }

    /** Every request to {@code cluster}. */
    private static List<HttpRoute> everything(String cluster) {
        return List.of(new HttpRoute(EVERYTHING, cluster));
    }

    private static final ObjectNode EVERYTHING = F.objectNode().put("prefix", "/");

    /**
     * The operation's method (header {@code :method}) and path: exact ({@code path}), or a template as a whole-path
     * RE2 regex ({@code safe_regex}, {@code {name}} = one segment), as Istio renders {@code uri: exact} and
     * {@code uri: regex}. Both match the path without its query.
     */
    private static ObjectNode operationMatch(PathRoute r) {
        AcmeairApi.Operation op = r.operation();
        ObjectNode match = F.objectNode();
        if (op.isTemplate()) {
            match.putObject("safe_regex").put("regex", op.regex());
        } else {
            match.put("path", op.path());
        }
        ObjectNode method = match.putArray("headers").addObject();
        method.put("name", ":method");
        method.putObject("string_match").put("exact", op.method());
        return match;
    }

    private static String only(ComponentPlan proxy, ListenerPlan l, List<HttpRoute> routes) {
        if (routes.size() != 1 || !routes.get(0).match().equals(EVERYTHING)) {
            throw new IllegalArgumentException(proxy.name() + "/" + l.name() + ": a TCP listener has one upstream, not routes " + routes);
        }
        return routes.get(0).cluster();
    }

    private static ObjectNode httpConnectionManager(ListenerPlan l, List<HttpRoute> routes) {
        ObjectNode hcm = typedConfig(API + "filters.network.http_connection_manager.v3.HttpConnectionManager");
        hcm.put("stat_prefix", l.name());
        hcm.put("codec_type", "AUTO");
        ObjectNode routeConfig = hcm.putObject("route_config");
        routeConfig.put("name", l.name());
        ObjectNode vhost = routeConfig.putArray("virtual_hosts").addObject();
        vhost.put("name", l.name());
        vhost.putArray("domains").add("*");
        ArrayNode routeArray = vhost.putArray("routes");
        for (HttpRoute r : routes) {
            ObjectNode route = routeArray.addObject();
            route.set("match", r.match().deepCopy());
            ObjectNode action = route.putObject("route");
            action.put("cluster", r.cluster());
            action.put("timeout", "0s");
        }
        hcm.putArray("http_filters").add(typed("envoy.filters.http.router", API + "filters.http.router.v3.Router"));
        hcm.put("use_remote_address", false);
        hcm.put("stream_idle_timeout", "0s");
        if (l.routing().orElse(null) instanceof Routing.ByPath) {
            // The entry routes what a client may reach on the path as Istio's gateways see it: dot segments
            // resolved and escapes of unreserved characters decoded (normalize_path), runs of '/' merged, and a path
            // with an escaped slash or backslash refused with 400, so no spelling reaches a path no route names.
            hcm.put("normalize_path", true);
            hcm.put("merge_slashes", true);
            hcm.put("path_with_escaped_slashes_action", "REJECT_REQUEST");
        }
        if (l.inbound() == InboundTls.MESH_MTLS) {
            hcm.put("forward_client_cert_details", "APPEND_FORWARD");
            ObjectNode details = hcm.putObject("set_current_client_cert_details");
            details.put("subject", true);
            details.put("dns", true);
            details.put("uri", true);
        }
        return named("envoy.filters.network.http_connection_manager", hcm);
    }

    private static ObjectNode tcpProxy(ListenerPlan l, String cluster) {
        ObjectNode tcp = typedConfig(API + "filters.network.tcp_proxy.v3.TcpProxy");
        tcp.put("stat_prefix", l.name());
        tcp.put("cluster", cluster);
        return named("envoy.filters.network.tcp_proxy", tcp);
    }

    /** A cluster over {@code upstreams}; several take turns (Envoy's default {@code ROUND_ROBIN}, as Istio's). */
    private static ObjectNode cluster(TopologyPlan plan, ComponentPlan proxy, ListenerPlan l, String name, List<Endpoint> upstreams,
            LocalAddresses addrs, Optional<Certificates> certs) {
        upstreams.forEach(plan::listener); // every upstream must be a listener of the plan
        ObjectNode c = F.objectNode();
        c.put("name", name);
        c.put("type", "STATIC");
        c.put("connect_timeout", CONNECT_TIMEOUT);
        ObjectNode thresholds = c.putObject("circuit_breakers").putArray("thresholds").addObject();
        thresholds.put("max_connections", UNLIMITED);
        thresholds.put("max_pending_requests", UNLIMITED);
        thresholds.put("max_requests", UNLIMITED);
        thresholds.put("max_retries", UNLIMITED);
        thresholds.put("track_remaining", true);
        ObjectNode assignment = c.putObject("load_assignment");
        assignment.put("cluster_name", name);
        ArrayNode lbEndpoints = assignment.putArray("endpoints").addObject().putArray("lb_endpoints");
        for (Endpoint upstream : upstreams) {
            lbEndpoints.addObject().putObject("endpoint").set("address", socketAddress(LocalAddresses.HOST, addrs.port(upstream)));
        }
        if (l.protocol() == Protocol.HTTP) {
            ObjectNode options = typedConfig(API + "upstreams.http.v3.HttpProtocolOptions");
            options.putObject("explicit_http_config").putObject("http_protocol_options");
            c.putObject("typed_extension_protocol_options").set("envoy.extensions.upstreams.http.v3.HttpProtocolOptions", options);
        }
        if (l.upstreamTls().isPresent()) {
            OriginateMtls mtls = l.upstreamTls().get();
            Certificates certificates = certs.orElseThrow(() -> new IllegalArgumentException(proxy.name() + " originates mTLS but has no certificate"));
            ObjectNode tls = typedConfig(API + "transport_sockets.tls.v3.UpstreamTlsContext");
            tls.put("sni", mtls.serverName());
            ObjectNode common = commonTls(certificates);
            ObjectNode validation = common.putObject("validation_context");
            validation.set("trusted_ca", file(certificates.ca()));
            ObjectNode san = validation.putArray("match_typed_subject_alt_names").addObject();
            san.put("san_type", "URI");
            san.putObject("matcher").put("exact", mtls.peer().spiffeId().toString());
            tls.set("common_tls_context", common);
            c.set("transport_socket", transportSocket(tls));
        }
        return c;
    }

    private static void addCluster(Map<String, ObjectNode> clusters, ObjectNode cluster) {
        String name = cluster.get("name").asText();
        ObjectNode existing = clusters.putIfAbsent(name, cluster);
        if (existing != null && !existing.equals(cluster)) {
            throw new IllegalStateException("two different clusters would be named " + name + ": " + existing + " and " + cluster);
        }
    }

    private static ObjectNode commonTls(Certificates c) {
        ObjectNode common = F.objectNode();
        ObjectNode params = common.putObject("tls_params");
        params.put("tls_minimum_protocol_version", "TLSv1_2");
        params.put("tls_maximum_protocol_version", "TLSv1_3");
        ObjectNode cert = common.putArray("tls_certificates").addObject();
        cert.set("certificate_chain", file(c.chain()));
        cert.set("private_key", file(c.key()));
        return common;
    }

    private static ObjectNode transportSocket(ObjectNode tlsContext) {
        return named("envoy.transport_sockets.tls", tlsContext);
    }

    private static ObjectNode fileAccessLog(String path) {
        ObjectNode config = typedConfig(API + "access_loggers.file.v3.FileAccessLog");
        config.put("path", path);
        return named("envoy.access_loggers.file", config);
    }

    private static ObjectNode socketAddress(String host, int port) {
        ObjectNode address = F.objectNode();
        ObjectNode socket = address.putObject("socket_address");
        socket.put("address", host);
        socket.put("port_value", port);
        return address;
    }

    private static ObjectNode file(String path) {
        return F.objectNode().put("filename", path);
    }

    private static ObjectNode typed(String name, String type) {
        return named(name, typedConfig(type));
    }

    private static ObjectNode named(String name, ObjectNode typedConfig) {
        ObjectNode n = F.objectNode();
        n.put("name", name);
        n.set("typed_config", typedConfig);
        return n;
    }

    private static ObjectNode typedConfig(String type) {
        return F.objectNode().put(TYPE, type);
    }

    /** One HTTP route: Envoy's route {@code match} ({@code prefix: /} for everything) to a cluster. */
    private record HttpRoute(ObjectNode match, String cluster) {
    }

    /** Paths of a proxy's mesh CA, workload certificate chain and key (PEM files; the bootstrap names them only). */
    private record Certificates(String ca, String chain, String key) {
    }
}
