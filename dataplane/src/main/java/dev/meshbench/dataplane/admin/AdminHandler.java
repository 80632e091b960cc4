package dev.meshbench.dataplane.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Serves {@code GET /stats} (counters as JSON) and {@code GET /ready} (200 once every listener is bound). */
public final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);

    private final String component;
    private final Supplier<String> statsJson;
    private final BooleanSupplier ready;

    public AdminHandler(String component, Supplier<String> statsJson, BooleanSupplier ready) {
        this.component = component;
        this.statsJson = statsJson;
        this.ready = ready;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        String path = new QueryStringDecoder(req.uri()).path();
        FullHttpResponse res;
        if (!req.decoderResult().isSuccess()) {
            res = text(HttpResponseStatus.BAD_REQUEST, "malformed request\n");
        } else if (!HttpMethod.GET.equals(req.method()) && !HttpMethod.HEAD.equals(req.method())) {
            res = text(HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET is served\n");
            res.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        } else if (path.equals("/stats")) {
            res = body(HttpResponseStatus.OK, statsJson.get() + "\n", "application/json");
        } else if (path.equals("/ready")) {
            res = ready.getAsBoolean() ? text(HttpResponseStatus.OK, "ready\n")
                    : text(HttpResponseStatus.SERVICE_UNAVAILABLE, "not ready\n");
        } else {
            res = text(HttpResponseStatus.NOT_FOUND, component + " serves GET /stats and GET /ready\n");
        }
        boolean keepAlive = HttpUtil.isKeepAlive(req) && req.decoderResult().isSuccess();
        HttpUtil.setKeepAlive(res, keepAlive);
        if (HttpMethod.HEAD.equals(req.method())) {
            res.content().clear();
        }
        var written = ctx.writeAndFlush(res);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static FullHttpResponse text(HttpResponseStatus status, String text) {
        return body(status, text, "text/plain; charset=utf-8");
    }

    private static FullHttpResponse body(HttpResponseStatus status, String text, String contentType) {
        FullHttpResponse res = new DefaultFullHttpResponse(io.netty.handler.codec.http.HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, res.content().readableBytes());
        res.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        return res;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("{}/admin: connection failed: {}", component, cause.toString());
        ctx.close();
    }
}
