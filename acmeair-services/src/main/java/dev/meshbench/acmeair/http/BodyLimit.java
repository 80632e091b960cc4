package dev.meshbench.acmeair.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;

/**
 * The request body limit of every service, for bodies of any framing: each request's body stream ends in a 413
 * ({@link #tooLarge}, thrown as the handler reads the body) at once when the declared {@code Content-Length} is over
 * the limit, and as soon as more than the limit has been read of a chunked one, which has none (Javalin checks only
 * the declared length, so a service would otherwise read all of a chunked body, or pass it on to a peer).
 */
final class BodyLimit implements Filter {
    private final long maxBytes;

    BodyLimit(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The 413 of a body over {@code maxBytes}, however it was framed. */
    static ApiException tooLarge(long maxBytes) {
        return new ApiException(413, "request body over " + maxBytes + " bytes, the services' limit; nothing was read further");
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        if (request instanceof HttpServletRequest http) {
            chain.doFilter(new Limited(http, maxBytes), response);
        } else {
            chain.doFilter(request, response);
        }
    }

    private static final class Limited extends HttpServletRequestWrapper {
        private final long maxBytes;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public synchronized ServletInputStream getInputStream() throws IOException {
            if (getContentLengthLong() > maxBytes) {
                throw tooLarge(maxBytes);
            }
            if (stream == null) {
                stream = new LimitedStream(super.getInputStream(), maxBytes);
            }
            return stream;
        }
    }

    private static final class LimitedStream extends ServletInputStream {
        private final ServletInputStream in;
        private final long maxBytes;
        private long read;

        LimitedStream(ServletInputStream in, long maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > maxBytes) {
                throw tooLarge(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
