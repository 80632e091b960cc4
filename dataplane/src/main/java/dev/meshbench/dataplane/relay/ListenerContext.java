package dev.meshbench.dataplane.relay;

import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.stats.HopCounters;
import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.Objects;

/**
 * What every connection of one listener shares: its configuration, counters and TLS contexts.
 *
 * @param component      the owning component's name
 * @param config         the listener
 * @param counters       its counters
 * @param serverTls      context for terminating mTLS (client certificate required), or null
 * @param clientTls      context for originating mTLS towards the upstream, or null
 * @param connectTimeout upstream connect timeout
 */
public record ListenerContext(String component, ListenerConfig config, HopCounters counters, SslContext serverTls,
        SslContext clientTls, Duration connectTimeout) {
    public ListenerContext {
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(counters, "counters");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (config.terminateMtls() && serverTls == null) {
            throw new IllegalArgumentException("listener " + config.name() + " terminates mTLS but has no server TLS context");
        }
        if (config.upstreamTls() instanceof dev.meshbench.dataplane.config.UpstreamTls.MutualTls && clientTls == null) {
            throw new IllegalArgumentException("listener " + config.name() + " originates mTLS but has no client TLS context");
        }
    }

    /** {@code component/listener}, the prefix of every log line about this hop. */
    public String hop() {
        return component + "/" + config.name();
    }
}
