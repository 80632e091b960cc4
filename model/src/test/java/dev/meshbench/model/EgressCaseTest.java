package dev.meshbench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EgressCaseTest {
    @Test
    @DisplayName("the five cases have the study's MongoDB paths")
    void paths() {
        assertEquals(List.of(HopKind.APP, HopKind.MONGO), EgressCase.BYPASS.mongoHops());
        assertEquals(List.of(HopKind.APP, HopKind.SIDECAR, HopKind.MONGO), EgressCase.SIDECAR.mongoHops());
        assertEquals(List.of(HopKind.APP, HopKind.SIDECAR, HopKind.EGRESS_GATEWAY, HopKind.MONGO), EgressCase.GATEWAY.mongoHops());
        assertEquals(EgressCase.GATEWAY.mongoHops(), EgressCase.MTLS.mongoHops());
        assertEquals(List.of(HopKind.APP, HopKind.SIDECAR, HopKind.EGRESS_GATEWAY, HopKind.SNI_PROXY, HopKind.MONGO),
                EgressCase.SNI.mongoHops());
    }

    @Test
    @DisplayName("only mtls and sni tunnel the app's TLS inside mesh mTLS")
    void mtls() {
        assertFalse(EgressCase.BYPASS.meshMtls());
        assertFalse(EgressCase.SIDECAR.meshMtls());
        assertFalse(EgressCase.GATEWAY.meshMtls());
        assertTrue(EgressCase.MTLS.meshMtls());
        assertTrue(EgressCase.SNI.meshMtls());
    }

    @Test
    @DisplayName("the gateway routes by SNI without mTLS; the SNI proxy by wildcard")
    void routing() {
        assertEquals(Link.Routing.SNI_EXACT, EgressCase.GATEWAY.mongoPath().get(1).routing());
        assertEquals(Link.Routing.SNI_WILDCARD, EgressCase.SNI.mongoPath().get(3).routing());
    }

    @Test
    @DisplayName("ids look up case-insensitively; an unknown id names the allowed ones")
    void byId() {
        assertEquals(EgressCase.SNI, EgressCase.byId(" SNI "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EgressCase.byId("istio"));
        assertEquals("unknown case 'istio'; allowed: " + String.join(", ", CaseIds.ALL), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EgressCase.byId(""));
    }
}
