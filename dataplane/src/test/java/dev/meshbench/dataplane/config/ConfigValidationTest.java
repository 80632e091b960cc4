package dev.meshbench.dataplane.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ConfigValidationTest {
    private static final Upstream UP = Upstream.of(HostAndPort.parse("127.0.0.1:27017"), "mongo");

    @Test
    @DisplayName("parses host:port and bracketed IPv6, and names the value when it cannot")
    void hostAndPort() {
        assertEquals(new HostAndPort("127.0.0.1", 40123), HostAndPort.parse("127.0.0.1:40123"));
        assertEquals(new HostAndPort("::1", 80), HostAndPort.parse("[::1]:80"));
        assertEquals("[::1]:80", HostAndPort.parse("[::1]:80").toString());
        for (String bad : List.of("", "host", "host:", ":80", "host:0", "host:65536", "host:x", "::1:80")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostAndPort.parse(bad), bad);
            assertTrue(e.getMessage().contains(bad.isEmpty() ? "empty" : bad) || e.getMessage().contains("port"), e.getMessage());
        }
    }

    @Test
    @DisplayName("a component needs listeners with distinct names and ports, and TLS material when a listener uses mTLS")
    void component() {
        ListenerConfig a = ListenerConfig.relay("a", 7000, UP);
        assertThrows(IllegalArgumentException.class, () -> ComponentConfig.of("s", List.of(), null));
        IllegalArgumentException names = assertThrows(IllegalArgumentException.class,
                () -> ComponentConfig.of("s", List.of(a, ListenerConfig.relay("a", 7001, UP)), null));
        assertTrue(names.getMessage().contains("two listeners named a"), names.getMessage());
        IllegalArgumentException ports = assertThrows(IllegalArgumentException.class,
                () -> ComponentConfig.of("s", List.of(a, ListenerConfig.relay("b", 7000, UP)), null));
        assertTrue(ports.getMessage().contains("port 7000"), ports.getMessage());
        ComponentConfig.of("s", List.of(ListenerConfig.relay("a", 0, UP), ListenerConfig.relay("b", 0, UP)), null);
        IllegalArgumentException tls = assertThrows(IllegalArgumentException.class, () -> ComponentConfig.of("s",
                List.of(ListenerConfig.mtlsTerminating("egress", 0, RouteTable.of("*", UP))), null));
        assertTrue(tls.getMessage().contains("mutual TLS"), tls.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ComponentConfig.of("bad name", List.of(a), null));
        assertThrows(IllegalArgumentException.class, () -> ListenerConfig.relay("Bad_Name", 0, UP));
    }

    @Test
    @DisplayName("one upstream is a fixed route, several a round robin over distinct addresses")
    void roundRobin() {
        Upstream a = Upstream.of(HostAndPort.parse("127.0.0.1:7001"), "customer");
        Upstream b = Upstream.of(HostAndPort.parse("127.0.0.1:7002"), "customer");
        assertEquals(new Routing.Fixed(a), Routing.of(List.of(a)));
        assertEquals(new Routing.RoundRobin(List.of(a, b)), Routing.of(List.of(a, b)));
        assertEquals("round-robin[127.0.0.1:7001 (customer), 127.0.0.1:7002 (customer)]", Routing.of(List.of(a, b)).describe());
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class, () -> new Routing.RoundRobin(List.of(a)));
        assertEquals("round robin needs at least two upstreams (got 1)", one.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> new Routing.RoundRobin(List.of(a, b, a)));
        assertEquals("upstream 127.0.0.1:7001 is given twice", twice.getMessage());
        Upstream upper = Upstream.of(HostAndPort.parse("Customer.Local:80"), "customer");
        Upstream lower = Upstream.of(HostAndPort.parse("customer.local:80"), "customer");
        assertThrows(IllegalArgumentException.class, () -> new Routing.RoundRobin(List.of(upper, lower)), "host names ignore case");
        ListenerConfig l = new ListenerConfig("to-customer", 0, false, Routing.of(List.of(a, b)),
                new UpstreamTls.MutualTls("customer.default.svc", null));
        assertEquals("mtls-originate", l.tlsMode());
    }

    @Test
    @DisplayName("mTLS origination needs a host name as SNI and an absolute peer id")
    void upstreamTls() {
        assertThrows(IllegalArgumentException.class, () -> new UpstreamTls.MutualTls("127.0.0.1:1", null));
        assertThrows(IllegalArgumentException.class, () -> new UpstreamTls.MutualTls("mongo.test", java.net.URI.create("relative/id")));
        assertEquals("mongo.test", new UpstreamTls.MutualTls("Mongo.Test", null).serverName());
    }
}
