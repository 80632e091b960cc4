package dev.meshbench.dataplane.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HopByHopHeadersTest {
    @Test
    @DisplayName("drops the hop-by-hop headers and those Connection names, keeps Host and the end-to-end ones")
    void dropsHopByHop() {
        HttpHeaders h = new DefaultHttpHeaders()
                .add("Host", "acmeair")
                .add("Connection", "keep-alive, X-Session-Hop")
                .add("Keep-Alive", "timeout=5")
                .add("Transfer-Encoding", "chunked")
                .add("Upgrade", "h2c")
                .add("TE", "trailers")
                .add("X-Session-Hop", "1")
                .add("Cookie", "sessionid=1")
                .add("Content-Length", "3");
        HttpHeaders out = HopByHopHeaders.withoutHopByHop(h);
        assertEquals(List.of("Host", "Cookie", "Content-Length"), out.names().stream().toList());
        assertEquals("acmeair", out.get("host"));
        assertNull(out.get("x-session-hop"));
        assertEquals("keep-alive, X-Session-Hop", h.get("connection"), "the original is left as it was");
    }
}
