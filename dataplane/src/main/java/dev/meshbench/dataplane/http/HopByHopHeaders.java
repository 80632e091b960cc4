package dev.meshbench.dataplane.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Headers that describe one connection, not the message (RFC 9110 section 7.6.1), so a proxy drops them instead
 * of relaying them: the gateway keeps its own connections to clients and to upstreams, each with its own
 * keep-alive and framing.
 */
final class HopByHopHeaders {
    private static final List<CharSequence> ALWAYS = List.of(HttpHeaderNames.CONNECTION, HttpHeaderNames.KEEP_ALIVE,
            "proxy-connection", HttpHeaderNames.PROXY_AUTHENTICATE, HttpHeaderNames.PROXY_AUTHORIZATION, HttpHeaderNames.TE,
            HttpHeaderNames.TRAILER, HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderNames.UPGRADE);

    private HopByHopHeaders() {
    }

    /** A copy of {@code headers} without the hop-by-hop ones, nor those the Connection header lists. */
    static HttpHeaders withoutHopByHop(HttpHeaders headers) {
        HttpHeaders copy = headers.copy();
        List<String> listed = new ArrayList<>();
        for (String value : headers.getAll(HttpHeaderNames.CONNECTION)) {
            for (String token : value.split(",")) {
                String t = token.trim().toLowerCase(Locale.ROOT);
                if (!t.isEmpty()) {
                    listed.add(t);
                }
            }
        }
        ALWAYS.forEach(copy::remove);
        listed.forEach(copy::remove);
        return copy;
    }
}
