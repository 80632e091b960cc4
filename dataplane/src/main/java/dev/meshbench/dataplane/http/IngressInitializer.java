package dev.meshbench.dataplane.http;

import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.relay.ListenerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;

/** Builds the pipeline of a client connection of the ingress gateway: bytes counter -> HTTP/1.1 -> aggregator (body cap) -> router. */
public final class IngressInitializer extends ChannelInitializer<SocketChannel> {
    private final ListenerContext listener;
    private final UpstreamPools pools;
    private final ByteCountingHandler bytes;

    public IngressInitializer(ListenerContext listener, UpstreamPools pools) {
        if (!(listener.config().routing() instanceof Routing.ByPathPrefix) || listener.counters().http() == null) {
            throw new IllegalArgumentException("listener " + listener.config().name() + " is not an HTTP path router with request counters");
        }
        this.listener = listener;
        this.pools = pools;
        this.bytes = new ByteCountingHandler(listener.counters());
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        Routing.ByPathPrefix routing = (Routing.ByPathPrefix) listener.config().routing();
        ChannelPipeline p = ch.pipeline();
        p.addLast("bytes", bytes);
        p.addLast("http", new io.netty.handler.codec.http.HttpServerCodec());
        p.addLast("aggregate", new TooLargeCountingAggregator(routing.maxRequestBytes(), listener.counters(), listener.component()));
        p.addLast("router", new IngressFrontendHandler(listener, routing.routes(), pools));
    }
}
