package dev.meshbench.dataplane.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a client connection after its last response without losing that response to a reset: what Envoy's
 * {@code delayed_close_timeout} and nginx's {@code lingering_close} do, which Netty has no option for.
 *
 * <p>A plain close while the client is still sending (a body over the cap, answered 413 before it was all read) leaves
 * unread bytes in the socket, so the kernel answers them with a reset; a reset can reach the client before it has read
 * the response, which it then never sees (Java's HttpClient: "header parser received no bytes"; one 2 MiB body in
 * about twenty on loopback). Instead the gateway half-closes (the client reads the response, then end of stream),
 * reads and drops whatever the client still sends, and closes when the client closes its side, or after {@link #LINGER}
 * at most, so a client that keeps sending cannot hold the connection.
 */
final class LingeringClose {
    /** The longest a closing connection is kept to drain: Envoy's {@code delayed_close_timeout} default. */
    static final Duration LINGER = Duration.ofSeconds(1);

    private LingeringClose() {
    }

    /** Half-closes {@code ch} (its writes are already flushed), drops what it still receives, and closes it. */
    static void close(Channel ch) {
        if (!(ch instanceof DuplexChannel duplex) || !ch.isActive() || duplex.isOutputShutdown()) {
            ch.close();
            return;
        }
        ch.pipeline().addFirst("lingering-close", new Drop());
        var timer = ch.eventLoop().schedule(() -> {
            ch.close();
        }, LINGER.toMillis(), TimeUnit.MILLISECONDS);
        ch.closeFuture().addListener(f -> timer.cancel(false));
        duplex.shutdownOutput().addListener(f -> {
            if (!f.isSuccess()) {
                ch.close();
            }
        });
        // The listeners read on demand (AUTO_READ off); from here everything is read, to be dropped.
        ch.config().setAutoRead(true);
    }

    /** Drops every inbound message; closes when the client has closed its side. */
    private static final class Drop extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            // Nothing downstream asked for this read; keep it from reaching the HTTP handlers.
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent) {
                ctx.close();
            }
            ReferenceCountUtil.release(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A reset from the client while draining ends the connection; it is not a failure of the answer already sent.
            ctx.close();
        }
    }
}
