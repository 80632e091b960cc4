package dev.meshbench.dataplane.stats;

import java.util.List;

/**
 * Renders a component's counters as JSON (no library needed for this flat shape):
 * <pre>{@code
 * {"component":"sidecar-booking","listeners":{"mongo":{"address":"127.0.0.1:40111","tls":"none",
 *   "routing":"127.0.0.1:40123 (egress-gateway)","accepted":3,"active":1,"closed":2,
 *   "bytesClientToUpstream":5120,"bytesUpstreamToClient":9300,
 *   "refused":{"tls":0,"sni":0,"clientHello":0,"upstreamConnect":1,"upstreamTls":0}}},"tlsProvider":"boringssl"}
 * }</pre>
 * {@code tlsProvider} (the resolved {@code --tls-provider}, {@code boringssl} or {@code jdk}) comes last, so the
 * text up to the listeners reads as before it was added. A listener with several upstreams (round robin) has one
 * more field, last: {@code "upstreams":{"127.0.0.1:40201":2,"127.0.0.1:40202":2}}, connections handed to each.
 */
public final class StatsJsonRenderer {
    private StatsJsonRenderer() {
    }

    public static String render(String component, List<ListenerReport> listeners, String tlsProvider) {
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
            b.append('}');
        }
        b.append("},\"tlsProvider\":");
        string(b, tlsProvider);
        return b.append('}').toString();
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
