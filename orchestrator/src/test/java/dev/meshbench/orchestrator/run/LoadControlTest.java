package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadControlTest {
    private static Properties read(Path f) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f)) {
            p.load(r);
        }
        return p;
    }

    @Test
    @DisplayName("writes the phase, the rate and stop as a properties file, replaced whole on each change")
    void writesWholeFiles(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("control.properties");
        LoadControl c = LoadControl.create(f, "warmup", 0);
        assertEquals("warmup", read(f).getProperty("phase"));
        assertEquals("0", read(f).getProperty("rate"));
        assertEquals("false", read(f).getProperty("stop"));
        c.set("sni-2", 812.5);
        assertEquals("sni-2", read(f).getProperty("phase"));
        assertEquals("812.5", read(f).getProperty("rate"));
        c.stop();
        assertEquals("true", read(f).getProperty("stop"));
        assertEquals("sni-2", read(f).getProperty("phase"));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left beside it");
        }
    }

    @Test
    @DisplayName("refuses a phase the plan would not take and a negative rate, writing nothing")
    void refusesBadValues(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("control.properties");
        LoadControl c = LoadControl.create(f, "warmup", 0);
        assertEquals("phase=sni 2: must be 1 to 64 of A-Z a-z 0-9 . _ : -",
                assertThrows(IllegalArgumentException.class, () -> c.set("sni 2", 1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> c.set("x".repeat(65), 1));
        assertThrows(IllegalArgumentException.class, () -> c.set("sni-2", -1));
        assertThrows(IllegalArgumentException.class, () -> c.set("sni-2", Double.NaN));
        assertEquals("warmup", read(f).getProperty("phase"));
    }
}
