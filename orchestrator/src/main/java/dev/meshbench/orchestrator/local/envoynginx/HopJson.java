package dev.meshbench.orchestrator.local.envoynginx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import dev.meshbench.orchestrator.plan.ListenerPlan.SniSource;
import dev.meshbench.orchestrator.plan.DataPlane;
import java.io.UncheckedIOException;
import java.util.stream.Collectors;

/**
 * The parts of the hop-counter JSON that do not depend on where the counters come from, in the shape of the Netty
 * data plane's {@code /stats} ({@code dev.meshbench.dataplane.stats.StatsJsonRenderer}), so the local target reads
 * every data plane alike.
 */
final class HopJson {
    static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();

    private HopJson() {
    }

    /** {@code {"component":..., "dataPlane":"envoy", "proxy":..., "listeners":{}}}. */
    static ObjectNode component(ComponentPlan c, String proxy) {
        ObjectNode root = F.objectNode();
        root.put("component", c.name());
        root.put("dataPlane", DataPlane.ENVOY.id());
        root.put("proxy", proxy);
        root.putObject("listeners");
        return root;
    }

    /** A listener's entry with address, TLS role and routing filled in, added under {@code listeners}. */
    static ObjectNode listener(ObjectNode component, ComponentPlan c, ListenerPlan l, LocalAddresses a) {
        ObjectNode n = ((ObjectNode) component.get("listeners")).putObject(l.name());
        n.put("address", a.address(new Endpoint(c.name(), l.name())));
        n.put("tls", l.tlsMode());
        n.put("routing", routing(l, a));
        return n;
    }

    /** The counters every data plane reports, in their order. */
    static void counters(ObjectNode listener, long accepted, long active, long closed, long clientToUpstream, long upstreamToClient,
            long refusedTls, long refusedSni, long refusedUpstreamConnect) {
        listener.put("accepted", accepted);
        listener.put("active", active);
        listener.put("closed", closed);
        listener.put("bytesClientToUpstream", clientToUpstream);
        listener.put("bytesUpstreamToClient", upstreamToClient);
        ObjectNode refused = listener.putObject("refused");
        refused.put("tls", refusedTls);
        refused.put("sni", refusedSni);
        refused.put("upstreamConnect", refusedUpstreamConnect);
    }

    /**
     * Where a listener relays, as the Netty relays describe it: {@code 127.0.0.1:40123 (egress-gateway)}, or
     * {@code client-hello-sni[mongo.meshbench.test -> 127.0.0.1:40123 (egress-gateway)]} /
     * {@code tunnel-sni[...]} for routing by server name, {@code path-prefix[/auth -> 127.0.0.1:40123 (sidecar-auth), ...]}
     * for routing by path.
     */
    static String routing(ListenerPlan l, LocalAddresses a) {
        Routing r = l.routing().orElse(null);
        if (r == null) {
            return "none";
        }
        if (r instanceof Routing.Fixed fixed) {
            return upstream(fixed.upstream(), a);
        }
        if (r instanceof Routing.RoundRobin rr) {
            return rr.upstreams().stream().map(e -> upstream(e, a)).collect(Collectors.joining(" | "));
        }
        if (r instanceof Routing.ByPath byPath) {
            return "path[" + byPath.routes().stream().map(x -> x.operation() + " -> " + upstream(x.upstream(), a))
                    .collect(Collectors.joining(", ")) + "]";
        }
        Routing.ByServerName byName = (Routing.ByServerName) r;
        String routes = byName.routes().stream().map(x -> x.pattern() + " -> " + upstream(x.upstream(), a)).collect(Collectors.joining(", "));
        return (byName.source() == SniSource.CLIENT_HELLO ? "client-hello-sni[" : "tunnel-sni[") + routes + "]";
    }

    /**
     * The HTTP entry's counters, after {@code refused}, in the Netty entry's shape: requests received, responses by
     * class, answered 404 for want of a route ({@code noRoute}), failed for want of an upstream connection
     * ({@code upstreamUnavailable}, answered 503), refused as too large ({@code requestTooLarge}, 413), and per upstream
     * component ({@code upstreamPools}) its address, the connections opened to it and the requests sent over them
     * (few connections for many requests: keep-alive reuse).
     */
    static void httpCounters(ObjectNode listener, long requests, long[] responses2xx3xx4xx5xx, long noRoute, long upstreamUnavailable,
            long requestTooLarge, java.util.Map<String, UpstreamPool> pools) {
        listener.put("requests", requests);
        ObjectNode responses = listener.putObject("responses");
        String[] classes = {"2xx", "3xx", "4xx", "5xx"};
        for (int i = 0; i < classes.length; i++) {
            responses.put(classes[i], responses2xx3xx4xx5xx[i]);
        }
        listener.put("noRoute", noRoute);
        listener.put("upstreamUnavailable", upstreamUnavailable);
        listener.put("requestTooLarge", requestTooLarge);
        ObjectNode upstreams = listener.putObject("upstreamPools");
        pools.forEach((name, pool) -> {
            ObjectNode u = upstreams.putObject(name);
            u.put("address", pool.address());
            u.put("connectionsOpened", pool.connectionsOpened());
            u.put("requestsSent", pool.requestsSent());
        });
    }

    /** One upstream of an HTTP entry: where it is, connections opened to it, requests sent to it. */
    record UpstreamPool(String address, long connectionsOpened, long requestsSent) {
    }

    static String write(ObjectNode root) {
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("writing the hop counters of " + root.path("component").asText() + " failed", e);
        }
    }

    private static String upstream(Endpoint e, LocalAddresses a) {
        return a.address(e) + " (" + e.component() + ")";
    }
}
