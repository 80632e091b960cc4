package dev.meshbench.dataplane.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/** The answers the gateway gives itself (404, 413, 503, 400): plain text saying what happened. */
final class IngressResponses {
    private IngressResponses() {
    }

    static FullHttpResponse text(HttpVersion version, HttpResponseStatus status, String text) {
        FullHttpResponse res = new DefaultFullHttpResponse(version, status, Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, res.content().readableBytes());
        return res;
    }

    /** Marks the response as the connection's last. */
    static void close(FullHttpResponse res) {
        HttpUtil.setKeepAlive(res, false);
    }
}
