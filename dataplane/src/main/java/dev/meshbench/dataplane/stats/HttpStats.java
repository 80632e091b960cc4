package dev.meshbench.dataplane.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A snapshot of the request counters of an HTTP listener (the ingress gateway); the TCP counters of the same
 * listener stay in {@link HopStats}.
 *
 * @param requests            complete requests read from clients, answered by the listener itself or not
 * @param responses           responses written to clients by status class ({@code 2xx} .. {@code 5xx}, every class present)
 * @param noRoute             requests whose path no prefix matched (answered 404)
 * @param upstreamUnavailable requests the upstream could not take: connect failed, or closed before a response (503)
 * @param requestTooLarge     requests over the body cap (answered 413)
 * @param upstreams           per upstream name, in route order
 */
public record HttpStats(long requests, Map<String, Long> responses, long noRoute, long upstreamUnavailable, long requestTooLarge,
        Map<String, Upstream> upstreams) {
    /** The status classes counted, in JSON order. */
    public static final String[] CLASSES = {"2xx", "3xx", "4xx", "5xx"};

    /**
     * One upstream's pool.
     *
     * @param address           {@code host:port}
     * @param connectionsOpened connections the pool opened, over the whole run (1 for a client that keeps reusing one)
     * @param requestsSent      requests written to it
     */
    public record Upstream(String address, long connectionsOpened, long requestsSent) {
        public Upstream {
            Objects.requireNonNull(address, "address");
        }
    }

    public HttpStats {
        Map<String, Long> all = new LinkedHashMap<>();
        for (String c : CLASSES) {
            all.put(c, responses.getOrDefault(c, 0L));
        }
        responses = Collections.unmodifiableMap(all);
        upstreams = Collections.unmodifiableMap(new LinkedHashMap<>(upstreams));
    }

    public long responses(String statusClass) {
        Long n = responses.get(statusClass);
        if (n == null) {
            throw new IllegalArgumentException("status class " + statusClass + " is not one of " + responses.keySet());
        }
        return n;
    }

    public Upstream upstream(String name) {
        Upstream u = upstreams.get(name);
        if (u == null) {
            throw new IllegalArgumentException("no upstream named " + name + " (have " + upstreams.keySet() + ")");
        }
        return u;
    }
}
