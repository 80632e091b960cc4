package dev.meshbench.orchestrator.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.results.ComponentRole;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ComponentKindTest {
    @Test
    @DisplayName("the kinds whose CPU counts as mesh are exactly the kinds the report's mesh CPU definition names")
    void meshKindsAreTheDefinitionsKinds() {
        Set<String> mesh = Arrays.stream(ComponentKind.values()).filter(k -> k.role() == ComponentRole.MESH)
                .map(k -> k.name().toLowerCase(Locale.ROOT).replace('_', '-')).collect(Collectors.toSet());
        assertEquals(Set.copyOf(ComponentRole.MESH.kinds()), mesh, ComponentRole.MESH.definition());
    }
}
