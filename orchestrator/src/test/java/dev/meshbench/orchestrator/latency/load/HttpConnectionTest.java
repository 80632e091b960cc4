package dev.meshbench.orchestrator.latency.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The connection against a server that answers with scripted bytes. */
class HttpConnectionTest {
    private ScriptedServer server;
    private HttpConnection connection;

    @BeforeEach
    void start() throws IOException {
        server = new ScriptedServer();
        URI uri = URI.create("http://127.0.0.1:" + server.port() + "/");
        connection = new HttpConnection(HttpConnection.address(uri), HttpConnection.request(uri, "GET", 0), "GET");
    }

    @AfterEach
    void stop() throws IOException {
        connection.close();
        server.close();
    }

    private int exchange() {
        return connection.exchange(System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    @DisplayName("the request: request line with path and query, Host with port, and a body with its length")
    void request() {
        byte[] r = HttpConnection.request(URI.create("http://example.com:8080/a/b%20c?x=1&y=2"), "POST", 3);
        assertEquals("POST /a/b%20c?x=1&y=2 HTTP/1.1\r\nHost: example.com:8080\r\nUser-Agent: meshbench-load\r\nAccept: */*\r\n"
                + "Content-Type: application/octet-stream\r\nContent-Length: 3\r\n\r\nxxx", new String(r, StandardCharsets.ISO_8859_1));
        assertEquals("GET / HTTP/1.1\r\nHost: example.com\r\nUser-Agent: meshbench-load\r\nAccept: */*\r\n\r\n",
                new String(HttpConnection.request(URI.create("http://example.com"), "GET", 0), StandardCharsets.ISO_8859_1));
    }

    @Test
    @DisplayName("Content-Length, chunked (with extensions and trailers) and empty bodies are read to their end on one connection")
    void keepAliveBodies() {
        server.answer("HTTP/1.1 200 OK\r\ncontent-LENGTH:  5 \r\n\r\nhello");
        server.answer("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n1A\r\n" + "x".repeat(26)
                + "\r\n0\r\nX-Trailer: t\r\n\r\n");
        server.answer("HTTP/1.1 204 No Content\r\n\r\n");
        server.answer("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n");
        server.answer("HTTP/1.1 503 Service Unavailable\r\nContent-Length: " + 40_000 + "\r\n\r\n" + "y".repeat(40_000));
        server.answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        assertEquals(List.of(200, 201, 204, 202, 503, 200), List.of(exchange(), exchange(), exchange(), exchange(), exchange(), exchange()));
        assertEquals(1, connection.connects());
        assertEquals(1, server.accepted.get());
    }

    @Test
    @DisplayName("Connection: close and an HTTP/1.0 body without length end the connection; the next exchange reconnects")
    void reconnects() {
        server.answer("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
        server.answerAndClose("HTTP/1.0 200 OK\r\n\r\nbody until the server closes");
        server.answer("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok");
        server.answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        assertEquals(List.of(200, 200, 200, 200), List.of(exchange(), exchange(), exchange(), exchange()));
        assertEquals(3, connection.connects());
    }

    @Test
    @DisplayName("a kept-alive connection the server closed while idle is retried once on a new one")
    void staleConnection() {
        server.answerAndClose("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        server.answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        assertEquals(200, exchange());
        assertEquals(200, exchange());
        assertEquals(2, connection.connects());
    }

    @Test
    @DisplayName("something that is not HTTP, or a body cut short, is an I/O error, and the next exchange reconnects")
    void ioErrors() {
        server.answer("SSH-2.0-OpenSSH\r\n\r\n");
        server.answerAndClose("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");
        server.answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        assertEquals(HttpConnection.IO_ERROR, exchange());
        assertTrue(connection.lastError().getMessage().startsWith("not an HTTP/1.x status line: \"SSH-2.0"), connection.lastError().getMessage());
        assertEquals(HttpConnection.IO_ERROR, exchange());
        assertTrue(connection.lastError().getMessage().contains("5 bytes of the body missing"), connection.lastError().getMessage());
        assertEquals(200, exchange());
        assertEquals(3, connection.connects());
    }

    /** Accepts connections; for each request it reads, writes the next scripted answer (closing after it if told). */
    private static final class ScriptedServer implements AutoCloseable {
        private record Answer(String bytes, boolean close) {
        }

        final AtomicInteger accepted = new AtomicInteger();
        private final ServerSocket socket;
        private final BlockingQueue<Answer> answers = new LinkedBlockingQueue<>();

        ScriptedServer() throws IOException {
            socket = new ServerSocket();
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread t = new Thread(this::acceptLoop, "scripted-server");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        void answer(String s) {
            answers.add(new Answer(s, false));
        }

        void answerAndClose(String s) {
            answers.add(new Answer(s, true));
        }

        private void acceptLoop() {
            while (!socket.isClosed()) {
                try {
                    Socket c = socket.accept();
                    accepted.incrementAndGet();
                    serve(c); // one connection at a time, as the client uses one
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket c) {
            try (c; InputStream in = c.getInputStream()) {
                while (true) {
                    if (!readHead(in)) {
                        return;
                    }
                    Answer a = answers.poll(5, TimeUnit.SECONDS);
                    if (a == null) {
                        return;
                    }
                    c.getOutputStream().write(a.bytes().getBytes(StandardCharsets.ISO_8859_1));
                    c.getOutputStream().flush();
                    if (a.close()) {
                        return;
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the client went away, or the test ended
            }
        }

        private static boolean readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                if (head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
