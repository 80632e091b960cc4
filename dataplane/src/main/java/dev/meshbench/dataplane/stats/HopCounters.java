package dev.meshbench.dataplane.stats;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of one listener (one hop). Updated from event-loop threads, read from anywhere. Bytes are the
 * relayed payload: what this hop forwards, after it removed its own TLS layer (if any) and before it adds one.
 */
public final class HopCounters {
    private final LongAdder accepted = new LongAdder();
    private final AtomicLong active = new AtomicLong();
    private final LongAdder closed = new LongAdder();
    private final LongAdder bytesToUpstream = new LongAdder();
    private final LongAdder bytesToClient = new LongAdder();
    private final Map<Refusal, LongAdder> refused = new EnumMap<>(Refusal.class);
    private final Map<String, LongAdder> routedTo = new LinkedHashMap<>();
    private final HttpCounters http;

    /** Counters of a listener with one upstream, or one that routes by server name. */
    public HopCounters() {
        this(List.of());
    }

    /**
     * Counters of a listener that spreads connections over several upstreams (round robin), with one count per
     * upstream, in the order given.
     *
     * @param upstreams the upstreams' {@code host:port}; empty when the listener has no choice to count
     */
    public HopCounters(List<String> upstreams) {
        this(upstreams, null);
    }

    /** Counters of an HTTP listener: the TCP ones plus its request counters. */
    public HopCounters(HttpCounters http) {
        this(List.of(), java.util.Objects.requireNonNull(http, "http"));
    }

    private HopCounters(List<String> upstreams, HttpCounters http) {
        this.http = http;
        for (Refusal r : Refusal.values()) {
            refused.put(r, new LongAdder());
        }
        for (String u : upstreams) {
            if (routedTo.put(u, new LongAdder()) != null) {
                throw new IllegalArgumentException("upstream " + u + " is given twice");
            }
        }
    }

    public void connectionOpened() {
        accepted.increment();
        active.incrementAndGet();
    }

    public void connectionClosed() {
        closed.increment();
        active.decrementAndGet();
    }

    public void relayedToUpstream(long bytes) {
        bytesToUpstream.add(bytes);
    }

    public void relayedToClient(long bytes) {
        bytesToClient.add(bytes);
    }

    public void refused(Refusal why) {
        refused.get(why).increment();
    }

    /** A connection was handed to {@code upstream} (one of the constructor's), whether or not it then connects. */
    public void routedTo(String upstream) {
        LongAdder n = routedTo.get(upstream);
        if (n == null) {
            throw new IllegalArgumentException("upstream " + upstream + " is not one of " + routedTo.keySet());
        }
        n.increment();
    }

    /** The request counters of an HTTP listener; null for a TCP relay. */
    public HttpCounters http() {
        return http;
    }

    public HopStats snapshot() {
        Map<Refusal, Long> r = new EnumMap<>(Refusal.class);
        refused.forEach((k, v) -> r.put(k, v.sum()));
        Map<String, Long> u = new LinkedHashMap<>();
        routedTo.forEach((k, v) -> u.put(k, v.sum()));
        return new HopStats(accepted.sum(), active.get(), closed.sum(), bytesToUpstream.sum(), bytesToClient.sum(), r, u, http == null ? null : http.snapshot());
    }
}
