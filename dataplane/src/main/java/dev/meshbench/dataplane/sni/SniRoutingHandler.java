package dev.meshbench.dataplane.sni;

import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.relay.LogText;
import dev.meshbench.dataplane.relay.RouteSelectedEvent;
import dev.meshbench.dataplane.stats.HopCounters;
import dev.meshbench.dataplane.stats.Refusal;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a new connection's first bytes until they form a complete TLS ClientHello, routes by its server name,
 * then hands every byte read so far (the ClientHello included) to the next handler and steps aside. TLS is not
 * terminated. Unknown or missing names, garbage, oversized or slow ClientHellos close the connection, counted
 * and logged with the hop's name. Works with {@code AUTO_READ} off: it asks for more bytes itself.
 */
public final class SniRoutingHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(SniRoutingHandler.class);
    /** How long a client may take to send its ClientHello. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private final String hop;
    private final RouteTable routes;
    private final HopCounters counters;
    private final ClientHelloReader reader;
    private final Duration timeout;
    private ByteBuf buffered;
    private ScheduledFuture<?> deadline;
    private boolean decided;

    public SniRoutingHandler(String hop, RouteTable routes, HopCounters counters, ClientHelloReader reader, Duration timeout) {
        this.hop = hop;
        this.routes = routes;
        this.counters = counters;
        this.reader = reader;
        this.timeout = timeout;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        deadline = ctx.executor().schedule(() -> {
            if (!decided) {
                refuse(ctx, Refusal.CLIENT_HELLO, "no complete ClientHello within " + timeout.toMillis() + " ms");
            }
        }, timeout.toMillis(), TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (decided || !(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (buffered == null) {
            buffered = in;
        } else {
            buffered = ctx.alloc().compositeBuffer().addComponents(true, buffered, in);
        }
        ClientHelloResult result = reader.read(buffered);
        if (result instanceof ClientHelloResult.NeedMore) {
            ctx.read();
        } else if (result instanceof ClientHelloResult.ServerName name) {
            route(ctx, name.name());
        } else if (result instanceof ClientHelloResult.NoServerName) {
            refuse(ctx, Refusal.SNI, "ClientHello carries no server name");
        } else {
            refuse(ctx, Refusal.CLIENT_HELLO, ((ClientHelloResult.Invalid) result).reason());
        }
    }

    private void route(ChannelHandlerContext ctx, String serverName) {
        Optional<RouteTable.Route> route = routes.match(serverName);
        if (route.isEmpty()) {
            refuse(ctx, Refusal.SNI, "no route for server name " + serverName);
            return;
        }
        decided = true;
        cancelDeadline();
        LOG.debug("{}: {} asks for {}, routing to {}", hop, LogText.address(ctx.channel().remoteAddress()), serverName,
                route.get().upstream().describe());
        ByteBuf bytes = buffered;
        buffered = null;
        ctx.fireUserEventTriggered(new RouteSelectedEvent(route.get().upstream(), serverName));
        ctx.fireChannelRead(bytes);
        ctx.pipeline().remove(this);
    }

    private void refuse(ChannelHandlerContext ctx, Refusal why, String reason) {
        if (decided) {
            return;
        }
        decided = true;
        cancelDeadline();
        release();
        counters.refused(why);
        LOG.warn("{}: refused connection from {}: {}", hop, LogText.address(ctx.channel().remoteAddress()), reason);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        decided = true;
        cancelDeadline();
        release();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelDeadline();
        release();
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    private void release() {
        if (buffered != null) {
            buffered.release();
            buffered = null;
        }
    }
}
