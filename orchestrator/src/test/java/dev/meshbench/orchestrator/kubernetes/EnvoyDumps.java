package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Envoy admin answers in the shape an Istio proxy gives them ({@code pilot-agent request GET config_dump?resource=...},
 * {@code clusters}, {@code stats}), as read from the test cluster's sidecars and gateways, holding the given MongoDB
 * routes and, like the real ones, routes that are not MongoDB's (the Kubernetes API's listener, a PassthroughCluster
 * default chain).
 */
final class EnvoyDumps {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EnvoyDumps() {
    }

    /** {@code config_dump?resource=dynamic_listeners} with each route as a filter chain on a listener of {@code port}. */
    static String listeners(Collection<MongoRoutes.Route> routes, int port) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode configs = root.putArray("configs");
        configs.add(listener("10.96.0.1_443", 443, chain(null, false, "outbound|443||kubernetes.default.svc.cluster.local")));
        Map<Integer, ArrayNode> chainsByPort = new LinkedHashMap<>();
        if (!routes.isEmpty()) {
            ObjectNode l = listener("0.0.0.0_" + port, port);
            configs.add(l);
            chainsByPort.put(port, (ArrayNode) l.path("active_state").path("listener").path("filter_chains"));
        }
        for (MongoRoutes.Route r : routes) {
            chainsByPort.get(port).add(chain(r.serverNames(), r.endsTls(), r.cluster()));
        }
        return root.toString();
    }

    /** {@code config_dump?resource=dynamic_active_clusters}: each route's cluster, starting TLS where the route says. */
    static String clusters(Collection<MongoRoutes.Route> routes) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode configs = root.putArray("configs");
        configs.add(cluster("outbound|443||kubernetes.default.svc.cluster.local", null));
        for (MongoRoutes.Route r : routes) {
            configs.add(cluster(r.cluster(), r.startsTls().orElse(null)));
        }
        return root.toString();
    }

    /** Envoy's {@code clusters} text: one healthy endpoint in each route's cluster. */
    static String clustersText(Collection<MongoRoutes.Route> routes) {
        StringBuilder sb = new StringBuilder("outbound|443||kubernetes.default.svc.cluster.local::10.20.0.1:6443::health_flags::healthy\n");
        for (MongoRoutes.Route r : routes) {
            sb.append(r.cluster()).append("::observability_name::").append(r.cluster()).append(";\n");
            sb.append(r.cluster()).append("::10.244.0.5:8443::cx_active::2\n");
            sb.append(r.cluster()).append("::10.244.0.5:8443::health_flags::healthy\n");
        }
        return sb.toString();
    }

    /** Envoy's {@code stats} text filtered to the draining gauges. */
    static String drainingStats(int filterChains, int listeners) {
        return "listener_manager.total_filter_chains_draining: " + filterChains + "\nlistener_manager.total_listeners_draining: "
                + listeners + "\n";
    }

    private static ObjectNode listener(String name, int port, ObjectNode... chains) {
        ObjectNode dl = JSON.createObjectNode();
        dl.put("@type", "type.googleapis.com/envoy.admin.v3.ListenersConfigDump.DynamicListener");
        dl.put("name", name);
        ObjectNode l = dl.putObject("active_state").putObject("listener");
        l.put("@type", "type.googleapis.com/envoy.config.listener.v3.Listener");
        l.put("name", name);
        l.putObject("address").putObject("socket_address").put("address", "0.0.0.0").put("port_value", port);
        ArrayNode fc = l.putArray("filter_chains");
        for (ObjectNode c : chains) {
            fc.add(c);
        }
        ObjectNode passthrough = l.putObject("default_filter_chain");
        passthrough.putObject("filter_chain_match");
        passthrough.putArray("filters").add(tcpProxy("PassthroughCluster"));
        passthrough.put("name", "PassthroughFilterChain");
        return dl;
    }

    private static ObjectNode chain(java.util.List<String> serverNames, boolean endsTls, String cluster) {
        ObjectNode c = JSON.createObjectNode();
        ObjectNode match = c.putObject("filter_chain_match");
        if (serverNames != null) {
            ArrayNode names = match.putArray("server_names");
            serverNames.forEach(names::add);
        }
        c.putArray("filters").add(tcpProxy(cluster));
        if (endsTls) {
            ObjectNode ts = c.putObject("transport_socket");
            ts.put("name", "envoy.transport_sockets.tls");
            ts.putObject("typed_config").put("@type", "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext")
                    .put("require_client_certificate", true);
        }
        return c;
    }

    private static ObjectNode tcpProxy(String cluster) {
        ObjectNode f = JSON.createObjectNode();
        f.put("name", MongoRoutes.TCP_PROXY);
        f.putObject("typed_config").put("@type", "type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy")
                .put("stat_prefix", cluster).put("cluster", cluster);
        return f;
    }

    private static ObjectNode cluster(String name, String sni) {
        ObjectNode dc = JSON.createObjectNode();
        dc.put("@type", "type.googleapis.com/envoy.admin.v3.ClustersConfigDump.DynamicCluster");
        ObjectNode c = dc.putObject("cluster");
        c.put("@type", "type.googleapis.com/envoy.config.cluster.v3.Cluster");
        c.put("name", name);
        c.put("type", "EDS");
        if (sni != null) {
            ObjectNode ts = c.putObject("transport_socket");
            ts.put("name", "envoy.transport_sockets.tls");
            ts.putObject("typed_config").put("@type", "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext")
                    .put("sni", sni);
        } else {
            // Istio's auto mTLS: TLS only to endpoints labelled tlsMode istio, which is not "the cluster starts TLS".
            ObjectNode m = c.putArray("transport_socket_matches").addObject();
            m.put("name", "tlsMode-istio");
            m.putObject("match").put("tlsMode", "istio");
        }
        return dc;
    }
}
