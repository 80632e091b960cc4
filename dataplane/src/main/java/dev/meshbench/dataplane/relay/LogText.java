package dev.meshbench.dataplane.relay;

import java.net.SocketAddress;
import javax.net.ssl.SSLException;

/** Small helpers for log lines: addresses without a leading slash, causes without stack traces. */
public final class LogText {
    private LogText() {
    }

    public static String address(SocketAddress a) {
        if (a == null) {
            return "?";
        }
        String s = a.toString();
        int slash = s.indexOf('/');
        return slash >= 0 ? s.substring(slash + 1) : s;
    }

    /** What Netty's BoringSSL engine says about every failed handshake; the reason is its cause. */
    private static final String OPENSSL_ENGINE_PROBLEM = "General OpenSslEngine problem";

    /**
     * The innermost useful message of a cause chain. For a handshake refused by the trust manager both TLS
     * providers end with its message ({@code PKIX path building failed: ...}); other failures read differently
     * (no client certificate: the JDK says {@code Empty client certificate chain}, BoringSSL
     * {@code ...:PEER_DID_NOT_RETURN_A_CERTIFICATE}).
     */
    public static String cause(Throwable t) {
        if (t == null) {
            return "unknown cause";
        }
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c && (c.getMessage() == null || c instanceof io.netty.handler.codec.DecoderException
                || c.getMessage().startsWith(c.getCause().getClass().getName()) || c.getMessage().equals(OPENSSL_ENGINE_PROBLEM))) {
            c = c.getCause();
        }
        String m = c.getMessage();
        // Netty appends the address as "/127.0.0.1:40123"; drop the slash like address() does.
        return m == null ? c.getClass().getSimpleName() : m.replace(": /", ": ");
    }

    /** Longest client-supplied text quoted whole in an answer or log line. */
    static final int QUOTED_MAX = 64;

    /**
     * Client-supplied text as an answer or log line quotes it: whole up to {@value #QUOTED_MAX} characters, else its
     * start and how long it was ({@code /aaaa... (8000 characters)}).
     */
    public static String shortened(String text) {
        return text.length() <= QUOTED_MAX ? text : text.substring(0, QUOTED_MAX) + "... (" + text.length() + " characters)";
    }

    /** True when a cause is a TLS failure (already counted and logged by the handshake event). */
    public static boolean isTls(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SSLException) {
                return true;
            }
        }
        return false;
    }
}
