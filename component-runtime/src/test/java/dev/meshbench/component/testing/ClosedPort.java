package dev.meshbench.component.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A loopback port where nothing listens, for as long as this is open: a TCP socket bound to it that neither listens
 * nor connects. A connect to it is refused, and nothing else (another test, another build's server on port 0, a
 * client's ephemeral port) can take it meanwhile, as it could take a port that was bound and released.
 *
 * <p>Shared by every module's tests through component-runtime's test-jar.
 */
public final class ClosedPort implements AutoCloseable {
    private final Socket holder = new Socket();

    public ClosedPort() {
        try {
            holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException("binding a loopback port to hold failed", e);
        }
    }

    public int port() {
        return holder.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        holder.close();
    }
}
