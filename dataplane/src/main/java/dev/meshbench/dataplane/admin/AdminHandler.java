package dev.meshbench.dataplane.admin;

import dev.meshbench.dataplane.config.ConfigRefusedException;
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
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code GET /stats} (counters as JSON), {@code GET /ready} (200 once every listener is bound), {@code GET /config}
 * (the listener configuration in force) and {@code PUT /config?version=<v>} (switch to a new one; answered once it
 * serves, or 400/409 naming what was refused). A PUT is applied off the event loop; the connection reads no further
 * request until it is answered, so answers keep the order of requests.
 */
public final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);
    static final String CONFIG = "/config";
    static final String VERSION = "version";

    private final String component;
    private final Supplier<String> statsJson;
    private final BooleanSupplier ready;
    private final ConfigEndpoint config;

    public AdminHandler(String component, Supplier<String> statsJson, BooleanSupplier ready, ConfigEndpoint config) {
        this.component = component;
        this.statsJson = statsJson;
        this.ready = ready;
        this.config = config;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        QueryStringDecoder uri = new QueryStringDecoder(req.uri());
        String path = uri.path();
        boolean read = HttpMethod.GET.equals(req.method()) || HttpMethod.HEAD.equals(req.method());
        FullHttpResponse res;
        if (!req.decoderResult().isSuccess()) {
            res = text(HttpResponseStatus.BAD_REQUEST, "malformed request\n");
        } else if (path.equals(CONFIG) && HttpMethod.PUT.equals(req.method())) {
            List<String> versions = uri.parameters().getOrDefault(VERSION, List.of());
            putConfig(ctx, req, versions.size() == 1 ? versions.get(0) : null);
            return;
        } else if (!read) {
            res = text(HttpResponseStatus.METHOD_NOT_ALLOWED, path.equals(CONFIG) ? "only GET and PUT are served\n" : "only GET is served\n");
            res.headers().set(HttpHeaderNames.ALLOW, path.equals(CONFIG) ? "GET, HEAD, PUT" : "GET, HEAD");
        } else if (path.equals("/stats")) {
            res = json(HttpResponseStatus.OK, statsJson.get());
        } else if (path.equals(CONFIG)) {
            res = json(HttpResponseStatus.OK, config.configJson());
        } else if (path.equals("/ready")) {
            res = ready.getAsBoolean() ? text(HttpResponseStatus.OK, "ready\n")
                    : text(HttpResponseStatus.SERVICE_UNAVAILABLE, "not ready\n");
        } else {
            res = text(HttpResponseStatus.NOT_FOUND, component + " serves GET /stats, GET /ready, GET /config and PUT /config?version=<v>\n");
        }
        send(ctx, req.method(), HttpUtil.isKeepAlive(req) && req.decoderResult().isSuccess(), res);
    }

    /** Answers when the endpoint has applied or refused the configuration; reads nothing more from the client until then. */
    private void putConfig(ChannelHandlerContext ctx, FullHttpRequest req, String version) {
        String body = req.content().toString(StandardCharsets.UTF_8);
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        HttpMethod method = req.method();
        ctx.channel().config().setAutoRead(false);
        config.putConfig(version, body).whenComplete((json, failure) -> {
            FullHttpResponse res = failure == null ? json(HttpResponseStatus.OK, json) : refusal(failure);
            send(ctx, method, keepAlive, res);
            ctx.channel().config().setAutoRead(true);
        });
    }

    private static FullHttpResponse refusal(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof ConfigRefusedException refused) {
            return text(HttpResponseStatus.valueOf(refused.reason().httpStatus()), refused.getMessage() + "\n");
        }
        return text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "applying the configuration failed: " + cause + "\n");
    }

    private static void send(ChannelHandlerContext ctx, HttpMethod method, boolean keepAlive, FullHttpResponse res) {
        HttpUtil.setKeepAlive(res, keepAlive);
        if (HttpMethod.HEAD.equals(method)) {
            res.content().clear();
        }
        var written = ctx.writeAndFlush(res);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static FullHttpResponse json(HttpResponseStatus status, String json) {
        return body(status, json + "\n", "application/json");
    }

    private static FullHttpResponse text(HttpResponseStatus status, String text) {
        return body(status, text, "text/plain; charset=utf-8");
    }

    private static FullHttpResponse body(HttpResponseStatus status, String text, String contentType) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
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
