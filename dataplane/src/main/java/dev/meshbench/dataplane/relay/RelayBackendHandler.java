package dev.meshbench.dataplane.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upstream side of a relayed connection: bytes from the upstream go to the client; the next read is asked for
 * only once that write succeeded, so a slow client slows the upstream down instead of filling memory.
 */
final class RelayBackendHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(RelayBackendHandler.class);

    private final ListenerContext listener;
    private final Channel inbound;

    RelayBackendHandler(ListenerContext listener, Channel inbound) {
        this.listener = listener;
        this.inbound = inbound;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            listener.counters().relayedToClient(buf.readableBytes());
        }
        inbound.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                ctx.channel().read();
            } else {
                f.channel().close();
                ctx.channel().close();
            }
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        RelayFrontendHandler.closeOnFlush(inbound);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException || LogText.isTls(cause)) {
            LOG.debug("{}: upstream connection {} failed: {}", listener.hop(), LogText.address(ctx.channel().remoteAddress()),
                    LogText.cause(cause));
        } else {
            LOG.warn("{}: upstream connection {} failed: {}", listener.hop(), LogText.address(ctx.channel().remoteAddress()),
                    LogText.cause(cause));
        }
        RelayFrontendHandler.closeOnFlush(ctx.channel());
    }
}
