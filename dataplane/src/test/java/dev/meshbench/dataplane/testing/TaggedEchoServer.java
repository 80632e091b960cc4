package dev.meshbench.dataplane.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A plain TCP echo server on 127.0.0.1 that first sends its tag and a newline on every connection, so a client of a
 * relay can tell which upstream it reached.
 */
public final class TaggedEchoServer implements AutoCloseable {
    private final String tag;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "tagged-echo");
        t.setDaemon(true);
        return t;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();

    private TaggedEchoServer(String tag) throws IOException {
        this.tag = tag;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::acceptLoop);
    }

    public static TaggedEchoServer start(String tag) throws IOException {
        return new TaggedEchoServer(tag);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** {@code 127.0.0.1:port}, for a listener spec. */
    public String hostPort() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    public long accepted() {
        return accepted.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                accepted.incrementAndGet();
                open.add(s);
                threads.execute(() -> serve(s));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            out.write((tag + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] buf = new byte[4096];
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the relay closed or reset it
        } finally {
            open.remove(s);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : open) {
            s.close();
        }
        threads.shutdownNow();
    }
}
