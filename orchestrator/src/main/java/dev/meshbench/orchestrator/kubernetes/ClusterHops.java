package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.model.ListenerNames;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The MongoDB-path counters of an Istio mesh's proxies in the shape the local target gives its own ({@code hops.json},
 * read by {@code PathProof}): per mesh component, the bytes of the listener on MongoDB's path, both directions. On a
 * cluster they come from each proxy's Envoy stats: the bytes it sent to and received from the clusters MongoDB's route
 * leads to in <em>any</em> case ({@link MongoRoutes#expected}), so that a proxy still on another case's route shows up
 * as carrying MongoDB where the case says it must not.
 *
 * <ul>
 * <li>a service's sidecar: its clusters to MongoDB itself, to Istio's egress gateway and to the kit's (each case's);</li>
 * <li>the egress gateway: Istio's egress gateway's cluster to MongoDB (gateway, mtls) and the kit's gateway's cluster
 * to the SNI proxy (sni), added up: the path has one egress gateway hop, whichever runs it;</li>
 * <li>the SNI proxy: the kit's gateway's cluster to it, i.e. what the SNI proxy was sent and answered. nginx keeps no
 * byte counter of a session until it closes, and the services' MongoDB connections are pooled for the whole window, so
 * its own log cannot prove a window; the gateway's upstream counters of connections to it can.</li>
 * </ul>
 *
 * A proxy that could not be read is kept with {@code unread} saying why, so the proof names it instead of taking its
 * silence for no bytes.
 */
final class ClusterHops {
    /**
     * The stats a proxy is asked for, nothing else: every cluster's byte counters (the MongoDB clusters' prove the path)
     * and the inbound HTTP listeners' (with the outbound clusters', the traffic a sidecar's MongoDB share is taken of).
     */
    static final String STATS_FILTER = "^(cluster\\..*\\.upstream_cx_(rx|tx)_bytes_total|http\\.inbound_.*\\.downstream_cx_(rx|tx)_bytes_total)$";
    private static final String INBOUND_HTTP = "http.inbound_";
    private static final String DOWNSTREAM_TX = ".downstream_cx_tx_bytes_total";
    private static final String DOWNSTREAM_RX = ".downstream_cx_rx_bytes_total";
    private static final String PREFIX = "cluster.";
    private static final String TX = ".upstream_cx_tx_bytes_total";
    private static final String RX = ".upstream_cx_rx_bytes_total";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClusterHops() {
    }

    /** The clusters a proxy of kind {@code proxy} sends MongoDB's bytes to in some case. */
    static Set<String> mongoClusters(MongoRoutes.Proxy proxy, MongoRoutes.Mesh mesh) {
        Set<String> out = new LinkedHashSet<>();
        for (EgressCase c : EgressCase.values()) {
            MongoRoutes.expected(c, proxy, mesh).forEach(r -> out.add(r.cluster()));
        }
        return out;
    }

    /** Bytes to and from {@code clusters} in one proxy's stats ({@code name: value} per line); [client to upstream, back]. */
    static long[] bytes(String stats, Set<String> clusters) {
        return bytes(stats, clusters::contains);
    }

    /**
     * All the data-plane traffic one proxy relayed, both directions, each byte counted once: the outbound clusters' bytes
     * on their upstream side ({@code outbound|...} and {@code PassthroughCluster}: what the app sent out, MongoDB's
     * included) and the inbound HTTP listeners' on their downstream side (the requests the app was sent). Left out: the
     * proxy's own control traffic ({@code xds-grpc}), its admin and agent listeners. The local target counts its
     * listeners' side of every hop; a relay moves the same bytes on both sides.
     */
    static long allBytes(String stats) {
        long[] sum = new long[1];
        counters(stats, (name, value) -> {
            String cluster = cluster(name);
            boolean outbound = cluster != null && (cluster.startsWith("outbound|") || cluster.equals("PassthroughCluster"));
            boolean inbound = name.startsWith(INBOUND_HTTP) && (name.endsWith(DOWNSTREAM_RX) || name.endsWith(DOWNSTREAM_TX));
            if (outbound || inbound) {
                sum[0] += value;
            }
        });
        return sum[0];
    }

    private static long[] bytes(String stats, java.util.function.Predicate<String> clusters) {
        long[] out = new long[2];
        counters(stats, (name, value) -> {
            String cluster = cluster(name);
            if (cluster != null && clusters.test(cluster)) {
                out[name.endsWith(TX) ? 0 : 1] += value;
            }
        });
        return out;
    }

    /** The cluster whose upstream byte counter {@code name} is, without the ';' Istio puts after a ServiceEntry host on some versions; null for any other stat. */
    private static String cluster(String name) {
        if (!name.startsWith(PREFIX) || !(name.endsWith(TX) || name.endsWith(RX))) {
            return null;
        }
        String cluster = name.substring(PREFIX.length(), name.length() - TX.length());
        return cluster.endsWith(";") ? cluster.substring(0, cluster.length() - 1) : cluster;
    }

    /** Every counter in one proxy's stats ({@code name: value} per line); a histogram or text value is no counter and is skipped. */
    private static void counters(String stats, java.util.function.ObjLongConsumer<String> each) {
        for (String line : stats.split("\n")) {
            int colon = line.lastIndexOf(": ");
            if (colon > 0) {
                try {
                    each.accept(line.substring(0, colon), Long.parseLong(line.substring(colon + 2).trim()));
                } catch (NumberFormatException e) {
                    // not a counter
                }
            }
        }
    }

    /** One component's counters: its MongoDB-path listener with {@code bytes} ([client to upstream, back]). */
    static String component(String component, HopKind hop, long[] bytes) {
        ObjectNode root = root(component);
        ObjectNode l = ((ObjectNode) root.get("listeners")).putObject(ListenerNames.onMongoPath(hop));
        l.put("bytesClientToUpstream", bytes[0]);
        l.put("bytesUpstreamToClient", bytes[1]);
        return write(root);
    }

    /** A component whose proxies could not be read, and why. */
    static String unread(String component, String why) {
        ObjectNode root = root(component);
        root.put("unread", why);
        return write(root);
    }

    /** Adds {@code more} to {@code sum}, element by element. */
    static long[] add(long[] sum, long[] more) {
        return new long[] {sum[0] + more[0], sum[1] + more[1]};
    }

    private static ObjectNode root(String component) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("component", component);
        root.put("dataPlane", "istio");
        root.putObject("listeners");
        return root;
    }

    private static String write(ObjectNode root) {
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("writing the hop counters of " + root.path("component").asText() + " failed", e);
        }
    }
}
