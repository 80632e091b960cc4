package dev.meshbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.model.ComponentNames;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ComponentRoleTest {
    @Test
    @DisplayName("mesh CPU is the ingress gateway, the sidecars, the egress gateway and the SNI proxy, said in words")
    void meshDefinition() {
        assertEquals("ingress gateway + sidecars + egress gateway + SNI proxy", ComponentRole.MESH.definition());
        assertEquals("customer + flight + auth + booking", ComponentRole.APP.definition());
    }

    @Test
    @DisplayName("a sampled component's kind is its name, or sidecar for any service's sidecar")
    void kindOf() {
        assertEquals(ComponentNames.SIDECAR, ComponentRole.kindOf(ComponentNames.sidecarOf("booking")));
        assertEquals(ComponentNames.INGRESS_GATEWAY, ComponentRole.kindOf(ComponentNames.INGRESS_GATEWAY));
    }
}
