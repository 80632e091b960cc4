package dev.meshbench.dataplane.relay;

import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.stats.HopCounters;
import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.Objects;

/**
 * What every connection of one listener shares: its configuration, counters, TLS contexts and round-robin turn.
 *
 * @param component      the owning component's name
 * @param config         the listener
 * @param counters       its counters
 * @param serverTls      context for terminating mTLS (client certificate required), or null
 * @param clientTls      context for originating mTLS towards the upstream, or null
 * @param connectTimeout upstream connect timeout
 * @param roundRobin     whose turn it is, for a {@link Routing.RoundRobin} listener; null for any other routing
 */
public record ListenerContext(String component, ListenerConfig config, HopCounters counters, SslContext serverTls,
        SslContext clientTls, Duration connectTimeout, RoundRobinPicker roundRobin) {
    public ListenerContext {
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(counters, "counters");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (config.routing() instanceof Routing.RoundRobin rr
                ? roundRobin == null || !roundRobin.upstreams().equals(rr.upstreams()) : roundRobin != null) {
            throw new IllegalArgumentException("listener " + config.name() + ": a round-robin picker goes with round-robin routing, over its upstreams");
        }
        if (config.terminateMtls() && serverTls == null) {
            throw new IllegalArgumentException("listener " + config.name() + " terminates mTLS but has no server TLS context");
        }
        if (config.upstreamTls() instanceof dev.meshbench.dataplane.config.UpstreamTls.MutualTls && clientTls == null) {
            throw new IllegalArgumentException("listener " + config.name() + " originates mTLS but has no client TLS context");
        }
    }

    /** With a fresh round-robin turn when the listener routes round robin. */
    public ListenerContext(String component, ListenerConfig config, HopCounters counters, SslContext serverTls, SslContext clientTls,
            Duration connectTimeout) {
        this(component, config, counters, serverTls, clientTls, connectTimeout,
                config != null && config.routing() instanceof Routing.RoundRobin rr ? new RoundRobinPicker(rr) : null);
    }

    /** {@code component/listener}, the prefix of every log line about this hop. */
    public String hop() {
        return component + "/" + config.name();
    }
}
