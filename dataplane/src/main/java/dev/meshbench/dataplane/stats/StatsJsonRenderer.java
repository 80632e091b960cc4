package dev.meshbench.dataplane.stats;

import java.util.List;

/**
 * Renders a component's counters as JSON (no library needed for this flat shape):
 * <pre>{@code
 * {"component":"sidecar-booking","listeners":{"mongo":{"address":"127.0.0.1:40111","tls":"none",
 *   "routing":"127.0.0.1:40123 (egress-gateway)","accepted":3,"active":1,"closed":2,
 *   "bytesClientToUpstream":5120,"bytesUpstreamToClient":9300,
 *   "refused":{"tls":0,"sni":0,"clientHello":0,"upstreamConnect":1,"upstreamTls":0}}},"tlsProvider":"boringssl",
 *   "configVersion":"initial"}
 * }</pre>
 * {@code tlsProvider} (the resolved {@code --tls-provider}, {@code boringssl} or {@code jdk}) comes after the
 * listeners, so the text up to them reads as before it was added; {@code configVersion} (the version of the listener
 * configuration in force, {@code --config-version} or the last {@code PUT /config?version=}) comes last, for the same
 * reason. The counters of a listener are cumulative across configurations while its name stays. A listener with
 * several upstreams (round robin) has one more field, last: {@code "upstreams":{"127.0.0.1:40201":2,"127.0.0.1:40202":2}}, connections handed to each.
 * An HTTP listener (the ingress gateway) has its request counters after {@code refused}, in the same flat style:
 * <pre>{@code
 * "requests":50,"responses":{"2xx":49,"3xx":0,"4xx":1,"5xx":0},"noRoute":1,"upstreamUnavailable":0,"requestTooLarge":0,
 * "upstreamPools":{"sidecar-auth":{"address":"127.0.0.1:41001","connectionsOpened":1,"requestsSent":49}}
 * }</pre>
 */
public final class StatsJsonRenderer {
    private StatsJsonRenderer() {
    }

    /** Without {@code configVersion} (the shape before live reconfiguration). */
    public static String render(String component, List<ListenerReport> listeners, String tlsProvider) {
        return render(component, listeners, tlsProvider, null);
    }

    /** @param configVersion the version of the configuration in force; null leaves the field out */
    public static String render(String component, List<ListenerReport> listeners, String tlsProvider, String configVersion) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"component\":");
        string(b, component);
        b.append(",\"listeners\":{");
        boolean first = true;
        for (ListenerReport l : listeners) {
            if (!first) {
                b.append(',');
            }
            first = false;
            string(b, l.name());
            b.append(":{\"address\":");
            string(b, l.address());
            b.append(",\"tls\":");
            string(b, l.tls());
            b.append(",\"routing\":");
            string(b, l.routing());
            HopStats s = l.stats();
            b.append(",\"accepted\":").append(s.accepted())
                    .append(",\"active\":").append(s.active())
                    .append(",\"closed\":").append(s.closed())
                    .append(",\"bytesClientToUpstream\":").append(s.bytesClientToUpstream())
                    .append(",\"bytesUpstreamToClient\":").append(s.bytesUpstreamToClient())
                    .append(",\"refused\":{");
            boolean firstReason = true;
            for (Refusal r : Refusal.values()) {
                if (!firstReason) {
                    b.append(',');
                }
                firstReason = false;
                string(b, r.key());
                b.append(':').append(s.refused(r));
            }
            b.append('}');
            if (!s.upstreams().isEmpty()) {
                b.append(",\"upstreams\":{");
                boolean firstUpstream = true;
                for (var u : s.upstreams().entrySet()) {
                    if (!firstUpstream) {
                        b.append(',');
                    }
                    firstUpstream = false;
                    string(b, u.getKey());
                    b.append(':').append(u.getValue());
                }
                b.append('}');
            }
            if (s.http() != null) {
                http(b, s.http());
            }
            b.append('}');
        }
        b.append("},\"tlsProvider\":");
        string(b, tlsProvider);
        if (configVersion != null) {
            b.append(",\"configVersion\":");
            string(b, configVersion);
        }
        return b.append('}').toString();
    }

    private static void http(StringBuilder b, HttpStats h) {
        b.append(",\"requests\":").append(h.requests()).append(",\"responses\":{");
        boolean first = true;
        for (var r : h.responses().entrySet()) {
            if (!first) {
                b.append(',');
            }
            first = false;
            string(b, r.getKey());
            b.append(':').append(r.getValue());
        }
        b.append("},\"noRoute\":").append(h.noRoute())
                .append(",\"upstreamUnavailable\":").append(h.upstreamUnavailable())
                .append(",\"requestTooLarge\":").append(h.requestTooLarge())
                .append(",\"upstreamPools\":{");
        first = true;
        for (var u : h.upstreams().entrySet()) {
            if (!first) {
                b.append(',');
            }
            first = false;
            string(b, u.getKey());
            b.append(":{\"address\":");
            string(b, u.getValue().address());
            b.append(",\"connectionsOpened\":").append(u.getValue().connectionsOpened())
                    .append(",\"requestsSent\":").append(u.getValue().requestsSent()).append('}');
        }
        b.append('}');
    }

    private static void string(StringBuilder b, String s) {
        JsonStrings.append(b, s);
    }
}
