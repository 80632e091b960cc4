package dev.meshbench.acmeair;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP relay to one address that counts what crosses it: connections accepted, connections open, bytes each
 * way, and when each connection ended. Tests put one in front of MongoDB per path, so which path a service's
 * MongoDB client uses shows on the relay's side. TLS passes through untouched (the client still verifies MongoDB).
 *
 * <p>Written here, with blocking sockets and two threads per connection, rather than taken from the kit's Netty
 * relays (module {@code dataplane}): those are mesh components configured as a whole and would bring their pinned
 * Netty and BoringSSL into this module's tests beside the embedded MongoDB's own Netty; a test needs only the counts.
 */
final class CountingTcpRelay implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong bytesToTarget = new AtomicLong();
    private final AtomicLong bytesFromTarget = new AtomicLong();
    private final Queue<Long> closeNanos = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    private CountingTcpRelay(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
    }

    /** Listens on 127.0.0.1, a free port, and relays every connection to {@code target}. */
    static CountingTcpRelay start(InetSocketAddress target) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        CountingTcpRelay relay = new CountingTcpRelay(server, target);
        daemon("relay-accept-" + server.getLocalPort(), relay::acceptLoop);
        return relay;
    }

    int port() {
        return server.getLocalPort();
    }

    int accepted() {
        return accepted.get();
    }

    int open() {
        return open.get();
    }

    long bytesToTarget() {
        return bytesToTarget.get();
    }

    long bytesFromTarget() {
        return bytesFromTarget.get();
    }

    /**
     * {@link System#nanoTime()} when the first relayed connection that ended at or after {@code sinceNanos} ended, or
     * {@link Long#MAX_VALUE} while none has.
     */
    long firstCloseSince(long sinceNanos) {
        return closeNanos.stream().filter(t -> t >= sinceNanos).min(Long::compare).orElse(Long.MAX_VALUE);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted.incrementAndGet();
            open.incrementAndGet();
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 5000);
            } catch (IOException e) {
                closeQuietly(client);
                connectionEnded();
                continue;
            }
            sockets.add(client);
            sockets.add(upstream);
            AtomicInteger pumps = new AtomicInteger(2);
            Runnable ended = () -> {
                closeQuietly(client);
                closeQuietly(upstream);
                sockets.remove(client);
                sockets.remove(upstream);
                if (pumps.decrementAndGet() == 0) {
                    connectionEnded();
                }
            };
            daemon("relay-up-" + client.getPort(), () -> pump(client, upstream, bytesToTarget, ended));
            daemon("relay-down-" + client.getPort(), () -> pump(upstream, client, bytesFromTarget, ended));
        }
    }

    private void connectionEnded() {
        open.decrementAndGet();
        closeNanos.add(System.nanoTime());
    }

    private static void pump(Socket from, Socket to, AtomicLong counter, Runnable ended) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                // Counted before they are passed on: once the other side can answer these bytes, they show in the count.
                counter.addAndGet(n);
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the other direction closed the sockets, or a peer reset: either way this connection is over
        } finally {
            ended.run();
        }
    }

    /** Stops accepting and drops every relayed connection (a path that is gone). */
    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }

    private static void daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // already closed
        }
    }
}
