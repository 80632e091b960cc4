package dev.meshbench.dataplane.relay;

import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/** Builds the pipeline of a connection to an upstream: [mTLS originator] -> relay backend. */
final class UpstreamInitializer extends ChannelInitializer<SocketChannel> {
    private final ListenerContext listener;
    private final Upstream upstream;
    private final Channel inbound;

    UpstreamInitializer(ListenerContext listener, Upstream upstream, Channel inbound) {
        this.listener = listener;
        this.upstream = upstream;
        this.inbound = inbound;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        if (listener.config().upstreamTls() instanceof UpstreamTls.MutualTls mtls) {
            SslHandler tls = listener.clientTls().newHandler(ch.alloc(), mtls.serverName(), upstream.address().port());
            SSLEngine engine = tls.engine();
            SSLParameters params = engine.getSSLParameters();
            params.setServerNames(List.of(new SNIHostName(mtls.serverName())));
            engine.setSSLParameters(params);
            ch.pipeline().addLast("mtls", tls);
        }
        ch.pipeline().addLast("relay", new RelayBackendHandler(listener, inbound));
    }
}
