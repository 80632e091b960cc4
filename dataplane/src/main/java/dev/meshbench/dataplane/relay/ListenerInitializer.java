package dev.meshbench.dataplane.relay;

import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.sni.SniRoutingHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;

/**
 * Builds the pipeline of an accepted connection: [mTLS terminator] -> [ClientHello router] -> relay frontend.
 */
public final class ListenerInitializer extends ChannelInitializer<SocketChannel> {
    private final ListenerContext listener;

    public ListenerInitializer(ListenerContext listener) {
        this.listener = listener;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline();
        if (listener.config().terminateMtls()) {
            p.addLast("mtls", listener.serverTls().newHandler(ch.alloc()));
        }
        if (listener.config().routing() instanceof Routing.ByClientHello byHello) {
            p.addLast("sni-router", new SniRoutingHandler(listener.hop(), byHello.routes(), listener.counters(),
                    SniRoutingHandler.DEFAULT_MAX_CLIENT_HELLO, SniRoutingHandler.DEFAULT_TIMEOUT));
        }
        p.addLast("relay", new RelayFrontendHandler(listener));
    }
}
