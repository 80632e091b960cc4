package dev.meshbench.dataplane.http;

import dev.meshbench.dataplane.stats.HopCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * First in a client connection's pipeline, so it sees the bytes on the wire: what the client sent (counted as
 * {@code bytesClientToUpstream}) and what the gateway wrote back ({@code bytesUpstreamToClient}), HTTP framing
 * included, since an HTTP hop re-frames every message and there is no relayed payload to count as the TCP
 * relays do.
 */
@Sharable
final class ByteCountingHandler extends ChannelDuplexHandler {
    private final HopCounters counters;

    ByteCountingHandler(HopCounters counters) {
        this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            counters.relayedToUpstream(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf) {
            counters.relayedToClient(buf.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
