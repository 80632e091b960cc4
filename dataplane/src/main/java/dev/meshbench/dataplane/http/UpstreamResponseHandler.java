package dev.meshbench.dataplane.http;

import dev.meshbench.dataplane.relay.LogText;
import dev.meshbench.dataplane.stats.HttpCounters;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last handler of a pooled upstream connection: hands each aggregated response to the {@link UpstreamExchange}
 * the connection was acquired for, and tells it when the connection dies first. The exchange travels as a
 * channel attribute because a pooled connection serves many client connections, one request at a time.
 */
final class UpstreamResponseHandler extends SimpleChannelInboundHandler<FullHttpResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(UpstreamResponseHandler.class);
    static final AttributeKey<UpstreamExchange> EXCHANGE = AttributeKey.valueOf(UpstreamResponseHandler.class, "exchange");

    private final String hop;
    private final HttpCounters.UpstreamCounters counters;

    UpstreamResponseHandler(String hop, HttpCounters.UpstreamCounters counters) {
        super(false);
        this.hop = hop;
        this.counters = counters;
    }

    /** Takes the channel's exchange, so that whoever ends it first (response, close, failed write) ends it alone. */
    static UpstreamExchange take(Channel ch) {
        return ch.attr(EXCHANGE).getAndSet(null);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        counters.connectionOpened();
        ctx.fireChannelActive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
        UpstreamExchange exchange = take(ctx.channel());
        if (exchange == null) {
            // Nothing was asked: the connection is out of step, so it cannot be reused.
            response.release();
            LOG.debug("{}: unsolicited response {} from upstream {}", hop, response.status(), LogText.address(ctx.channel().remoteAddress()));
            ctx.close();
            return;
        }
        if (!response.decoderResult().isSuccess()) {
            response.release();
            ctx.close();
            exchange.failed("malformed response: " + LogText.cause(response.decoderResult().cause()));
            return;
        }
        exchange.response(response);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        UpstreamExchange exchange = take(ctx.channel());
        if (exchange != null) {
            exchange.failed("connection closed before a response");
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("{}: upstream connection {} failed: {}", hop, LogText.address(ctx.channel().remoteAddress()), LogText.cause(cause));
        UpstreamExchange exchange = take(ctx.channel());
        ctx.close();
        if (exchange != null) {
            exchange.failed(LogText.cause(cause));
        }
    }
}
