package dev.meshbench.model.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The committed {@code docs/settings.md} is what {@link SettingsReference} generates from the catalogue. Regenerate
 * it with {@code mvn -B -q -pl model test -Dtest=SettingsReferenceTest -Dmeshbench.regenerateGolden=true} and
 * commit the diff.
 */
class SettingsReferenceTest {
    private static final Path FILE = Path.of(System.getProperty("basedir", ".")).resolve("..").resolve(SettingsReference.FILE)
            .normalize();

    @Test
    @DisplayName("docs/settings.md is the reference generated from the catalogue")
    void committedReferenceIsGenerated() throws IOException {
        String generated = SettingsReference.markdown();
        if (Boolean.getBoolean("meshbench.regenerateGolden")) {
            Files.writeString(FILE, generated, StandardCharsets.UTF_8);
        }
        assertEquals(generated, Files.readString(FILE, StandardCharsets.UTF_8), FILE + " is not the reference the catalogue "
                + "generates; regenerate it: mvn -B -q -pl model test -Dtest=SettingsReferenceTest -Dmeshbench.regenerateGolden=true");
    }
}
