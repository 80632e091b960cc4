package dev.meshbench.dataplane.stats;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A snapshot of one listener's counters.
 *
 * @param accepted              TCP connections accepted
 * @param active                connections open now
 * @param closed                connections closed (refused ones included)
 * @param bytesClientToUpstream payload bytes relayed from clients to upstreams
 * @param bytesUpstreamToClient payload bytes relayed from upstreams to clients
 * @param refused               refusals by reason (every reason present, zero when none)
 * @param upstreams             of a listener with several upstreams (round robin): connections handed to each,
 *                              by {@code host:port} in configuration order, refused connects included (they are
 *                              also in {@code refused}); empty for a listener with one upstream or routing by name
 * @param http                  request counters of an HTTP listener (ingress gateway), null for a TCP relay; there
 *                              the bytes are what the listener read from and wrote to its clients, HTTP framing included
 */
public record HopStats(long accepted, long active, long closed, long bytesClientToUpstream, long bytesUpstreamToClient,
        Map<Refusal, Long> refused, Map<String, Long> upstreams, HttpStats http) {
    public HopStats {
        EnumMap<Refusal, Long> all = new EnumMap<>(Refusal.class);
        for (Refusal r : Refusal.values()) {
            all.put(r, refused.getOrDefault(r, 0L));
        }
        refused = Collections.unmodifiableMap(all);
        upstreams = Collections.unmodifiableMap(new LinkedHashMap<>(upstreams));
    }

    /** Of a TCP relay. */
    public HopStats(long accepted, long active, long closed, long bytesClientToUpstream, long bytesUpstreamToClient,
            Map<Refusal, Long> refused, Map<String, Long> upstreams) {
        this(accepted, active, closed, bytesClientToUpstream, bytesUpstreamToClient, refused, upstreams, null);
    }

    /** Of a listener without a choice of upstream to count. */
    public HopStats(long accepted, long active, long closed, long bytesClientToUpstream, long bytesUpstreamToClient,
            Map<Refusal, Long> refused) {
        this(accepted, active, closed, bytesClientToUpstream, bytesUpstreamToClient, refused, Map.of());
    }

    public long refused(Refusal why) {
        return refused.get(why);
    }

    public long refusedTotal() {
        return refused.values().stream().mapToLong(Long::longValue).sum();
    }
}
