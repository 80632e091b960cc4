package dev.meshbench.orchestrator.local.envoynginx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan.Protocol;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An Envoy proxy's hop counters, from the text of its admin {@code GET /stats} ({@code name: value} lines), in the
 * JSON shape the Netty relays serve:
 * <pre>{@code
 * {"component":"egress-gateway","dataPlane":"envoy","proxy":"envoy","listeners":{"egress":{"address":"127.0.0.1:20011",
 *   "tls":"mtls-terminate","routing":"tunnel-sni[mongo.meshbench.test -> 127.0.0.1:20001 (mongo)]",
 *   "accepted":3,"active":1,"closed":2,"bytesClientToUpstream":5120,"bytesUpstreamToClient":9300,
 *   "refused":{"tls":0,"sni":0,"upstreamConnect":0},
 *   "envoy":{"cluster.outbound|27017||mongo.meshbench.test.upstream_cx_total":3, "listener.egress.downstream_cx_total":3, ...}}}}
 * }</pre>
 * Mapping (listener {@code <name>}, its stat prefix; its upstream clusters named by {@link EnvoyClusterNames}), as
 * checked against Envoy 1.40:
 * <ul>
 *   <li>accepted, closed: {@code listener.<name>.downstream_cx_total} / {@code downstream_cx_destroy}, plus the
 *       connections closed before they got a filter chain ({@code no_filter_chain_match},
 *       {@code downstream_listener_filter_error}, {@code downstream_pre_cx_timeout}), which Envoy leaves out of
 *       {@code downstream_cx_total}; the Netty relays count those as accepted and closed too. active:
 *       {@code downstream_cx_active};</li>
 *   <li>bytes client to upstream / upstream to client: {@code tcp.<name>.downstream_cx_rx_bytes_total} /
 *       {@code tx} for TCP listeners, {@code http.<name>.downstream_cx_rx_bytes_total} / {@code tx} for HTTP ones;</li>
 *   <li>refused.tls: {@code listener.<name>.ssl.connection_error + ssl.fail_verify_no_cert + ssl.fail_verify_error}
 *       (a client without a certificate, or with one of another CA, counts only in the {@code fail_verify_*}
 *       counter, not in {@code connection_error}); for a listener that originates mTLS also its clusters'
 *       {@code ssl.connection_error + ssl.fail_verify_san + ssl.fail_verify_error + ssl.fail_verify_no_cert};</li>
 *   <li>refused.sni: {@code listener.<name>.no_filter_chain_match} (an unknown server name, none, or no TLS at all);</li>
 *   <li>refused.upstreamConnect: the clusters' {@code upstream_cx_connect_fail}, less the upstream TLS failures
 *       counted above (Envoy also counts a failed upstream handshake, such as a wrong peer identity, as a connect
 *       failure).</li>
 * </ul>
 * An HTTP entry routing by path (the ingress gateway) also gets request counters ({@link HopJson#httpCounters}):
 * requests {@code http.<name>.downstream_rq_total}; responses {@code http.<name>.downstream_rq_2xx} ... {@code _5xx};
 * noRoute {@code http.<name>.no_route}; upstreamUnavailable the clusters' {@code upstream_cx_connect_fail};
 * requestTooLarge {@code http.<name>.downstream_rq_too_large}; per upstream component ({@code upstreamPools}) its
 * cluster's {@code upstream_cx_total} (connectionsOpened) and {@code upstream_rq_total} (requestsSent).
 * Two listeners with the same upstream (a sidecar's {@code inbound} and {@code inbound-mesh}, both to its app) share
 * one cluster, as in Istio, so that cluster's counters (and refused.upstreamConnect) show under both.
 * {@code envoy} holds the raw counters and gauges of the listener ({@code listener.<name>.*}, {@code tcp.<name>.*},
 * {@code http.<name>.*}) and the connection, request-overflow and TLS counters of its clusters. A counter Envoy has
 * not created yet reads 0.
 */
public final class EnvoyStatsReader {
    private static final List<String> CLUSTER_STATS = List.of("upstream_cx_", "upstream_rq_total", "upstream_rq_active",
            "upstream_rq_pending_overflow", "upstream_rq_pending_total", "ssl.");

    private EnvoyStatsReader() {
    }

    /** The hop counters of {@code c} (a sidecar or the egress gateway) from its admin {@code /stats} text. */
    public static String hopJson(ComponentPlan c, LocalAddresses a, String adminStatsText) {
        return HopJson.write(hopNode(c, a, adminStatsText));
    }

    static ObjectNode hopNode(ComponentPlan c, LocalAddresses a, String adminStatsText) {
        Map<String, Long> stats = parse(adminStatsText);
        ObjectNode root = HopJson.component(c, "envoy");
        for (ListenerPlan l : c.listeners()) {
            String listener = "listener." + l.name() + ".";
            String filter = (l.protocol() == Protocol.TCP ? "tcp." : "http.") + l.name() + ".";
            List<String> clusters = l.upstreams().stream().map(u -> "cluster." + EnvoyClusterNames.of(u, a) + ".").distinct().toList();

            long clusterTls = l.upstreamTls().isPresent()
                    ? sum(stats, clusters, "ssl.connection_error") + sum(stats, clusters, "ssl.fail_verify_san")
                            + sum(stats, clusters, "ssl.fail_verify_error") + sum(stats, clusters, "ssl.fail_verify_no_cert")
                    : 0;
            long beforeChain = get(stats, listener + "no_filter_chain_match") + get(stats, listener + "downstream_listener_filter_error")
                    + get(stats, listener + "downstream_pre_cx_timeout");
            ObjectNode n = HopJson.listener(root, c, l, a);
            HopJson.counters(n,
                    get(stats, listener + "downstream_cx_total") + beforeChain,
                    get(stats, listener + "downstream_cx_active"),
                    get(stats, listener + "downstream_cx_destroy") + beforeChain,
                    get(stats, filter + "downstream_cx_rx_bytes_total"),
                    get(stats, filter + "downstream_cx_tx_bytes_total"),
                    get(stats, listener + "ssl.connection_error") + get(stats, listener + "ssl.fail_verify_no_cert")
                            + get(stats, listener + "ssl.fail_verify_error") + clusterTls,
                    get(stats, listener + "no_filter_chain_match"),
                    Math.max(0, sum(stats, clusters, "upstream_cx_connect_fail") - clusterTls));

            if (l.routing().orElse(null) instanceof Routing.ByPath byPath) {
                Map<String, HopJson.UpstreamPool> pools = new LinkedHashMap<>();
                for (Endpoint up : byPath.upstreams()) {
                    String cluster = "cluster." + EnvoyClusterNames.of(up, a) + ".";
                    pools.put(up.component(), new HopJson.UpstreamPool(a.address(up), get(stats, cluster + "upstream_cx_total"),
                            get(stats, cluster + "upstream_rq_total")));
                }
                HopJson.httpCounters(n, get(stats, filter + "downstream_rq_total"),
                        new long[] {get(stats, filter + "downstream_rq_2xx"), get(stats, filter + "downstream_rq_3xx"),
                            get(stats, filter + "downstream_rq_4xx"), get(stats, filter + "downstream_rq_5xx")},
                        get(stats, filter + "no_route"), sum(stats, clusters, "upstream_cx_connect_fail"),
                        get(stats, filter + "downstream_rq_too_large"), pools);
            }

            ObjectNode raw = n.putObject("envoy");
            stats.forEach((name, value) -> {
                if (name.startsWith(listener) || name.startsWith(filter) || clusterStat(name, clusters)) {
                    raw.put(name, value);
                }
            });
        }
        return root;
    }

    /**
     * The counters and gauges of Envoy's admin {@code /stats} text format, by name; histogram lines (whose value is
     * no integer: {@code P0(...)} quantiles or {@code No recorded values}) and text readouts are skipped.
     */
    static Map<String, Long> parse(String adminStatsText) {
        Map<String, Long> out = new TreeMap<>();
        for (String line : adminStatsText.split("\\R")) {
            int colon = line.lastIndexOf(": ");
            if (colon <= 0) {
                continue;
            }
            String value = line.substring(colon + 2).trim();
            if (value.isEmpty() || !value.chars().allMatch(ch -> ch >= '0' && ch <= '9') || value.length() > 19) {
                continue;
            }
            out.put(line.substring(0, colon).trim(), Long.parseLong(value));
        }
        return out;
    }

    private static boolean clusterStat(String name, List<String> clusters) {
        for (String c : clusters) {
            if (name.startsWith(c)) {
                String rest = name.substring(c.length());
                return CLUSTER_STATS.stream().anyMatch(rest::startsWith);
            }
        }
        return false;
    }

    private static long sum(Map<String, Long> stats, List<String> prefixes, String suffix) {
        return prefixes.stream().mapToLong(p -> get(stats, p + suffix)).sum();
    }

    private static long get(Map<String, Long> stats, String name) {
        return stats.getOrDefault(name, 0L);
    }
}
