package dev.meshbench.dataplane.http;

import dev.meshbench.dataplane.stats.HopCounters;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Netty's aggregator with a body cap whose 413 is counted and names the cap. It always closes after the 413:
 * the client may be sending the rest of the body, and skipping it would keep a connection busy with bytes
 * nobody wants (Netty's own keep-alive variant also leaves reading stalled with {@code AUTO_READ} off). The close
 * lingers ({@link LingeringClose}) so that the client reads the 413 instead of a reset.
 */
final class TooLargeCountingAggregator extends HttpObjectAggregator {
    private final HopCounters counters;
    private final String component;

    TooLargeCountingAggregator(int maxRequestBytes, HopCounters counters, String component) {
        super(maxRequestBytes, true);
        this.counters = counters;
        this.component = component;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        ctx.writeAndFlush(tooLarge(oversized)).addListener(f -> LingeringClose.close(ctx.channel()));
    }

    /**
     * A request with {@code Expect: 100-continue} and a declared body over the cap gets the same counted 413 with its
     * text instead of Netty's empty one (curl sends the header for bodies over 1 MiB); the aggregator then closes.
     */
    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        Object answer = super.newContinueResponse(start, maxContentLength, pipeline);
        if (answer instanceof HttpResponse r && r.status().code() == HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.code()) {
            ReferenceCountUtil.release(answer);
            return tooLarge(start);
        }
        return answer;
    }

    private FullHttpResponse tooLarge(HttpMessage oversized) {
        counters.http().request();
        counters.http().requestTooLarge();
        counters.http().response(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.code());
        FullHttpResponse res = IngressResponses.text(oversized.protocolVersion(), HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                component + ": request body over " + maxContentLength() + " bytes (--max-request-bytes)\n");
        IngressResponses.close(res);
        return res;
    }
}
