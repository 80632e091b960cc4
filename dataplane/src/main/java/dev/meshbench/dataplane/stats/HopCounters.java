package dev.meshbench.dataplane.stats;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of one listener (one hop). Updated from event-loop threads, read from anywhere. Bytes are the
 * relayed payload: what this hop forwards, after it removed its own TLS layer (if any) and before it adds one.
 *
 * <p>A listener keeps its counters across configurations ({@code PUT /config}): connections accepted under the old
 * one and the new one count in the same place, and the per-upstream counts are kept per address, reported for the
 * upstreams of the configuration in force ({@link #reportUpstreams}).
 */
public final class HopCounters {
    private final LongAdder accepted = new LongAdder();
    private final AtomicLong active = new AtomicLong();
    private final LongAdder closed = new LongAdder();
    private final LongAdder bytesToUpstream = new LongAdder();
    private final LongAdder bytesToClient = new LongAdder();
    private final Map<Refusal, LongAdder> refused = new EnumMap<>(Refusal.class);
    private final Map<String, LongAdder> routedTo = new ConcurrentHashMap<>();
    private volatile List<String> reportedUpstreams;
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
        reportUpstreams(upstreams);
    }

    /**
     * The upstreams {@link #snapshot} reports from now on, in this order (those of the listener's configuration in
     * force); an address reported before keeps its count.
     */
    public void reportUpstreams(List<String> upstreams) {
        Set<String> seen = new HashSet<>();
        for (String u : upstreams) {
            if (!seen.add(u)) {
                throw new IllegalArgumentException("upstream " + u + " is given twice");
            }
        }
        upstreams.forEach(u -> routedTo.computeIfAbsent(u, k -> new LongAdder()));
        reportedUpstreams = List.copyOf(upstreams);
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

    /**
     * A connection was handed to {@code upstream}, whether or not it then connects. Counted also for an address the
     * configuration in force no longer has (a connection accepted under the previous one).
     */
    public void routedTo(String upstream) {
        routedTo.computeIfAbsent(upstream, k -> new LongAdder()).increment();
    }

    /** The request counters of an HTTP listener; null for a TCP relay. */
    public HttpCounters http() {
        return http;
    }

    public HopStats snapshot() {
        Map<Refusal, Long> r = new EnumMap<>(Refusal.class);
        refused.forEach((k, v) -> r.put(k, v.sum()));
        Map<String, Long> u = new LinkedHashMap<>();
        for (String k : reportedUpstreams) {
            u.put(k, routedTo.get(k).sum());
        }
        return new HopStats(accepted.sum(), active.get(), closed.sum(), bytesToUpstream.sum(), bytesToClient.sum(), r, u, http == null ? null : http.snapshot());
    }
}
