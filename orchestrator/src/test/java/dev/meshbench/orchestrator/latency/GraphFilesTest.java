package dev.meshbench.orchestrator.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphFilesTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void shippedGraphsByNameCalleesFirst() {
        GraphFiles.Graph g = GraphFiles.resolve("double", ROOT);
        assertEquals("double", g.shape().name());
        assertEquals(List.of("go-sample-dependency", "go-sample"), g.shape().calleesFirst());
        assertEquals("go-sample", g.shape().entrypoint());
        assertEquals(List.of("go-sample-dependency"), g.shape().callees("go-sample"));
        assertEquals("a", GraphFiles.resolve("single", ROOT).shape().entrypoint());
    }

    @Test
    void aUsersFileByPathIsNamedAfterIt(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("chain3.yaml");
        Files.writeString(f, """
                apiVersion: v1alpha1
                kind: MockServiceGraph
                services:
                  - name: front
                    isEntrypoint: true
                    script:
                      - call: mid
                  - name: mid
                    script:
                      - call: back
                  - name: back
                """);
        GraphShape s = GraphFiles.resolve(f.toString(), ROOT).shape();
        assertEquals("chain3", s.name());
        assertEquals(List.of("back", "mid", "front"), s.calleesFirst());
    }

    @Test
    void refusalsNameTheFileLineAndReason(@TempDir Path dir) throws Exception {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> GraphFiles.resolve("triple", ROOT));
        assertTrue(unknown.getMessage().contains("no shipped graph named 'triple' (shipped: double, single"), unknown.getMessage());
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "apiVersion: v1alpha1\nkind: MockServiceGraph\nservices:\n  - name: a\n    isEntrypoint: true\n    script:\n      - call: nowhere\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GraphFiles.resolve(bad.toString(), ROOT));
        assertTrue(e.getMessage().startsWith("graph " + bad + ":7: "), e.getMessage());
        Path two = dir.resolve("two.yaml");
        Files.writeString(two, "apiVersion: v1alpha1\nkind: MockServiceGraph\nservices:\n  - name: a\n    isEntrypoint: true\n  - name: b\n    isEntrypoint: true\n");
        IllegalArgumentException twoEntries = assertThrows(IllegalArgumentException.class, () -> GraphFiles.resolve(two.toString(), ROOT));
        assertTrue(twoEntries.getMessage().contains("the latency study sends to one entrypoint; graph two has [a, b]"), twoEntries.getMessage());
    }
}
