package dev.meshbench.dataplane.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/** A client connection through a relay to a {@link TaggedEchoServer}: reads which upstream it reached, then echoes. */
public final class TaggedClient implements AutoCloseable {
    private final Socket socket;
    private final String tag;

    private TaggedClient(Socket socket, String tag) {
        this.socket = socket;
        this.tag = tag;
    }

    /** Connects and reads the upstream's tag (10 s read timeout). */
    public static TaggedClient connect(InetSocketAddress relay) throws IOException {
        Socket s = new Socket(relay.getAddress(), relay.getPort());
        s.setSoTimeout(10_000);
        try {
            return new TaggedClient(s, readLine(s.getInputStream()));
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** The tag of the upstream this connection reached. */
    public String tag() {
        return tag;
    }

    /** Sends {@code text} and returns what came back. */
    public String echo(String text) throws IOException {
        byte[] sent = text.getBytes(StandardCharsets.UTF_8);
        socket.getOutputStream().write(sent);
        socket.getOutputStream().flush();
        return new String(socket.getInputStream().readNBytes(sent.length), StandardCharsets.UTF_8);
    }

    /**
     * Waits (up to {@code timeoutMillis}) for the relay to close this connection; true when it did (end of stream or
     * reset), false when the time ran out with the connection still open.
     */
    public boolean awaitClosedByPeer(int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        try {
            return socket.getInputStream().read() < 0;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            b.append((char) c);
        }
        if (c < 0) {
            throw new IOException("closed before the upstream's tag (read '" + b + "')");
        }
        return b.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
