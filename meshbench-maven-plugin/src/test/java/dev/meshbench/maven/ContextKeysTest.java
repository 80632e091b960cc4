package dev.meshbench.maven;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.meshbench.model.settings.Catalogue;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The keys the goals pass results under in the build's context cannot be taken for settings. */
class ContextKeysTest {
    @Test
    @DisplayName("no context key looks like a meshbench.* setting (LatencyMojo's was one dot from meshbench.latency.cells)")
    void contextKeysAreNotSettings() {
        for (String key : List.of(RunMojo.RUN_RESULTS, RunMojo.PROBLEMS, LatencyMojo.CELLS)) {
            assertFalse(key.startsWith("meshbench."), key);
            String squeezed = key.replace(".", "").toLowerCase(java.util.Locale.ROOT);
            Catalogue.ALL.forEach(s -> assertFalse(squeezed.endsWith(s.name().replace(".", "").toLowerCase(java.util.Locale.ROOT))
                    && !s.name().equals(key), key + " is a dot away from the setting " + s.name()));
        }
    }
}
