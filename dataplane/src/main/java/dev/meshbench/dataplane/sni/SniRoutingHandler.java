package dev.meshbench.dataplane.sni;

import dev.meshbench.dataplane.config.DnsNames;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.relay.LogText;
import dev.meshbench.dataplane.relay.RouteSelectedEvent;
import dev.meshbench.dataplane.stats.HopCounters;
import dev.meshbench.dataplane.stats.Refusal;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.AbstractSniHandler;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes a new connection by the server name in its TLS ClientHello, without terminating TLS. Netty's
 * {@link AbstractSniHandler} gathers the ClientHello (across TCP reads and TLS records, up to a size limit) and
 * reads its server name, consuming nothing; this handler picks the upstream from the {@link RouteTable}, fires a
 * {@link RouteSelectedEvent} and removes itself, whereupon Netty's decoder hands every byte read so far (the
 * ClientHello included, unchanged) to the next handler. Unknown or missing names, bytes that are not a ClientHello,
 * oversized or slow ClientHellos close the connection, counted and logged with the hop's name; nothing of a refused
 * connection is passed on. Works with {@code AUTO_READ} off: the decoder asks for more while the ClientHello is
 * incomplete.
 */
public final class SniRoutingHandler extends AbstractSniHandler<RouteTable.Route> {
    private static final Logger LOG = LoggerFactory.getLogger(SniRoutingHandler.class);
    /** How long a client may take to send its ClientHello. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** Default ceiling for the ClientHello message: generous for post-quantum key shares, small for a buffer. */
    public static final int DEFAULT_MAX_CLIENT_HELLO = 16 * 1024;

    private static final int RECORD_HEADER = 5;

    private enum State { WAITING, ROUTED, CLOSED }

    private final String hop;
    private final RouteTable routes;
    private final HopCounters counters;
    private final Duration timeout;
    private State state = State.WAITING;
    /** False when Netty found no ClientHello at all (it then looks up a null name, as for a ClientHello without one). */
    private boolean clientHelloSeen;
    private ScheduledFuture<?> deadline;
    /** The client, for log lines (taken while connected: once Netty has closed a channel it may no longer say). */
    private String client = "?";

    /**
     * @param maxClientHello largest ClientHello message accepted, in bytes (Netty's limit: 0 to 2^24 - 1, 0 for none)
     * @param timeout        how long a client may take to send the whole ClientHello
     */
    public SniRoutingHandler(String hop, RouteTable routes, HopCounters counters, int maxClientHello, Duration timeout) {
        // Netty's own handshake timeout stays off (0): it closes the channel and tells only the handlers after this
        // one, so the refusal could not be counted and logged here. The deadline in channelActive does both.
        super(maxClientHello, 0L);
        this.hop = hop;
        this.routes = routes;
        this.counters = counters;
        this.timeout = timeout;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        client = LogText.address(ctx.channel().remoteAddress());
        deadline = ctx.executor().schedule(
                () -> refuse(ctx, Refusal.CLIENT_HELLO, "no complete ClientHello within " + timeout.toMillis() + " ms"),
                timeout.toMillis(), TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
        ctx.read();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (state == State.WAITING) {
            try {
                super.decode(ctx, wholeRecords(in), out);
            } catch (TooLongFrameException e) {
                // Netty has closed the connection; its message names the limit and the announced length.
                refuse(ctx, Refusal.CLIENT_HELLO, e.getMessage());
            } catch (NotSslRecordException e) {
                // Netty has closed the connection; its message quotes the peer's bytes, this line does not.
                refuse(ctx, Refusal.CLIENT_HELLO, "not a TLS record");
            }
        }
        if (state == State.CLOSED) {
            in.skipBytes(in.readableBytes()); // so the decoder passes nothing on when it is removed
        }
    }

    /**
     * The whole TLS records at the start of {@code in}, or all of {@code in} while its first record is incomplete.
     * Written here because Netty 4.2.9 (pinned by this module for BoringSSL, see its pom) miscounts a ClientHello
     * spread over several records: after the record holding the handshake header it takes 4 bytes more as received
     * than there are, so a partial record that follows reads as not TLS, or as whole with bytes not yet received.
     * Given whole records only, it counts right. Netty 4.2.20 no longer needs this; drop it with the pin.
     */
    private static ByteBuf wholeRecords(ByteBuf in) {
        int start = in.readerIndex();
        int end = start;
        while (in.writerIndex() - end >= RECORD_HEADER) {
            int next = end + RECORD_HEADER + in.getUnsignedShort(end + 3);
            if (next > in.writerIndex()) {
                break;
            }
            end = next;
        }
        return end == start ? in : in.slice(start, end - start);
    }

    @Override
    protected Future<RouteTable.Route> lookup(ChannelHandlerContext ctx, ByteBuf clientHello) throws Exception {
        clientHelloSeen = clientHello != null;
        return super.lookup(ctx, clientHello);
    }

    @Override
    protected Future<RouteTable.Route> lookup(ChannelHandlerContext ctx, String hostname) {
        return ctx.executor().newSucceededFuture(hostname == null ? null : routes.match(hostname).orElse(null));
    }

    @Override
    protected void onLookupComplete(ChannelHandlerContext ctx, String hostname, Future<RouteTable.Route> future) {
        if (!clientHelloSeen) {
            refuse(ctx, Refusal.CLIENT_HELLO, "not a TLS ClientHello");
        } else if (hostname == null) {
            refuse(ctx, Refusal.SNI, "ClientHello carries no server name");
        } else {
            String name = DnsNames.normalize(hostname);
            if (!DnsNames.isHostName(name)) {
                refuse(ctx, Refusal.CLIENT_HELLO, "server name of " + hostname.length() + " bytes is not a valid DNS host name");
            } else if (future.getNow() == null) {
                refuse(ctx, Refusal.SNI, "no route for server name " + name);
            } else {
                route(ctx, name, future.getNow());
            }
        }
    }

    private void route(ChannelHandlerContext ctx, String serverName, RouteTable.Route route) {
        if (state != State.WAITING) {
            return;
        }
        state = State.ROUTED;
        cancelDeadline();
        LOG.debug("{}: {} asks for {}, routing to {}", hop, client, serverName, route.upstream().describe());
        ctx.fireUserEventTriggered(new RouteSelectedEvent(route.upstream(), serverName));
        // Once decode returns, ByteToMessageDecoder passes on everything it holds: the ClientHello and what followed.
        ctx.pipeline().remove(this);
    }

    private void refuse(ChannelHandlerContext ctx, Refusal why, String reason) {
        if (state != State.WAITING) {
            return;
        }
        state = State.CLOSED;
        cancelDeadline();
        counters.refused(why);
        LOG.warn("{}: refused connection from {}: {}", hop, client, reason);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (state == State.WAITING) {
            state = State.CLOSED; // the client left before its ClientHello was whole: not a refusal
        }
        cancelDeadline();
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        cancelDeadline();
        super.handlerRemoved0(ctx);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
