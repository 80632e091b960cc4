package dev.meshbench.dataplane.relay;

import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.dataplane.stats.Refusal;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client side of a relayed connection, in the shape of Netty's HexDumpProxy frontend: the upstream channel runs
 * on this channel's event loop, {@code AUTO_READ} is off, and the client is read from again only once the
 * previous chunk was written to the upstream. When either side closes, the other is closed after flushing.
 *
 * <p>The upstream is known at once for a fixed route or a round robin (the next upstream in turn, picked per
 * connection since the relay does not parse HTTP); otherwise it is chosen after the mTLS handshake (by the
 * tunnel's server name) or by a {@link RouteSelectedEvent} from the ClientHello router. A terminating listener
 * picks only once the client's handshake succeeded, so a refused client does not take a round-robin turn. Bytes that arrive
 * before the upstream is ready (a ClientHello, data decrypted together with the handshake) wait in order.
 */
public final class RelayFrontendHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(RelayFrontendHandler.class);

    private final ListenerContext listener;
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private Channel outbound;
    private boolean relaying;

    public RelayFrontendHandler(ListenerContext listener) {
        this.listener = listener;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        listener.counters().connectionOpened();
        Optional<Upstream> upstream = listener.config().terminateMtls() ? Optional.empty() : upstreamWithoutPeeking();
        if (upstream.isPresent()) {
            connect(ctx, upstream.get());
        } else {
            ctx.read(); // drives the TLS handshake or the ClientHello router
        }
    }

    /**
     * The upstream when the routing does not depend on what the client sends: the fixed one, or the next in
     * turn of a round robin (counted for it); empty when the routing reads a server name. A round-robin
     * connection whose upstream then refuses is closed and counted like any refused connect, not sent to
     * another upstream (Envoy's TCP proxy with its default of one connect attempt, without health checks): a
     * replica that is down shows as failures.
     */
    private Optional<Upstream> upstreamWithoutPeeking() {
        Routing routing = listener.config().routing();
        if (routing instanceof Routing.Fixed fixed) {
            return Optional.of(fixed.upstream());
        }
        if (routing instanceof Routing.RoundRobin) {
            Upstream next = listener.roundRobin().next();
            listener.counters().routedTo(next.address().toString());
            return Optional.of(next);
        }
        return Optional.empty();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done && listener.config().terminateMtls()) {
            // Only a terminating listener has a handshake of its own. On a ClientHello-routed one Netty's ClientHello
            // decoder fires a failed handshake event when it refuses bytes (not TLS, too long): the router counted those.
            onTunnelHandshake(ctx, done);
        } else if (evt instanceof RouteSelectedEvent route) {
            connect(ctx, route.upstream());
        } else {
            super.userEventTriggered(ctx, evt);
        }
    }

    private void onTunnelHandshake(ChannelHandlerContext ctx, SslHandshakeCompletionEvent done) {
        String client = LogText.address(ctx.channel().remoteAddress());
        if (!done.isSuccess()) {
            listener.counters().refused(Refusal.TLS);
            LOG.warn("{}: refused connection from {}: mTLS handshake failed: {}", listener.hop(), client, LogText.cause(done.cause()));
            ctx.close();
            return;
        }
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: mTLS from {} as {}", listener.hop(), client, PeerIdentity.describe(tls.engine().getSession()));
        }
        Optional<Upstream> upstream = upstreamWithoutPeeking();
        if (upstream.isPresent()) {
            connect(ctx, upstream.get());
            return;
        }
        RouteTable routes = ((Routing.ByTunnelServerName) listener.config().routing()).routes();
        Optional<String> name = PeerIdentity.requestedServerName(tls.engine().getSession());
        Optional<RouteTable.Route> route = name.flatMap(routes::match);
        if (route.isEmpty()) {
            listener.counters().refused(Refusal.SNI);
            LOG.warn("{}: refused connection from {}: {}", listener.hop(), client,
                    name.map(n -> "no route for server name " + n).orElse("the mTLS handshake carried no server name"));
            ctx.close();
            return;
        }
        connect(ctx, route.get().upstream());
    }

    private void connect(ChannelHandlerContext ctx, Upstream upstream) {
        if (outbound != null) {
            return;
        }
        Channel inbound = ctx.channel();
        Bootstrap b = new Bootstrap()
                .group(inbound.eventLoop())
                .channel(inbound.getClass())
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) listener.connectTimeout().toMillis())
                .handler(new UpstreamInitializer(listener, upstream, inbound));
        ChannelFuture connected = b.connect(upstream.address().toSocketAddress());
        outbound = connected.channel();
        connected.addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess() && !inbound.isActive()) {
                // The client left (or a drain closed it) while the upstream was being connected: nothing was refused.
                LOG.debug("{}: upstream {} connect abandoned, the client closed: {}", listener.hop(), upstream.describe(), LogText.cause(f.cause()));
                return;
            }
            if (!f.isSuccess()) {
                listener.counters().refused(Refusal.UPSTREAM_CONNECT);
                LOG.warn("{}: upstream {} connect failed: {}", listener.hop(), upstream.describe(), LogText.cause(f.cause()));
                inbound.close();
                return;
            }
            if (!inbound.isActive()) {
                f.channel().close();
                return;
            }
            if (listener.config().upstreamTls() instanceof UpstreamTls.MutualTls mtls) {
                awaitUpstreamTls(ctx, upstream, mtls);
            } else {
                startRelaying(ctx);
            }
        });
    }

    private void awaitUpstreamTls(ChannelHandlerContext ctx, Upstream upstream, UpstreamTls.MutualTls mtls) {
        SslHandler tls = outbound.pipeline().get(SslHandler.class);
        tls.handshakeFuture().addListener(h -> {
            String problem = null;
            if (!h.isSuccess()) {
                problem = "mTLS handshake failed: " + LogText.cause(h.cause());
            } else if (mtls.peerIdentity() != null) {
                try {
                    if (!PeerIdentity.hasUri(tls.engine().getSession(), mtls.peerIdentity())) {
                        problem = "peer is " + PeerIdentity.describe(tls.engine().getSession()) + ", expected " + mtls.peerIdentity();
                    }
                } catch (SSLPeerUnverifiedException e) {
                    problem = "peer identity unavailable: " + LogText.cause(e);
                }
            }
            if (problem != null) {
                listener.counters().refused(Refusal.UPSTREAM_TLS);
                LOG.warn("{}: upstream {} {}", listener.hop(), upstream.describe(), problem);
                outbound.close();
                ctx.channel().close();
                return;
            }
            startRelaying(ctx);
        });
    }

    private void startRelaying(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive()) {
            outbound.close();
            return;
        }
        relaying = true;
        ChannelFuture last = null;
        Object msg;
        while ((msg = pending.poll()) != null) {
            count(msg);
            last = outbound.write(msg);
        }
        if (last == null) {
            ctx.channel().read();
        } else {
            outbound.flush();
            last.addListener(readNextOrClose(ctx));
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!relaying) {
            pending.add(msg);
            return;
        }
        count(msg);
        outbound.writeAndFlush(msg).addListener(readNextOrClose(ctx));
    }

    private void count(Object msg) {
        if (msg instanceof ByteBuf buf) {
            listener.counters().relayedToUpstream(buf.readableBytes());
        }
    }

    private static ChannelFutureListener readNextOrClose(ChannelHandlerContext ctx) {
        return f -> {
            if (f.isSuccess()) {
                ctx.channel().read();
            } else {
                f.channel().close();
            }
        };
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        listener.counters().connectionClosed();
        Object msg;
        while ((msg = pending.poll()) != null) {
            ReferenceCountUtil.release(msg);
        }
        if (outbound != null) {
            if (outbound.isActive()) {
                closeOnFlush(outbound);
            } else {
                outbound.close(); // still connecting: cancel
            }
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        String client = LogText.address(ctx.channel().remoteAddress());
        if (LogText.isTls(cause) || cause instanceof IOException) {
            // TLS failures are counted and logged by the handshake event; resets are routine.
            LOG.debug("{}: connection from {} failed: {}", listener.hop(), client, LogText.cause(cause));
        } else {
            LOG.warn("{}: connection from {} failed: {}", listener.hop(), client, LogText.cause(cause));
        }
        closeOnFlush(ctx.channel());
    }

    /** Closes {@code ch} once everything written so far has been flushed. */
    static void closeOnFlush(Channel ch) {
        if (ch.isActive()) {
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
