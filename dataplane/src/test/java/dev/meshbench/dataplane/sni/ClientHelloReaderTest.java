package dev.meshbench.dataplane.sni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClientHelloReaderTest {
    private final ClientHelloReader reader = new ClientHelloReader();

    private ClientHelloResult read(byte[] bytes) {
        ByteBuf b = Unpooled.wrappedBuffer(bytes);
        try {
            ClientHelloResult r = reader.read(b);
            assertEquals(0, b.readerIndex(), "the reader must not consume bytes");
            return r;
        } finally {
            b.release();
        }
    }

    @Test
    @DisplayName("reads the server name from a real JDK ClientHello")
    void readsRealClientHello() {
        assertEquals(new ClientHelloResult.ServerName("mongo.meshbench.test"), read(ClientHellos.fromJdk("mongo.meshbench.test")));
    }

    @Test
    @DisplayName("asks for more bytes at every prefix of the ClientHello, then finds the name once it is whole")
    void needsMoreUntilComplete() {
        byte[] hello = ClientHellos.fromJdk("mongo.meshbench.test");
        for (int n = 0; n < hello.length; n++) {
            assertInstanceOf(ClientHelloResult.NeedMore.class, read(Arrays.copyOf(hello, n)), "prefix of " + n + " bytes");
        }
        assertInstanceOf(ClientHelloResult.ServerName.class, read(hello));
    }

    @ParameterizedTest(name = "records of {0} handshake bytes")
    @ValueSource(ints = {1, 3, 4, 5, 100, 511})
    @DisplayName("reads a ClientHello split across several TLS records")
    void readsAcrossRecords(int chunk) {
        byte[] split = ClientHellos.splitIntoRecords(ClientHellos.fromJdk("db.meshbench.test"), chunk);
        assertEquals(new ClientHelloResult.ServerName("db.meshbench.test"), read(split));
        assertInstanceOf(ClientHelloResult.NeedMore.class, read(Arrays.copyOf(split, split.length - 1)));
    }

    @Test
    @DisplayName("ignores bytes after the ClientHello (the client's next flight)")
    void ignoresTrailingBytes() {
        byte[] hello = ClientHellos.concat(ClientHellos.fromJdk("mongo.meshbench.test"), new byte[] {23, 3, 3, 0, 1, 0});
        assertEquals(new ClientHelloResult.ServerName("mongo.meshbench.test"), read(hello));
    }

    @Test
    @DisplayName("reports a ClientHello without server_name (a client connecting by IP)")
    void noServerName() {
        assertInstanceOf(ClientHelloResult.NoServerName.class, read(ClientHellos.fromJdk(null)));
        assertInstanceOf(ClientHelloResult.NoServerName.class, read(ClientHellos.handMade(null)));
        assertInstanceOf(ClientHelloResult.NoServerName.class, read(ClientHellos.handMade(ClientHellos.serverNameExtension(7, "x"))));
    }

    @Test
    @DisplayName("lower-cases the name and drops a trailing dot")
    void normalizesName() {
        assertEquals(new ClientHelloResult.ServerName("mongo.meshbench.test"),
                read(ClientHellos.handMade(ClientHellos.serverNameExtension(0, "MONGO.MeshBench.test."))));
    }

    @ParameterizedTest(name = "input {index}")
    @ValueSource(strings = {"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "\u0000\u0000\u0000\u0000\u0000", "hello"})
    @DisplayName("refuses bytes that are not a TLS handshake, from the first byte")
    void refusesGarbage(String text) {
        ClientHelloResult r = read(text.getBytes(StandardCharsets.ISO_8859_1));
        assertInstanceOf(ClientHelloResult.Invalid.class, r);
        assertTrue(((ClientHelloResult.Invalid) r).reason().contains("not a TLS handshake"), r.toString());
        assertInstanceOf(ClientHelloResult.Invalid.class, read(new byte[] {'G'}));
    }

    @Test
    @DisplayName("refuses an SSLv2-style hello, a bad record version and an out-of-range record length")
    void refusesBadRecordHeaders() {
        assertInstanceOf(ClientHelloResult.Invalid.class, read(new byte[] {(byte) 0x80, 0x2e, 0x01, 0x03, 0x01}));
        assertInstanceOf(ClientHelloResult.Invalid.class, read(new byte[] {22, 2, 0}));
        assertInstanceOf(ClientHelloResult.Invalid.class, read(new byte[] {22, 3, 1, 0x40, 0x01}));
        assertInstanceOf(ClientHelloResult.Invalid.class, read(new byte[] {22, 3, 1, 0, 0}));
    }

    @Test
    @DisplayName("refuses a ClientHello announcing more than the limit, before it arrives")
    void refusesOversized() {
        byte[] header = {22, 3, 1, 0x40, 0x00, 1, 0x01, 0x00, 0x00}; // handshake length 65536
        ClientHelloResult r = read(header);
        assertInstanceOf(ClientHelloResult.Invalid.class, r);
        assertTrue(((ClientHelloResult.Invalid) r).reason().contains("exceeds the limit"), r.toString());
        ClientHelloReader small = new ClientHelloReader(100);
        ByteBuf b = Unpooled.wrappedBuffer(ClientHellos.fromJdk("mongo.meshbench.test"));
        assertInstanceOf(ClientHelloResult.Invalid.class, small.read(b));
        b.release();
    }

    @Test
    @DisplayName("refuses a handshake that is not a ClientHello, or a non-handshake record in the middle of one")
    void refusesWrongMessages() {
        byte[] serverHello = ClientHellos.record(new byte[] {2, 0, 0, 40});
        assertInstanceOf(ClientHelloResult.Invalid.class, read(serverHello));
        byte[] split = ClientHellos.splitIntoRecords(ClientHellos.fromJdk("mongo.meshbench.test"), 50);
        byte[] withAlert = ClientHellos.concat(Arrays.copyOf(split, 55), new byte[] {21, 3, 3, 0, 2, 2, 40});
        assertInstanceOf(ClientHelloResult.Invalid.class, read(withAlert));
    }

    @Test
    @DisplayName("refuses malformed ClientHello bodies: truncated lists, bad lengths, duplicate or invalid names")
    void refusesMalformedBodies() {
        byte[] sni = ClientHellos.serverNameExtension(0, "mongo.meshbench.test");
        assertInstanceOf(ClientHelloResult.ServerName.class, read(ClientHellos.handMade(sni)));
        assertInstanceOf(ClientHelloResult.Invalid.class, read(ClientHellos.handMade(ClientHellos.concat(sni, sni))));
        assertInstanceOf(ClientHelloResult.Invalid.class, read(ClientHellos.handMade(ClientHellos.serverNameExtension(0, "bad name!"))));
        assertInstanceOf(ClientHelloResult.Invalid.class, read(ClientHellos.handMade(Arrays.copyOf(sni, sni.length - 3))));
        byte[] lying = sni.clone();
        lying[3] = (byte) 0xff; // extension length larger than what follows
        assertInstanceOf(ClientHelloResult.Invalid.class, read(ClientHellos.handMade(lying)));
        byte[] body = ClientHellos.fromJdk("mongo.meshbench.test");
        body[5 + 4 + 2 + 32] = 33; // session id longer than 32
        assertInstanceOf(ClientHelloResult.Invalid.class, read(body));
    }

    @Test
    @DisplayName("never throws on random input, whatever its length")
    void survivesRandomInput() {
        java.util.Random random = new java.util.Random(42);
        byte[] real = ClientHellos.fromJdk("mongo.meshbench.test");
        for (int i = 0; i < 2000; i++) {
            byte[] b = real.clone();
            for (int k = 0; k < 1 + random.nextInt(4); k++) {
                b[5 + random.nextInt(b.length - 5)] = (byte) random.nextInt(256);
            }
            read(Arrays.copyOf(b, random.nextInt(b.length + 1)));
        }
    }
}
