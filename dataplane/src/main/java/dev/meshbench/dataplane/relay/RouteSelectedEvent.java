package dev.meshbench.dataplane.relay;

import dev.meshbench.dataplane.config.Upstream;
import java.util.Objects;

/**
 * Fired down a frontend pipeline once a routing step (for example {@link dev.meshbench.dataplane.sni.SniRoutingHandler})
 * has chosen the upstream; {@link RelayFrontendHandler} then connects to it.
 *
 * @param upstream   where to relay
 * @param serverName the name that selected it (for logs)
 */
public record RouteSelectedEvent(Upstream upstream, String serverName) {
    public RouteSelectedEvent {
        Objects.requireNonNull(upstream, "upstream");
    }
}
