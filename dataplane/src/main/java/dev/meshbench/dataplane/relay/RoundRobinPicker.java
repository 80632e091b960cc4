package dev.meshbench.dataplane.relay;

import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.Upstream;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The turn of a {@link Routing.RoundRobin} listener: one counter per listener, shared by its connections across
 * event loops, so N connections spread over K upstreams as evenly as N/K allows whatever thread accepts them.
 * The relay does not parse HTTP, so it picks per connection; every request on that connection goes to the same
 * upstream.
 */
public final class RoundRobinPicker {
    private final List<Upstream> upstreams;
    private final AtomicLong turn = new AtomicLong();

    public RoundRobinPicker(Routing.RoundRobin routing) {
        this.upstreams = Objects.requireNonNull(routing, "routing").upstreams();
    }

    /** The upstream of the next new connection. */
    public Upstream next() {
        return upstreams.get((int) Math.floorMod(turn.getAndIncrement(), (long) upstreams.size()));
    }

    public List<Upstream> upstreams() {
        return upstreams;
    }
}
