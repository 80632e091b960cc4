package dev.meshbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.ComponentNames;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MeshPartTest {
    @Test
    @DisplayName("the egress gateway and the SNI proxy are wholly on the MongoDB path, the ingress gateway wholly shared, "
            + "a sidecar split by its bytes")
    void fixedShares() {
        assertEquals(1.0, MeshPart.fixedShare(ComponentNames.EGRESS_GATEWAY));
        assertEquals(1.0, MeshPart.fixedShare(ComponentNames.SNI_PROXY));
        assertEquals(0.0, MeshPart.fixedShare(ComponentNames.INGRESS_GATEWAY));
        assertNull(MeshPart.fixedShare(ComponentNames.SIDECAR), "apportioned by bytes");
        assertNull(MeshPart.fixedShare(ComponentNames.MONGO), "not a mesh component");
        assertEquals(List.of(MeshPart.EGRESS_GATEWAY, MeshPart.SNI_PROXY, MeshPart.SIDECARS_MONGO), MeshPart.side(true));
        assertEquals(List.of(MeshPart.INGRESS_GATEWAY, MeshPart.SIDECARS_HTTP), MeshPart.side(false));
    }

    @Test
    @DisplayName("every kind mesh CPU adds up is split somewhere, so the two sides add up to mesh CPU")
    void coversMeshCpu() {
        for (String kind : ComponentRole.MESH.kinds()) {
            assertTrue(MeshPart.covers(kind), kind);
        }
    }

    @Test
    @DisplayName("a part takes its share of its own kind only: 0.3 of a sidecar's 100 ms is MongoDB's, 0.7 HTTP's")
    void partOfAComponent() {
        ComponentCpu sidecar = new ComponentCpu(ComponentNames.sidecarOf("flight"), ComponentRole.MESH, 100, 0.1, 1.0,
                1, 1, null, 0.3);
        assertEquals(30.0, MeshPart.SIDECARS_MONGO.cpuMillis(sidecar), 1e-9);
        assertEquals(70.0, MeshPart.SIDECARS_HTTP.cpuMillis(sidecar), 1e-9);
        assertEquals(0.0, MeshPart.EGRESS_GATEWAY.cpuMillis(sidecar));
        assertEquals(0.0, MeshPart.SIDECARS_MONGO.cpuMillis(sidecar.withMongoPathShare(null)), "no share, no part");
    }
}
