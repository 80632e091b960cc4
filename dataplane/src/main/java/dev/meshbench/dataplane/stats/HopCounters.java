package dev.meshbench.dataplane.stats;

import java.util.EnumMap;
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

    public HopCounters() {
        for (Refusal r : Refusal.values()) {
            refused.put(r, new LongAdder());
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

    public HopStats snapshot() {
        Map<Refusal, Long> r = new EnumMap<>(Refusal.class);
        refused.forEach((k, v) -> r.put(k, v.sum()));
        return new HopStats(accepted.sum(), active.get(), closed.sum(), bytesToUpstream.sum(), bytesToClient.sum(), r);
    }
}
