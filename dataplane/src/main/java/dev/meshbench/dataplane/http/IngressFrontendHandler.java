package dev.meshbench.dataplane.http;

import dev.meshbench.dataplane.config.PathRoutes;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.relay.ListenerContext;
import dev.meshbench.dataplane.relay.LogText;
import dev.meshbench.dataplane.stats.HttpCounters;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client side of the ingress gateway: routes each complete request by its method and normalized path
 * ({@link PathRoutes#normalize}; a path it refuses is answered 400) and forwards it over a pooled keep-alive
 * connection to that upstream, then relays the response.
 *
 * <p>One request at a time per client connection, as HTTP/1.1 without pipelining: {@code AUTO_READ} is off and
 * the client is read from again only once the response was written (backpressure, as in the relay). A client
 * that sends its next request early is not broken: a request decoded while another is in flight waits its turn.
 * The connection stays open after a response when the request allowed it (HTTP/1.1 unless {@code Connection:
 * close}; HTTP/1.0 only with {@code Connection: keep-alive}); the upstream connection has its own keep-alive.
 *
 * <p>The gateway answers itself when no route matches (404, {@code noRoute}) and when the upstream cannot take
 * the request: connect failed, or the connection closed before a full response (503, {@code upstreamUnavailable},
 * one log line each). It does not retry: a request may not be safe to send twice, and a failure should show.
 */
final class IngressFrontendHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(IngressFrontendHandler.class);
    private static final String UPSTREAM_SERVICE_TIME = "x-envoy-upstream-service-time";

    private final ListenerContext listener;
    private final HttpCounters counters;
    private final PathRoutes routes;
    private final UpstreamPools pools;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private boolean busy;
    private boolean closed;

    IngressFrontendHandler(ListenerContext listener, PathRoutes routes, UpstreamPools pools) {
        this.listener = listener;
        this.counters = listener.counters().http();
        this.routes = routes;
        this.pools = pools;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        listener.counters().connectionOpened();
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (busy) {
            waiting.add(request);
            return;
        }
        handle(ctx, request);
    }

    private void handle(ChannelHandlerContext ctx, FullHttpRequest request) {
        busy = true;
        counters.request();
        HttpVersion version = request.protocolVersion();
        if (!request.decoderResult().isSuccess()) {
            Throwable failure = request.decoderResult().cause();
            String cause = LogText.cause(failure);
            request.release();
            LOG.debug("{}: malformed request from {}: {}", listener.hop(), LogText.address(ctx.channel().remoteAddress()), cause);
            HttpResponseStatus status = failure instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                    : failure instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG : HttpResponseStatus.BAD_REQUEST;
            String what = status == HttpResponseStatus.BAD_REQUEST ? "malformed request" : status.reasonPhrase().toLowerCase(java.util.Locale.ROOT);
            respond(ctx, IngressResponses.text(HttpVersion.HTTP_1_1, status, listener.component() + ": " + what + ": " + cause + "\n"), false);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        String rawPath = path(request.uri());
        String path;
        try {
            path = rawPath == null ? null : PathRoutes.normalize(rawPath);
        } catch (IllegalArgumentException e) {
            request.release();
            respond(ctx, IngressResponses.text(version, HttpResponseStatus.BAD_REQUEST, listener.component() + ": refused path "
                    + LogText.shortened(rawPath) + ": " + e.getMessage() + "\n"), keepAlive);
            return;
        }
        Optional<PathRoutes.Route> route = path == null ? Optional.empty() : routes.match(request.method().name(), path);
        if (route.isEmpty()) {
            counters.noRoute();
            request.release();
            respond(ctx, IngressResponses.text(version, HttpResponseStatus.NOT_FOUND, listener.component() + ": no route for "
                    + request.method().name() + " " + LogText.shortened(path == null ? request.uri() : path) + "\n"), keepAlive);
            return;
        }
        if (request.uri().startsWith("/") && !rawPath.equals(rawPath.replaceAll("/{2,}", "/"))) {
            // As Envoy's merge_slashes: the upstream gets the path that was routed.
            request.setUri(rawPath.replaceAll("/{2,}", "/") + request.uri().substring(rawPath.length()));
        }
        Upstream upstream = route.get().upstream();
        FixedChannelPool pool = pools.pool(upstream);
        FullHttpRequest outbound = forwarded(ctx, request);
        Future<Channel> acquired = pool.acquire(ctx.executor().newPromise());
        acquired.addListener(f -> {
            if (!f.isSuccess()) {
                outbound.release();
                unavailable(ctx, upstream, request.method().name(), request.uri(), version, keepAlive, reason(f.cause()));
                return;
            }
            Channel ch = acquired.getNow();
            if (closed) {
                outbound.release();
                pool.release(ch);
                return;
            }
            send(ctx, pool, ch, upstream, outbound, version, keepAlive);
        });
    }

    /** The request as the upstream gets it: same method, URI, headers and body, minus hop-by-hop headers. */
    private FullHttpRequest forwarded(ChannelHandlerContext ctx, FullHttpRequest request) {
        HttpHeaders headers = HopByHopHeaders.withoutHopByHop(request.headers());
        // The aggregator already answered "Expect: 100-continue"; the upstream gets the whole body at once.
        headers.remove(HttpHeaderNames.EXPECT);
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress client) {
            String forwardedFor = headers.get("x-forwarded-for");
            String me = client.getAddress().getHostAddress();
            headers.set("x-forwarded-for", forwardedFor == null ? me : forwardedFor + ", " + me);
        }
        // HTTP/1.1 towards the upstream whatever the client spoke, so the pooled connection stays open.
        DefaultFullHttpRequest out = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, request.method(), request.uri(), request.content(),
                headers, request.trailingHeaders());
        if (!HttpUtil.isContentLengthSet(out) && out.content().isReadable()) {
            HttpUtil.setContentLength(out, out.content().readableBytes());
        }
        return out;
    }

    private void send(ChannelHandlerContext ctx, FixedChannelPool pool, Channel ch, Upstream upstream, FullHttpRequest outbound,
            HttpVersion version, boolean keepAlive) {
        String method = outbound.method().name();
        String uri = outbound.uri();
        long sentAt = System.nanoTime();
        ch.attr(UpstreamResponseHandler.EXCHANGE).set(new UpstreamExchange() {
            @Override
            public void response(FullHttpResponse response) {
                if (!HttpUtil.isKeepAlive(response)) {
                    ch.close();
                }
                pool.release(ch);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt);
                ctx.executor().execute(() -> relay(ctx, response, version, keepAlive, millis));
            }

            @Override
            public void failed(String reason) {
                ch.close();
                pool.release(ch);
                ctx.executor().execute(() -> unavailable(ctx, upstream, method, uri, version, keepAlive, reason));
            }
        });
        counters.upstream(upstream.displayName()).requestSent();
        ch.writeAndFlush(outbound).addListener(w -> {
            if (!w.isSuccess()) {
                UpstreamExchange exchange = UpstreamResponseHandler.take(ch);
                if (exchange != null) {
                    exchange.failed("sending the request failed: " + LogText.cause(w.cause()));
                }
            }
        });
    }

    private void relay(ChannelHandlerContext ctx, FullHttpResponse response, HttpVersion version, boolean keepAlive, long millis) {
        if (closed) {
            response.release();
            return;
        }
        HttpHeaders headers = HopByHopHeaders.withoutHopByHop(response.headers());
        headers.set(UPSTREAM_SERVICE_TIME, millis);
        FullHttpResponse out = new DefaultFullHttpResponse(version, response.status(), response.content(), headers,
                response.trailingHeaders());
        respond(ctx, out, keepAlive);
    }

    private void unavailable(ChannelHandlerContext ctx, Upstream upstream, String method, String uri, HttpVersion version, boolean keepAlive,
            String reason) {
        counters.upstreamUnavailable();
        String what = "upstream " + upstream.displayName() + " (" + upstream.address() + ") unavailable: " + reason;
        LOG.warn("{}: {} {}: {}", listener.hop(), method, uri, what);
        if (closed) {
            return;
        }
        respond(ctx, IngressResponses.text(version, HttpResponseStatus.SERVICE_UNAVAILABLE, listener.component() + ": " + what + "\n"),
                keepAlive);
    }

    /** Writes the response, then reads the next request, or closes when this was the connection's last. */
    private void respond(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        counters.response(response.status().code());
        HttpUtil.setKeepAlive(response, keepAlive);
        ctx.writeAndFlush(response).addListener(f -> {
            if (!f.isSuccess()) {
                ctx.close();
                return;
            }
            if (!keepAlive) {
                // The client may still be sending (a malformed or refused request): the answer must not be lost to a reset.
                LingeringClose.close(ctx.channel());
                return;
            }
            busy = false;
            FullHttpRequest next = waiting.poll();
            if (next != null) {
                handle(ctx, next);
            } else {
                ctx.read();
            }
        });
    }

    /**
     * The path of a request target without query or fragment: of the origin form ({@code /auth/login?x=1}) or the
     * absolute form ({@code http://host/auth/login}, {@code /} when it has no path); null for anything else
     * ({@code *}, garbage), which no route matches.
     */
    static String path(String uri) {
        if (uri.startsWith("/")) {
            return new QueryStringDecoder(uri).rawPath();
        }
        try {
            // absolute-form (http://host/auth/login), as a client configured with a proxy sends it
            URI u = URI.create(uri);
            if (!u.isAbsolute() || u.getRawAuthority() == null) {
                return null;
            }
            String p = u.getRawPath();
            return p == null || p.isEmpty() ? "/" : p;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Why a connect failed, short: {@code connection refused}, {@code connect timed out}, or the cause's message. */
    static String reason(Throwable cause) {
        for (Throwable c = cause; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof ConnectTimeoutException) {
                return "connect timed out";
            }
            if (c instanceof ConnectException && c.getMessage() != null && c.getMessage().startsWith("Connection refused")) {
                return "connection refused";
            }
        }
        return LogText.cause(cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        listener.counters().connectionClosed();
        FullHttpRequest r;
        while ((r = waiting.poll()) != null) {
            r.release();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        String client = LogText.address(ctx.channel().remoteAddress());
        if (cause instanceof IOException) {
            LOG.debug("{}: connection from {} failed: {}", listener.hop(), client, LogText.cause(cause));
        } else {
            LOG.warn("{}: connection from {} failed: {}", listener.hop(), client, LogText.cause(cause));
        }
        ctx.close();
    }
}
