package dev.meshbench.dataplane.sni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SniRoutingHandlerTest {
    private static final Upstream MONGO = Upstream.of(HostAndPort.parse("127.0.0.1:27017"), "mongo");
    private static final Upstream OTHER = Upstream.of(HostAndPort.parse("127.0.0.1:27018"), "other");
    private static final RouteTable ROUTES = new RouteTable(List.of(
            new RouteTable.Route("*.meshbench.test", MONGO),
            new RouteTable.Route("other.example.org", OTHER)));

    /** Captures what passes the router: the routes it selected and the bytes. */
    static final class Recorder extends ChannelInboundHandlerAdapter {
        final List<RouteSelectedEvent> routes = new ArrayList<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof RouteSelectedEvent route) {
                routes.add(route);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            bytes.writeBytes(ByteBufUtil.getBytes(b));
            b.release();
        }
    }

    /** One client connection through the router, with the hop's counters and what passed the router. */
    static final class Connection {
        final HopCounters counters = new HopCounters();
        final Recorder recorder = new Recorder();

        /** The channel's clock: it moves only when a test advances it, not while the test thread waits for a core. */
        final MockTicker clock = Ticker.newMockTicker();
        final EmbeddedChannel ch;

        Connection(RouteTable routes, int maxHello, Duration timeout) {
            ch = EmbeddedChannel.builder().ticker(clock)
                    .handlers(new SniRoutingHandler("sni-proxy/sni", routes, counters, maxHello, timeout), recorder).build();
        }

        Connection(int maxHello) {
            this(ROUTES, maxHello, Duration.ofSeconds(5));
        }

        Connection() {
            this(SniRoutingHandler.DEFAULT_MAX_CLIENT_HELLO);
        }

        Connection write(byte[] bytes, int from, int to) {
            ch.writeInbound(Unpooled.wrappedBuffer(bytes, from, to - from));
            return this;
        }

        Connection write(byte[] bytes) {
            return write(bytes, 0, bytes.length);
        }

        void assertWaiting(String what) {
            assertTrue(ch.isOpen(), what + ": still open");
            assertTrue(recorder.routes.isEmpty(), what + ": no route yet");
            assertEquals(0, recorder.bytes.size(), what + ": nothing passed on yet");
            assertEquals(0, counters.snapshot().refusedTotal(), what + ": not refused");
            assertNotNull(ch.pipeline().get(SniRoutingHandler.class), what + ": the router still waits");
        }

        void assertRouted(Upstream upstream, String serverName, byte[] sent) {
            assertEquals(List.of(new RouteSelectedEvent(upstream, serverName)), recorder.routes);
            assertArrayEquals(sent, recorder.bytes.toByteArray(), "every byte passed on unchanged, ClientHello included");
            assertNull(ch.pipeline().get(SniRoutingHandler.class), "the router steps aside once it has routed");
            assertTrue(ch.isOpen());
            assertEquals(0, counters.snapshot().refusedTotal());
            ch.finishAndReleaseAll();
        }

        void assertRefused(Refusal why) {
            assertEquals(1, counters.snapshot().refused(why), why + " counted");
            assertRefused();
        }

        /** Closed, nothing passed on, counted once: under sni or clientHello, as Netty's reading of a malformed ClientHello goes. */
        void assertRefused() {
            assertFalse(ch.isOpen(), "connection closed");
            assertTrue(recorder.routes.isEmpty(), "no route selected");
            assertEquals(0, recorder.bytes.size(), "nothing passed on");
            HopStats s = counters.snapshot();
            assertEquals(1, s.refusedTotal(), "counted once");
            assertEquals(1, s.refused(Refusal.SNI) + s.refused(Refusal.CLIENT_HELLO), "counted under sni or clientHello");
            ch.finishAndReleaseAll();
        }
    }

    @Test
    @DisplayName("routes by a wildcard and passes every byte on, ClientHello included, when it arrives in pieces")
    void routesFragmentedHello() {
        Connection c = new Connection();
        byte[] hello = ClientHellos.splitIntoRecords(ClientHellos.fromJdk("mongo.meshbench.test"), 200);
        byte[] after = {23, 3, 3, 0, 2, 9, 9};
        int[] cuts = {1, 4, 6, 205, 300, hello.length};
        int from = 0;
        for (int cut : cuts) {
            c.assertWaiting("before byte " + from);
            c.write(hello, from, cut);
            from = cut;
        }
        assertEquals(List.of(new RouteSelectedEvent(MONGO, "mongo.meshbench.test")), c.recorder.routes);
        c.write(after);
        c.assertRouted(MONGO, "mongo.meshbench.test", ClientHellos.concat(hello, after));
    }

    @Test
    @DisplayName("a ClientHello cut in two at any offset is routed once whole, every byte passed on unchanged")
    void routesHelloSplitAtEveryOffset() {
        byte[] hello = ClientHellos.fromJdk("mongo.meshbench.test");
        for (int cut = 1; cut < hello.length; cut++) {
            Connection c = new Connection().write(hello, 0, cut);
            c.assertWaiting("first " + cut + " bytes");
            c.write(hello, cut, hello.length);
            c.assertRouted(MONGO, "mongo.meshbench.test", hello);
        }
    }

    @ParameterizedTest(name = "records of {0} handshake bytes")
    @ValueSource(ints = {4, 5, 100, 511, 16384})
    @DisplayName("a ClientHello across several TLS records, arriving one byte at a time, is routed at its last byte")
    void routesHelloAcrossRecordsByteAtATime(int chunk) {
        byte[] hello = ClientHellos.splitIntoRecords(ClientHellos.fromJdk("db.meshbench.test"), chunk);
        Connection c = new Connection();
        for (int i = 0; i < hello.length - 1; i++) {
            c.write(hello, i, i + 1);
            c.assertWaiting("first " + (i + 1) + " of " + hello.length + " bytes");
        }
        c.write(hello, hello.length - 1, hello.length);
        c.assertRouted(MONGO, "db.meshbench.test", hello);
    }

    @ParameterizedTest(name = "records of {0} handshake bytes")
    @ValueSource(ints = {1, 2, 3})
    @DisplayName("refuses, never misroutes, a ClientHello whose first record holds less than its 4-byte handshake header")
    void refusesHandshakeHeaderSplitAcrossRecords(int chunk) {
        // Legal TLS, sent by no real client; Netty 4.2.9 reads the header from the first record only (4.2.20 reads it
        // across records: then this ClientHello is routed like the ones above).
        new Connection().write(ClientHellos.splitIntoRecords(ClientHellos.fromJdk("db.meshbench.test"), chunk)).assertRefused();
    }

    @Test
    @DisplayName("with AUTO_READ off, asks for the next bytes while the ClientHello is incomplete")
    void readsOnWithoutAutoRead() throws Exception {
        int[] reads = {0};
        ChannelOutboundHandlerAdapter readCounter = new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                reads[0]++;
                ctx.read();
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(false, false, readCounter,
                new SniRoutingHandler("sni-proxy/sni", ROUTES, new HopCounters(), SniRoutingHandler.DEFAULT_MAX_CLIENT_HELLO,
                        Duration.ofSeconds(5)), new Recorder());
        ch.config().setAutoRead(false);
        ch.register();
        assertEquals(1, reads[0], "the first read, on connect");
        byte[] hello = ClientHellos.fromJdk("mongo.meshbench.test");
        ch.writeInbound(Unpooled.wrappedBuffer(hello, 0, 100));
        assertEquals(2, reads[0], "one more read after an incomplete ClientHello");
        ch.writeInbound(Unpooled.wrappedBuffer(hello, 100, hello.length - 100));
        assertNull(ch.pipeline().get(SniRoutingHandler.class), "routed");
        ch.finishAndReleaseAll();
    }

    @Test
    @DisplayName("passes on the bytes that came with the ClientHello (the client's next flight)")
    void passesTrailingBytes() {
        byte[] sent = ClientHellos.concat(ClientHellos.fromJdk("mongo.meshbench.test"), new byte[] {23, 3, 3, 0, 1, 0});
        new Connection().write(sent).assertRouted(MONGO, "mongo.meshbench.test", sent);
    }

    @Test
    @DisplayName("prefers the exact route and matches names case-insensitively")
    void exactRoute() {
        byte[] hello = ClientHellos.fromJdk("Other.Example.org");
        new Connection().write(hello).assertRouted(OTHER, "other.example.org", hello);
    }

    @Test
    @DisplayName("lower-cases the name and drops a trailing dot")
    void normalizesName() {
        byte[] hello = ClientHellos.handMade(ClientHellos.serverNameExtension(0, "MONGO.MeshBench.test."));
        new Connection().write(hello).assertRouted(MONGO, "mongo.meshbench.test", hello);
    }

    @Test
    @DisplayName("refuses an unknown server name: closes, counts it under sni, passes nothing on")
    void refusesUnknownName() {
        new Connection().write(ClientHellos.fromJdk("mongo.elsewhere.org")).assertRefused(Refusal.SNI);
    }

    @Test
    @DisplayName("refuses a ClientHello without a server name (a client connecting by IP), counted under sni")
    void refusesMissingName() {
        new Connection().write(ClientHellos.fromJdk(null)).assertRefused(Refusal.SNI);
        new Connection().write(ClientHellos.handMade(ClientHellos.serverNameExtension(7, "x"))).assertRefused(Refusal.SNI);
        // No extensions block at all (legal before TLS 1.3): Netty 4.2.9 reads past the message's end, reports no
        // ClientHello and it counts under clientHello; Netty 4.2.20 reports no server name (sni).
        new Connection().write(ClientHellos.handMade(null)).assertRefused();
    }

    @ParameterizedTest(name = "input {index}")
    @ValueSource(strings = {"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "\u0000\u0000\u0000\u0000\u0000", "hello"})
    @DisplayName("refuses bytes that are not a TLS handshake once a record header's worth has arrived, counted under clientHello")
    void refusesGarbage(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        Connection c = new Connection().write(bytes, 0, 4);
        c.assertWaiting("four bytes");
        c.write(bytes, 4, bytes.length).assertRefused(Refusal.CLIENT_HELLO);
    }

    @Test
    @DisplayName("refuses an SSLv2-style hello, a bad record version, an empty record, alert records before any ClientHello")
    void refusesBadRecordHeaders() {
        new Connection().write(new byte[] {(byte) 0x80, 0x2e, 0x01, 0x03, 0x01}).assertRefused(Refusal.CLIENT_HELLO);
        new Connection().write(new byte[] {22, 2, 0, 0, 1}).assertRefused(Refusal.CLIENT_HELLO);
        new Connection().write(new byte[] {22, 3, 1, 0, 0}).assertRefused(Refusal.CLIENT_HELLO);
        new Connection().write(new byte[] {21, 3, 3, 0, 2, 2, 40}).assertRefused(Refusal.CLIENT_HELLO);
        new Connection().write(new byte[] {21, 9, 9, 9, 9}).assertRefused(Refusal.CLIENT_HELLO); // not even SSLv2: Netty throws
    }

    @Test
    @DisplayName("refuses a ClientHello over the size limit, counted under clientHello")
    void refusesOversized() {
        new Connection(64).write(ClientHellos.fromJdk("mongo.meshbench.test")).assertRefused(Refusal.CLIENT_HELLO);
        // A first record announcing a 65536-byte ClientHello: refused as soon as that record is whole.
        byte[] record = new byte[5 + 16384];
        System.arraycopy(new byte[] {22, 3, 1, 0x40, 0x00, 1, 0x01, 0x00, 0x00}, 0, record, 0, 9);
        new Connection().write(record).assertRefused(Refusal.CLIENT_HELLO);
    }

    @Test
    @DisplayName("refuses a handshake that is not a ClientHello, or a non-handshake record in the middle of one")
    void refusesWrongMessages() {
        new Connection().write(ClientHellos.record(new byte[] {2, 0, 0, 40})).assertRefused(Refusal.CLIENT_HELLO);
        byte[] split = ClientHellos.splitIntoRecords(ClientHellos.fromJdk("mongo.meshbench.test"), 50);
        byte[] withAlert = ClientHellos.concat(Arrays.copyOf(split, 55), new byte[] {21, 3, 3, 0, 2, 2, 40});
        new Connection().write(withAlert).assertRefused(Refusal.CLIENT_HELLO);
    }

    @Test
    @DisplayName("refuses malformed ClientHello bodies: truncated lists, bad lengths, invalid names")
    void refusesMalformedBodies() {
        byte[] sni = ClientHellos.serverNameExtension(0, "mongo.meshbench.test");
        byte[] good = ClientHellos.handMade(sni);
        new Connection().write(good).assertRouted(MONGO, "mongo.meshbench.test", good);
        new Connection().write(ClientHellos.handMade(ClientHellos.serverNameExtension(0, "bad name!"))).assertRefused(Refusal.CLIENT_HELLO);
        new Connection().write(ClientHellos.handMade(Arrays.copyOf(sni, sni.length - 3))).assertRefused();
        byte[] lying = sni.clone();
        lying[3] = (byte) 0xff; // extension length larger than what follows
        new Connection().write(ClientHellos.handMade(lying)).assertRefused();
        byte[] body = ClientHellos.fromJdk("mongo.meshbench.test");
        body[5 + 4 + 2 + 32] = 33; // session id longer than 32
        new Connection().write(body).assertRefused();
    }

    @Test
    @DisplayName("routes a ClientHello with two server_name extensions by the first (the upstream's TLS refuses the duplicate)")
    void duplicateServerNameRoutesByTheFirst() {
        byte[] twice = ClientHellos.handMade(ClientHellos.concat(ClientHellos.serverNameExtension(0, "mongo.meshbench.test"),
                ClientHellos.serverNameExtension(0, "other.example.org")));
        new Connection().write(twice).assertRouted(MONGO, "mongo.meshbench.test", twice);
    }

    @Test
    @DisplayName("gives up on a client that never completes its ClientHello")
    void timesOut() {
        Connection c = new Connection(RouteTable.of("*", MONGO), SniRoutingHandler.DEFAULT_MAX_CLIENT_HELLO, Duration.ofMillis(50));
        c.write(new byte[] {22, 3, 1});
        c.clock.advance(40, TimeUnit.MILLISECONDS);
        c.ch.runScheduledPendingTasks();
        c.assertWaiting("before the deadline");
        c.clock.advance(20, TimeUnit.MILLISECONDS);
        c.ch.runScheduledPendingTasks();
        c.assertRefused(Refusal.CLIENT_HELLO);
    }

    @Test
    @DisplayName("never throws on damaged ClientHellos, whole or cut short: routes, refuses once, or waits, passing nothing on unless routed")
    void survivesRandomInput() {
        Random random = new Random(42);
        byte[] real = ClientHellos.fromJdk("mongo.meshbench.test");
        int[] outcomes = new int[3]; // routed, refused, waiting
        for (int i = 0; i < 2000; i++) {
            byte[] b = real.clone();
            for (int k = 0; k < 1 + random.nextInt(4); k++) {
                b[5 + random.nextInt(b.length - 5)] = (byte) random.nextInt(256);
            }
            for (byte[] sent : List.of(b, Arrays.copyOf(b, random.nextInt(b.length + 1)))) {
                Connection c = new Connection().write(sent);
                long refused = c.counters.snapshot().refusedTotal();
                String what = "input " + i + " (" + sent.length + " bytes)";
                if (!c.recorder.routes.isEmpty()) {
                    assertArrayEquals(sent, c.recorder.bytes.toByteArray(), what);
                    assertEquals(0, refused, what);
                    outcomes[0]++;
                } else {
                    assertEquals(0, c.recorder.bytes.size(), what + ": nothing passed on");
                    assertEquals(c.ch.isOpen() ? 0 : 1, refused, what + ": closed once refused, counted once");
                    outcomes[c.ch.isOpen() ? 2 : 1]++;
                }
                c.ch.finishAndReleaseAll();
            }
        }
        assertTrue(outcomes[0] > 0 && outcomes[1] > 0 && outcomes[2] > 0, "all three outcomes seen: " + Arrays.toString(outcomes));
    }
}
