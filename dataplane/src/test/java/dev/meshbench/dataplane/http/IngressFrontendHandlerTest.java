package dev.meshbench.dataplane.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.ConnectException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The pure parts of the router; the rest is tested end to end in {@code IngressGatewayEndToEndTest}. */
class IngressFrontendHandlerTest {
    @Test
    @DisplayName("routes by the path of the request target: origin form without query or fragment, absolute form, nothing for '*' or an authority")
    void path() {
        assertEquals("/auth/login", IngressFrontendHandler.path("/auth/login?user=a&x=1"));
        assertEquals("/auth", IngressFrontendHandler.path("/auth#top"));
        assertEquals("/", IngressFrontendHandler.path("/"));
        assertEquals("/booking/x", IngressFrontendHandler.path("http://acmeair:9080/booking/x?y=1"));
        assertNull(IngressFrontendHandler.path("*"));
        assertEquals("/", IngressFrontendHandler.path("http://acmeair"));
        assertNull(IngressFrontendHandler.path("acmeair:9080"));
        assertNull(IngressFrontendHandler.path("not a uri"));
    }

    @Test
    @DisplayName("says a refused connect short, as the 503 body shows it")
    void reason() {
        assertEquals("connection refused", IngressFrontendHandler.reason(new ConnectException("Connection refused: /127.0.0.1:41004")));
        assertEquals("No route to host", IngressFrontendHandler.reason(new ConnectException("No route to host")));
    }
}
