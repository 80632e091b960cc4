package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.ComponentRole;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuSetsTest {
    @TempDir
    Path dir;

    private String pathWithTaskset() throws IOException {
        Path t = Files.writeString(dir.resolve("taskset"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir.toString();
    }

    @Test
    @DisplayName("each group's list becomes a taskset prefix; groups without one run unpinned")
    void prefixes() throws IOException {
        CpuSets c = CpuSets.fromProperties(Map.of("meshbench.cpus.loadgen", "3", "meshbench.cpus.services", "0-1, 2"),
                4, pathWithTaskset());
        assertEquals(List.of("taskset", "-c", "3"), c.prefix(ComponentRole.LOAD));
        assertEquals(List.of("taskset", "-c", "0-1,2", "java", "-jar", "x.jar"), c.pin(ComponentRole.APP, List.of("java", "-jar", "x.jar")));
        assertEquals(List.of(), c.prefix(ComponentRole.MESH));
        assertEquals(List.of("java"), c.pin(ComponentRole.DATABASE, List.of("java")));
        assertEquals(Map.of("meshbench.cpus.loadgen", "3", "meshbench.cpus.services", "0-1,2"), c.asProperties());
        assertEquals(CpuSets.NONE, CpuSets.fromProperties(Map.of(), 4, ""));
    }

    @Test
    @DisplayName("a bad list, a CPU the machine lacks, or no taskset is refused, naming the property")
    void refused() throws IOException {
        String path = pathWithTaskset();
        for (var bad : List.of(Map.entry("meshbench.cpus.mesh", "a"), Map.entry("meshbench.cpus.mesh", "1-"),
                Map.entry("meshbench.cpus.mongo", "3-1"), Map.entry("meshbench.cpus.loadgen", "4"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CpuSets.fromProperties(Map.ofEntries(bad), 4, path), bad.toString());
            assertTrue(e.getMessage().startsWith(bad.getKey() + "=" + bad.getValue() + ": "), e.getMessage());
        }
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> CpuSets.fromProperties(Map.of("meshbench.cpus.mesh", "1"), 4, dir.resolve("empty").toString()));
        assertTrue(none.getMessage().contains("need taskset on PATH"), none.getMessage());
    }
}
