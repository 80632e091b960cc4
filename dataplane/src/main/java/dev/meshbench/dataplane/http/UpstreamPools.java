package dev.meshbench.dataplane.http;

import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.stats.HttpCounters;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One keep-alive connection pool per upstream of an HTTP listener, shared by all its client connections, as
 * Envoy keeps a pool per cluster: a client's requests reuse connections instead of opening one per request (or
 * per client connection, as the TCP relays must). A connection goes back to its pool after a full response
 * unless either side said close; one that died while idle is dropped when next acquired (health check on
 * acquire and release). At most {@code maxConnectionsPerUpstream} are open per upstream; more requests at once
 * wait in line.
 */
public final class UpstreamPools implements AutoCloseable {
    /** Largest upstream response body relayed; a larger one fails the request (503). */
    static final int MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

    private final Map<Upstream, FixedChannelPool> pools = new LinkedHashMap<>();

    /**
     * @param hop            {@code component/listener}, for log lines
     * @param routing        the listener's routes and limits
     * @param counters       its request counters, with one entry per upstream name
     * @param group          the event loops the upstream connections run on
     * @param connectTimeout upstream connect timeout
     */
    public UpstreamPools(String hop, Routing.ByPathPrefix routing, HttpCounters counters, EventLoopGroup group, Duration connectTimeout) {
        for (Upstream u : routing.routes().upstreams()) {
            HttpCounters.UpstreamCounters c = counters.upstream(u.displayName(), u.address().toString());
            Bootstrap b = new Bootstrap()
                    .group(group)
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
                    .remoteAddress(u.address().toSocketAddress());
            AbstractChannelPoolHandler handler = new AbstractChannelPoolHandler() {
                @Override
                public void channelCreated(Channel ch) {
                    ch.pipeline().addLast("http", new HttpClientCodec())
                            .addLast("aggregate", new HttpObjectAggregator(MAX_RESPONSE_BYTES))
                            .addLast("response", new UpstreamResponseHandler(hop, c));
                }
            };
            pools.put(u, new FixedChannelPool(b, handler, ChannelHealthChecker.ACTIVE, null, -1,
                    routing.maxConnectionsPerUpstream(), Integer.MAX_VALUE, true, true));
        }
    }

    /** The pool of one of the listener's upstreams. */
    FixedChannelPool pool(Upstream upstream) {
        FixedChannelPool p = pools.get(upstream);
        if (p == null) {
            throw new IllegalArgumentException("upstream " + upstream.describe() + " is not one of " + pools.keySet());
        }
        return p;
    }

    /** Closes every pooled connection; call before shutting the event loops down. */
    @Override
    public void close() {
        pools.values().forEach(FixedChannelPool::closeAsync);
        pools.clear();
    }
}
