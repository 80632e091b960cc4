package dev.meshbench.dataplane.sni;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/** ClientHello bytes for tests: real ones from the JDK, re-framed ones, and hand-built edge cases. */
final class ClientHellos {
    private ClientHellos() {
    }

    /** The first flight of a real JDK TLS client (one record), with SNI {@code serverName} or none when null. */
    static byte[] fromJdk(String serverName) {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, null, null);
            SSLEngine engine = serverName == null ? ctx.createSSLEngine() : ctx.createSSLEngine(serverName, 27017);
            engine.setUseClientMode(true);
            SSLParameters p = engine.getSSLParameters();
            p.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
            engine.setSSLParameters(p);
            ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
            engine.wrap(ByteBuffer.allocate(0), out);
            out.flip();
            byte[] b = new byte[out.remaining()];
            out.get(b);
            return b;
        } catch (GeneralSecurityException | SSLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Re-frames a single-record ClientHello into records carrying at most {@code chunk} handshake bytes each. */
    static byte[] splitIntoRecords(byte[] oneRecord, int chunk) {
        int len = ((oneRecord[3] & 0xff) << 8) | (oneRecord[4] & 0xff);
        byte[] payload = Arrays.copyOfRange(oneRecord, 5, 5 + len);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < payload.length; i += chunk) {
            int n = Math.min(chunk, payload.length - i);
            out.write(22);
            out.write(oneRecord[1]);
            out.write(oneRecord[2]);
            out.write(n >> 8);
            out.write(n & 0xff);
            out.write(payload, i, n);
        }
        return out.toByteArray();
    }

    /** A minimal ClientHello whose extensions block is {@code extensions} (null: no extensions block at all). */
    static byte[] handMade(byte[] extensions) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(3);
        body.write(3);
        body.writeBytes(new byte[32]);
        body.write(0); // session id
        body.write(0);
        body.write(2);
        body.write(0x13);
        body.write(0x01); // TLS_AES_128_GCM_SHA256
        body.write(1);
        body.write(0); // null compression
        if (extensions != null) {
            body.write(extensions.length >> 8);
            body.write(extensions.length & 0xff);
            body.writeBytes(extensions);
        }
        return record(handshake(body.toByteArray()));
    }

    static byte[] handshake(byte[] clientHelloBody) {
        ByteArrayOutputStream hs = new ByteArrayOutputStream();
        hs.write(1);
        hs.write(clientHelloBody.length >> 16);
        hs.write((clientHelloBody.length >> 8) & 0xff);
        hs.write(clientHelloBody.length & 0xff);
        hs.writeBytes(clientHelloBody);
        return hs.toByteArray();
    }

    static byte[] record(byte[] payload) {
        ByteArrayOutputStream r = new ByteArrayOutputStream();
        r.write(22);
        r.write(3);
        r.write(1);
        r.write(payload.length >> 8);
        r.write(payload.length & 0xff);
        r.writeBytes(payload);
        return r.toByteArray();
    }

    /** A server_name extension with one entry of {@code nameType}. */
    static byte[] serverNameExtension(int nameType, String name) {
        byte[] n = name.getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int listLength = 3 + n.length;
        e.write(0);
        e.write(0); // type server_name
        e.write((listLength + 2) >> 8);
        e.write((listLength + 2) & 0xff);
        e.write(listLength >> 8);
        e.write(listLength & 0xff);
        e.write(nameType);
        e.write(n.length >> 8);
        e.write(n.length & 0xff);
        e.writeBytes(n);
        return e.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
