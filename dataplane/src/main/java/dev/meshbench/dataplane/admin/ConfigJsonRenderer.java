package dev.meshbench.dataplane.admin;

import dev.meshbench.dataplane.stats.JsonStrings;
import java.util.List;

/**
 * Renders {@code GET /config}:
 * <pre>{@code
 * {"version":"v2","listeners":[{"name":"mongo","address":"127.0.0.1:40111",
 *   "spec":"name=mongo,port=0,upstream=127.0.0.1:40123,upstream-name=egress-gateway"}]}
 * }</pre>
 */
public final class ConfigJsonRenderer {
    /**
     * One listener in force.
     *
     * @param name    listener name
     * @param address bound {@code host:port}
     * @param spec    the text that defined it
     */
    public record Listener(String name, String address, String spec) {
    }

    private ConfigJsonRenderer() {
    }

    public static String render(String version, List<Listener> listeners) {
        StringBuilder b = new StringBuilder(128 + 160 * listeners.size());
        b.append("{\"version\":");
        JsonStrings.append(b, version);
        b.append(",\"listeners\":[");
        boolean first = true;
        for (Listener l : listeners) {
            if (!first) {
                b.append(',');
            }
            first = false;
            b.append("{\"name\":");
            JsonStrings.append(b, l.name());
            b.append(",\"address\":");
            JsonStrings.append(b, l.address());
            b.append(",\"spec\":");
            JsonStrings.append(b, l.spec());
            b.append('}');
        }
        return b.append("]}").toString();
    }
}
