package dev.meshbench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ServiceTest {
    @Test
    @DisplayName("the Acmeair call graph: auth -> customer; booking -> flight, customer; callees come first")
    void callGraph() {
        assertEquals(List.of(Service.CUSTOMER), Service.AUTH.calls());
        assertEquals(List.of(Service.FLIGHT, Service.CUSTOMER), Service.BOOKING.calls());
        assertEquals(List.of(), Service.CUSTOMER.calls());
        assertEquals(List.of(), Service.FLIGHT.calls());
        for (Service s : Service.values()) {
            s.calls().forEach(callee -> assertTrue(callee.ordinal() < s.ordinal(), callee + " must start before " + s));
        }
        assertEquals(List.of("customer", "flight", "auth", "booking"), ComponentNames.SERVICES);
    }

    @Test
    @DisplayName("each service's readiness check is GET /<service>/ready")
    void readyPath() {
        assertEquals("/booking/ready", Service.BOOKING.readyPath());
        assertEquals(Service.AUTH, Service.byId("auth"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Service.byId("go-sample"));
        assertEquals("unknown service 'go-sample' (expected one of customer, flight, auth, booking)", e.getMessage());
    }

    @Test
    @DisplayName("each hop of the MongoDB path receives on its own listener, named as the plans name it")
    void hopsAndListeners() {
        assertEquals("mongo", ListenerNames.onMongoPath(HopKind.SIDECAR));
        assertEquals("egress", ListenerNames.onMongoPath(HopKind.EGRESS_GATEWAY));
        assertEquals("sni", ListenerNames.onMongoPath(HopKind.SNI_PROXY));
        assertEquals("egress-gateway", ComponentNames.ofHop(HopKind.EGRESS_GATEWAY));
        assertEquals("sni-proxy", ComponentNames.ofHop(HopKind.SNI_PROXY));
    }
}
