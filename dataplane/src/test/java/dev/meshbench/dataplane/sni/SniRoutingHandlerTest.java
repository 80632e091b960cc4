package dev.meshbench.dataplane.sni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.relay.RouteSelectedEvent;
import dev.meshbench.dataplane.stats.HopCounters;
import dev.meshbench.dataplane.stats.HopStats;
import dev.meshbench.dataplane.stats.Refusal;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SniRoutingHandlerTest {
    private static final Upstream MONGO = Upstream.of(HostAndPort.parse("127.0.0.1:27017"), "mongo");
    private static final Upstream OTHER = Upstream.of(HostAndPort.parse("127.0.0.1:27018"), "other");

    private final HopCounters counters = new HopCounters();
    private final Recorder recorder = new Recorder();

    private EmbeddedChannel channel(int maxHello) {
        RouteTable routes = new RouteTable(List.of(
                new RouteTable.Route("*.meshbench.test", MONGO),
                new RouteTable.Route("other.example.org", OTHER)));
        return new EmbeddedChannel(new SniRoutingHandler("sni-proxy/sni", routes, counters, new ClientHelloReader(maxHello),
                Duration.ofSeconds(5)), recorder);
    }

    /** Captures what passes the router: events and bytes. */
    static final class Recorder extends ChannelInboundHandlerAdapter {
        final List<Object> events = new ArrayList<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            bytes.writeBytes(ByteBufUtil.getBytes(b));
            b.release();
        }
    }

    @Test
    @DisplayName("routes by a wildcard and passes every byte on, ClientHello included, when it arrives in pieces")
    void routesFragmentedHello() {
        EmbeddedChannel ch = channel(ClientHelloReader.DEFAULT_MAX_CLIENT_HELLO);
        byte[] hello = ClientHellos.splitIntoRecords(ClientHellos.fromJdk("mongo.meshbench.test"), 200);
        byte[] after = {23, 3, 3, 0, 2, 9, 9};
        int[] cuts = {1, 4, 6, 205, 300, hello.length};
        int from = 0;
        for (int cut : cuts) {
            assertTrue(recorder.events.isEmpty(), "no route before the ClientHello is complete");
            ch.writeInbound(Unpooled.wrappedBuffer(hello, from, cut - from));
            from = cut;
        }
        assertEquals(List.of(new RouteSelectedEvent(MONGO, "mongo.meshbench.test")), recorder.events);
        ch.writeInbound(Unpooled.wrappedBuffer(after));
        assertArrayEquals(ClientHellos.concat(hello, after), recorder.bytes.toByteArray());
        assertNull(ch.pipeline().get(SniRoutingHandler.class), "the router steps aside once it has routed");
        assertTrue(ch.isOpen());
        assertEquals(0, counters.snapshot().refusedTotal());
        assertFalse(ch.finish());
    }

    @Test
    @DisplayName("prefers the exact route and matches names case-insensitively")
    void exactRoute() {
        EmbeddedChannel ch = channel(ClientHelloReader.DEFAULT_MAX_CLIENT_HELLO);
        ch.writeInbound(Unpooled.wrappedBuffer(ClientHellos.fromJdk("Other.Example.org")));
        assertEquals(List.of(new RouteSelectedEvent(OTHER, "other.example.org")), recorder.events);
        ch.finishAndReleaseAll();
    }

    @Test
    @DisplayName("refuses an unknown server name: closes, counts it under sni, passes nothing on")
    void refusesUnknownName() {
        EmbeddedChannel ch = channel(ClientHelloReader.DEFAULT_MAX_CLIENT_HELLO);
        ch.writeInbound(Unpooled.wrappedBuffer(ClientHellos.fromJdk("mongo.elsewhere.org")));
        assertRefused(ch, Refusal.SNI);
    }

    @Test
    @DisplayName("refuses a ClientHello without a server name, counted under sni")
    void refusesMissingName() {
        EmbeddedChannel ch = channel(ClientHelloReader.DEFAULT_MAX_CLIENT_HELLO);
        ch.writeInbound(Unpooled.wrappedBuffer(ClientHellos.fromJdk(null)));
        assertRefused(ch, Refusal.SNI);
    }

    @Test
    @DisplayName("refuses garbage at once, counted under clientHello")
    void refusesGarbage() {
        EmbeddedChannel ch = channel(ClientHelloReader.DEFAULT_MAX_CLIENT_HELLO);
        ch.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\n", java.nio.charset.StandardCharsets.US_ASCII));
        assertRefused(ch, Refusal.CLIENT_HELLO);
    }

    @Test
    @DisplayName("refuses a ClientHello over the size limit, counted under clientHello")
    void refusesOversized() {
        EmbeddedChannel ch = channel(64);
        ch.writeInbound(Unpooled.wrappedBuffer(ClientHellos.fromJdk("mongo.meshbench.test")));
        assertRefused(ch, Refusal.CLIENT_HELLO);
    }

    @Test
    @DisplayName("gives up on a client that never completes its ClientHello")
    void timesOut() {
        RouteTable routes = RouteTable.of("*", MONGO);
        EmbeddedChannel ch = new EmbeddedChannel(new SniRoutingHandler("gw/egress", routes, counters, new ClientHelloReader(),
                Duration.ofMillis(50)), recorder);
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {22, 3, 1}));
        ch.advanceTimeBy(60, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertRefused(ch, Refusal.CLIENT_HELLO);
    }

    private void assertRefused(EmbeddedChannel ch, Refusal why) {
        assertFalse(ch.isOpen(), "connection closed");
        assertTrue(recorder.events.isEmpty(), "no route selected");
        assertEquals(0, recorder.bytes.size(), "nothing passed on");
        HopStats s = counters.snapshot();
        assertEquals(1, s.refused(why), why + " counted");
        assertEquals(1, s.refusedTotal(), "counted once");
        ch.finishAndReleaseAll();
    }
}
