package dev.meshbench.orchestrator.latency.load;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 keep-alive connection on a blocking socket, sending the same request again and again and reading
 * just enough of each answer to find its status and its end: the status line, headers, then a body by
 * {@code Content-Length}, chunked, or until the server closes. It reconnects on the next exchange after an error,
 * {@code Connection: close}, or an HTTP/1.0 answer without keep-alive. When a reused connection turns out closed by
 * the server before any byte of the answer (an idle keep-alive connection the server dropped), the request is sent
 * once more on a new connection, as browsers and fortio do.
 *
 * <p>Not thread-safe, except {@link #close()}, which another thread may call to end a blocked exchange.
 */
final class HttpConnection implements Closeable {
    /** {@link #exchange} outcomes other than a status code. */
    static final int CONNECT_FAILED = -1;
    static final int TIMED_OUT = -2;
    static final int IO_ERROR = -3;

    private static final int BUFFER = 16 * 1024;
    private static final byte[] CONTENT_LENGTH = bytes("content-length:");
    private static final byte[] TRANSFER_ENCODING = bytes("transfer-encoding:");
    private static final byte[] CONNECTION = bytes("connection:");

    private final InetSocketAddress address;
    private final byte[] request;
    private final boolean head;
    private final byte[] buf = new byte[BUFFER];
    private int pos;
    private int lim;
    private volatile Socket socket;
    private InputStream in;
    private OutputStream out;
    private boolean reused;
    private long deadline;
    private long connects;
    /** Bytes of the current attempt's answer read so far. */
    private long received;
    private IOException lastError;

    HttpConnection(InetSocketAddress address, byte[] request, String method) {
        this.address = address;
        this.request = request;
        this.head = "HEAD".equals(method);
    }

    /** The request bytes for {@code target}: request line, Host, and a body of {@code bodyBytes} when asked. */
    static byte[] request(URI target, String method, int bodyBytes) {
        String path = target.getRawPath() == null || target.getRawPath().isEmpty() ? "/" : target.getRawPath();
        if (target.getRawQuery() != null) {
            path += "?" + target.getRawQuery();
        }
        String host = target.getHost() + (target.getPort() == -1 ? "" : ":" + target.getPort());
        StringBuilder b = new StringBuilder();
        b.append(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append("\r\n")
                .append("User-Agent: meshbench-load\r\n")
                .append("Accept: */*\r\n");
        boolean bodyExpected = bodyBytes > 0 || "POST".equals(method) || "PUT".equals(method) || "PATCH".equals(method);
        if (bodyExpected) {
            b.append("Content-Type: application/octet-stream\r\n").append("Content-Length: ").append(bodyBytes).append("\r\n");
        }
        b.append("\r\n");
        byte[] head = b.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = java.util.Arrays.copyOf(head, head.length + bodyBytes);
        java.util.Arrays.fill(all, head.length, all.length, (byte) 'x');
        return all;
    }

    /** The socket's address for {@code target}, resolved once. */
    static InetSocketAddress address(URI target) {
        InetSocketAddress a = new InetSocketAddress(target.getHost(), target.getPort() == -1 ? 80 : target.getPort());
        if (a.isUnresolved()) {
            throw new IllegalArgumentException("load: cannot resolve the host of " + target + ": unknown host " + target.getHost());
        }
        return a;
    }

    /**
     * Sends the request and reads its answer, connecting first if needed; gives up at {@code deadlineNanos}
     * ({@link System#nanoTime()}).
     *
     * @return the status code, or {@link #CONNECT_FAILED}, {@link #TIMED_OUT}, {@link #IO_ERROR} (the connection is
     *         then closed; {@link #lastError()} says why)
     */
    int exchange(long deadlineNanos) {
        this.deadline = deadlineNanos;
        for (int attempt = 0; ; attempt++) {
            if (socket == null) {
                try {
                    connect();
                } catch (IOException e) {
                    return fail(CONNECT_FAILED, e);
                }
            }
            boolean retryable = reused && attempt == 0;
            received = 0;
            try {
                out.write(request);
                int status = readAnswer();
                reused = true;
                return status;
            } catch (SocketTimeoutException e) {
                return fail(TIMED_OUT, e);
            } catch (HttpProtocolException e) {
                return fail(IO_ERROR, e);
            } catch (IOException e) {
                if (retryable && received == 0) {
                    closeQuietly(); // an idle connection the server had closed: once more on a new one
                    continue;
                }
                return fail(IO_ERROR, e);
            }
        }
    }

    /** Connections opened so far. */
    long connects() {
        return connects;
    }

    /** Why the last exchange failed. */
    IOException lastError() {
        return lastError;
    }

    @Override
    public void close() {
        closeQuietly();
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(address, remainingMillis());
        } catch (IOException e) {
            s.close();
            throw e;
        }
        connects++;
        socket = s;
        in = s.getInputStream();
        out = s.getOutputStream();
        pos = 0;
        lim = 0;
        reused = false;
    }

    private int fail(int outcome, IOException e) {
        lastError = e;
        closeQuietly();
        return outcome;
    }

    private void closeQuietly() {
        Socket s = socket;
        socket = null;
        pos = 0;
        lim = 0;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing a socket we give up on: nothing left to do with it
            }
        }
    }

    /** Reads one answer (skipping 1xx interim ones) to its end; closes the connection if the server wants that. */
    private int readAnswer() throws IOException {
        while (true) {
            int lineEnd = line();
            int status = statusLine(lineEnd);
            boolean http10 = buf[pos + 7] == '0';
            pos = lineEnd + 1;
            long contentLength = -1;
            boolean chunked = false;
            Boolean keepAlive = null;
            while (true) {
                int end = line();
                int stop = end > pos && buf[end - 1] == '\r' ? end - 1 : end;
                if (stop == pos) {
                    pos = end + 1;
                    break;
                }
                if (startsWithIgnoreCase(CONTENT_LENGTH, stop)) {
                    contentLength = contentLength(pos + CONTENT_LENGTH.length, stop);
                } else if (startsWithIgnoreCase(TRANSFER_ENCODING, stop)) {
                    chunked = value(pos + TRANSFER_ENCODING.length, stop).toLowerCase(java.util.Locale.ROOT).contains("chunked");
                } else if (startsWithIgnoreCase(CONNECTION, stop)) {
                    String v = value(pos + CONNECTION.length, stop).toLowerCase(java.util.Locale.ROOT);
                    if (v.contains("close")) {
                        keepAlive = false;
                    } else if (v.contains("keep-alive")) {
                        keepAlive = true;
                    }
                }
                pos = end + 1;
            }
            if (status >= 100 && status < 200 && status != 101) {
                continue; // interim answer: the real one follows
            }
            boolean keep = keepAlive != null ? keepAlive : !http10;
            if (head || status == 204 || status == 304) {
                // no body
            } else if (chunked) {
                chunkedBody();
            } else if (contentLength >= 0) {
                skip(contentLength);
            } else {
                untilClosed();
                keep = false;
            }
            if (!keep) {
                closeQuietly();
            }
            return status;
        }
    }

    private int statusLine(int lineEnd) throws HttpProtocolException {
        int n = lineEnd - pos;
        if (n < 12 || buf[pos] != 'H' || buf[pos + 1] != 'T' || buf[pos + 2] != 'T' || buf[pos + 3] != 'P'
                || buf[pos + 4] != '/' || buf[pos + 5] != '1' || buf[pos + 6] != '.' || buf[pos + 8] != ' ') {
            throw new HttpProtocolException("not an HTTP/1.x status line: \"" + text(pos, Math.min(lineEnd, pos + 80)).strip() + "\"");
        }
        int status = 0;
        for (int i = pos + 9; i < pos + 12; i++) {
            byte c = buf[i];
            if (c < '0' || c > '9') {
                throw new HttpProtocolException("bad status code in \"" + text(pos, Math.min(lineEnd, pos + 80)).strip() + "\"");
            }
            status = status * 10 + (c - '0');
        }
        return status;
    }

    private long contentLength(int from, int to) throws HttpProtocolException {
        while (from < to && (buf[from] == ' ' || buf[from] == '\t')) {
            from++;
        }
        while (to > from && (buf[to - 1] == ' ' || buf[to - 1] == '\t')) {
            to--;
        }
        if (from == to || to - from > 18) {
            throw new HttpProtocolException("bad Content-Length \"" + text(from, to) + "\"");
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            byte c = buf[i];
            if (c < '0' || c > '9') {
                throw new HttpProtocolException("bad Content-Length \"" + text(from, to) + "\"");
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    private void chunkedBody() throws IOException {
        while (true) {
            int end = line();
            long size = 0;
            int digits = 0;
            for (int i = pos; i < end; i++) {
                int d = Character.digit(buf[i], 16);
                if (d < 0) {
                    break; // ';' extensions, '\r', spaces
                }
                if (++digits > 15) {
                    throw new HttpProtocolException("chunk size too large");
                }
                size = size * 16 + d;
            }
            if (digits == 0) {
                throw new HttpProtocolException("bad chunk size line \"" + text(pos, Math.min(end, pos + 40)) + "\"");
            }
            pos = end + 1;
            if (size == 0) {
                while (true) { // trailers up to the empty line
                    int t = line();
                    boolean empty = t == pos || (t == pos + 1 && buf[pos] == '\r');
                    pos = t + 1;
                    if (empty) {
                        return;
                    }
                }
            }
            skip(size);
            int crlf = line();
            if (crlf - pos > 1) {
                throw new HttpProtocolException("chunk not followed by CRLF");
            }
            pos = crlf + 1;
        }
    }

    private void skip(long n) throws IOException {
        while (n > 0) {
            if (pos == lim) {
                pos = 0;
                lim = 0;
                if (fill() < 0) {
                    throw new EOFException("connection closed with " + n + " bytes of the body missing");
                }
            }
            int k = (int) Math.min(n, lim - pos);
            pos += k;
            n -= k;
        }
    }

    private void untilClosed() throws IOException {
        do {
            pos = 0;
            lim = 0;
        } while (fill() >= 0);
    }

    /**
     * Makes sure a whole line starting at {@code pos} is in the buffer.
     *
     * @return the index of its {@code '\n'}
     */
    private int line() throws IOException {
        int scanned = pos;
        while (true) {
            for (int i = scanned; i < lim; i++) {
                if (buf[i] == '\n') {
                    return i;
                }
            }
            scanned = lim - pos;
            compact();
            if (lim == buf.length) {
                throw new HttpProtocolException("header line longer than " + buf.length + " bytes");
            }
            if (fill() < 0) {
                throw new EOFException(received == 0 ? "connection closed by the server before any byte of the answer"
                        : "connection closed in the middle of the answer's head");
            }
        }
    }

    /** Moves the unread bytes to the start of the buffer. */
    private void compact() {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            lim -= pos;
            pos = 0;
        }
    }

    /** Reads more bytes after {@code lim} (there must be room); -1 at end of stream. */
    private int fill() throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("no complete answer within the timeout");
        }
        Socket s = socket;
        if (s == null) {
            throw new java.net.SocketException("connection closed");
        }
        s.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000)));
        int n = in.read(buf, lim, buf.length - lim);
        if (n > 0) {
            lim += n;
            received += n;
        }
        return n;
    }

    private int remainingMillis() throws SocketTimeoutException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("no time left to connect within the timeout");
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000));
    }

    private boolean startsWithIgnoreCase(byte[] lowerName, int stop) {
        if (stop - pos < lowerName.length) {
            return false;
        }
        for (int i = 0; i < lowerName.length; i++) {
            int c = buf[pos + i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != lowerName[i]) {
                return false;
            }
        }
        return true;
    }

    private String value(int from, int to) {
        return text(from, to).trim();
    }

    private String text(int from, int to) {
        return new String(buf, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** An answer that is not HTTP/1.x as we read it. */
    static final class HttpProtocolException extends IOException {
        HttpProtocolException(String message) {
            super(message);
        }
    }
}
