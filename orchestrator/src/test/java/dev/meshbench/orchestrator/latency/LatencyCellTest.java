package dev.meshbench.orchestrator.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyCellTest {
    private static final List<LatencyCell> MATRIX = LatencyCell.matrix(List.of("single", "double"));

    @Test
    void theMatrixHasTheGistsSixteenRowsInItsOrder() {
        assertEquals(16, MATRIX.size());
        assertEquals(List.of("single/1/none/none", "double/1/none/none", "single/1/gateway/none", "double/1/gateway/none",
                "single/1/gateway/sidecar", "double/1/gateway/sidecar", "single/1/none/sidecar", "double/1/none/sidecar"),
                MATRIX.subList(0, 8).stream().map(LatencyCell::id).toList());
        assertEquals("double/5/none/sidecar", MATRIX.get(15).id());
    }

    @Test
    void selectsOneCellSeveralAndWildcardsInMatrixOrder() {
        assertEquals(List.of("single/1/none/sidecar"),
                LatencyCell.select(MATRIX, "k", "single/1/none/sidecar").stream().map(LatencyCell::id).toList());
        assertEquals(List.of("single/1/none/none", "single/1/none/sidecar"),
                LatencyCell.select(MATRIX, "k", "single/1/none/sidecar, single/1/none/none").stream().map(LatencyCell::id).toList());
        assertEquals(4, LatencyCell.select(MATRIX, "k", "double/*/none/*").size());
        assertEquals(16, LatencyCell.select(MATRIX, "k", "all").size());
        assertEquals(16, LatencyCell.select(MATRIX, "k", " ").size());
    }

    @Test
    void refusesWhatMatchesNothingNamingTheInput() {
        IllegalArgumentException shape = assertThrows(IllegalArgumentException.class, () -> LatencyCell.select(MATRIX, "meshbench.latency.cells", "single/1"));
        assertTrue(shape.getMessage().startsWith("meshbench.latency.cells=single/1: 'single/1' is not <graph>/<scale>/<ingress>/<sidecar>"),
                shape.getMessage());
        IllegalArgumentException word = assertThrows(IllegalArgumentException.class, () -> LatencyCell.select(MATRIX, "k", "single/1/istio/none"));
        assertTrue(word.getMessage().contains("ingress 'istio' must be none, gateway or *"), word.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> LatencyCell.select(MATRIX, "k", "triple/1/none/none"));
        assertTrue(none.getMessage().contains("'triple/1/none/none' matches no cell; cells are single/1/none/none, double/1/none/none"),
                none.getMessage());
    }

    @Test
    void idsSlugsAndBaselines() {
        LatencyCell c = new LatencyCell("double", 5, true, true);
        assertEquals("double/5/gateway/sidecar", c.id());
        assertEquals("double-5-gateway-sidecar", c.slug());
        assertEquals("gateway+sidecar", c.mesh());
        assertEquals("double/5/none/none", c.baseline().id());
        assertThrows(IllegalArgumentException.class, () -> new LatencyCell("Bad Name", 1, false, false));
        assertThrows(IllegalArgumentException.class, () -> new LatencyCell("single", 0, false, false));
    }
}
