package dev.meshbench.dataplane.loopback;

import dev.meshbench.pki.TlsContexts;
import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * What the app does towards MongoDB: a TLS client that sends SNI and verifies the server's host name against a
 * CA, over a socket that counts the raw bytes on the wire (so tests can compare them with per-hop counters).
 * Talks to an {@link EchoServer}: {@link #roundTrip} in echo mode, {@link #sendFrame} in ack-sink mode.
 */
public final class AppTlsClient implements Closeable {
    private final CountingSocket raw;
    private final SSLSocket tls;

    private AppTlsClient(CountingSocket raw, SSLSocket tls) {
        this.raw = raw;
        this.tls = tls;
    }

    /** Connects to {@code address} and completes a TLS handshake for {@code serverName}. */
    public static AppTlsClient connect(InetSocketAddress address, String serverName, X509Certificate trustedCa) throws IOException {
        return connect(address, serverName, TlsContexts.client(trustedCa, null), true);
    }

    /** Connects with any client context, with or without host name verification. */
    public static AppTlsClient connect(InetSocketAddress address, String serverName, SSLContext context, boolean verifyHostName)
            throws IOException {
        CountingSocket raw = new CountingSocket();
        raw.connect(address, 5000);
        raw.setSoTimeout(10_000);
        SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(raw, serverName, address.getPort(), true);
        SSLParameters p = s.getSSLParameters();
        if (verifyHostName) {
            p.setEndpointIdentificationAlgorithm("HTTPS");
        }
        p.setServerNames(List.of(new SNIHostName(serverName)));
        s.setSSLParameters(p);
        try {
            s.startHandshake();
        } catch (IOException e) {
            s.close();
            throw e;
        }
        return new AppTlsClient(raw, s);
    }

    /** Sends {@code message} and reads as many bytes back. */
    public byte[] roundTrip(byte[] message) throws IOException {
        tls.getOutputStream().write(message);
        tls.getOutputStream().flush();
        byte[] back = tls.getInputStream().readNBytes(message.length);
        if (back.length != message.length) {
            throw new IOException("connection closed after " + back.length + " of " + message.length + " echoed bytes");
        }
        return back;
    }

    /** Sends one ack-sink frame (8-byte length + {@code payload}) and waits for the server's 8-byte ack. */
    public void sendFrame(byte[] payload) throws IOException {
        OutputStream out = tls.getOutputStream();
        out.write(java.nio.ByteBuffer.allocate(8).putLong(payload.length).array());
        out.write(payload);
        out.flush();
        byte[] ack = tls.getInputStream().readNBytes(8);
        if (ack.length != 8 || java.nio.ByteBuffer.wrap(ack).getLong() != payload.length) {
            throw new IOException("ack-sink frame of " + payload.length + " bytes was not acknowledged");
        }
    }

    public SSLSocket socket() {
        return tls;
    }

    /** Raw bytes written to the TCP connection so far (TLS records included). */
    public long rawWritten() {
        return raw.written.get();
    }

    /** Raw bytes read from the TCP connection so far. */
    public long rawRead() {
        return raw.read.get();
    }

    @Override
    public void close() throws IOException {
        tls.close();
    }

    /** A socket whose streams count bytes; a layered SSLSocket reads and writes through them. */
    static final class CountingSocket extends Socket {
        final AtomicLong written = new AtomicLong();
        final AtomicLong read = new AtomicLong();
        private InputStream in;
        private OutputStream out;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read() throws IOException {
                        int b = super.read();
                        if (b >= 0) {
                            read.incrementAndGet();
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        int n = super.read(b, off, len);
                        if (n > 0) {
                            read.addAndGet(n);
                        }
                        return n;
                    }
                };
            }
            return in;
        }

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            if (out == null) {
                out = new FilterOutputStream(super.getOutputStream()) {
                    @Override
                    public void write(int b) throws IOException {
                        super.out.write(b);
                        written.incrementAndGet();
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        super.out.write(b, off, len);
                        written.addAndGet(len);
                    }
                };
            }
            return out;
        }
    }
}
