package dev.meshbench.jmeter.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.SittingControl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SittingControlReaderTest {
    private static void replace(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("next");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    @DisplayName("follows the file as the kit replaces it, looking at most every 50 ms")
    void followsChanges(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("control.properties");
        replace(f, new SittingControl("warmup", 0, false).text());
        AtomicLong now = new AtomicLong(1_000_000_000L);
        SittingControlReader r = new SittingControlReader(f, now::get);
        assertEquals(new SittingControl("warmup", 0, false), r.current());
        replace(f, new SittingControl("sni-1", 795, false).text());
        assertEquals("warmup", r.current().phase(), "not looked at again within 50 ms");
        now.addAndGet(SittingControlReader.RECHECK_NANOS);
        assertEquals(new SittingControl("sni-1", 795, false), r.current());
        replace(f, new SittingControl("sni-2", 795, false).text()); // same size, maybe the same millisecond: a new file
        now.addAndGet(SittingControlReader.RECHECK_NANOS);
        assertEquals("sni-2", r.current().phase());
        replace(f, new SittingControl("sni-2", 795, true).text());
        now.addAndGet(SittingControlReader.RECHECK_NANOS);
        assertTrue(r.current().stop());
    }

    @Test
    @DisplayName("keeps the last good values when a rewrite cannot be read")
    void keepsLastGood(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("control.properties");
        replace(f, new SittingControl("gateway-1", 400, false).text());
        AtomicLong now = new AtomicLong();
        SittingControlReader r = new SittingControlReader(f, now::get);
        r.current();
        replace(f, "phase=gateway 1\nrate=400\n");
        now.addAndGet(SittingControlReader.RECHECK_NANOS);
        assertEquals(new SittingControl("gateway-1", 400, false), r.current());
        Files.delete(f);
        now.addAndGet(SittingControlReader.RECHECK_NANOS);
        assertEquals("gateway-1", r.current().phase());
    }

    @Test
    @DisplayName("a control file that cannot be read at the start is refused, naming the property, the file and the key")
    void refusesAtStart(@TempDir Path dir) throws IOException {
        SittingControlReader.reset();
        Properties p = new Properties();
        assertTrue(SittingControlReader.fromProperties(p).isEmpty(), "no property: not the sitting mode");
        assertFalse(SittingControlReader.sitting(p));
        Path f = dir.resolve("control.properties");
        p.setProperty(SittingControl.PROPERTY, f.toString());
        InvalidWorkloadPropertyException missing = assertThrows(InvalidWorkloadPropertyException.class,
                () -> SittingControlReader.fromProperties(p));
        assertTrue(missing.getMessage().startsWith(SittingControl.PROPERTY + "=" + f) && missing.getMessage().contains("cannot be read"),
                missing.getMessage());
        SittingControlReader.reset();
        Files.writeString(f, "phase=sni-1\nrate=fast\n");
        InvalidWorkloadPropertyException bad = assertThrows(InvalidWorkloadPropertyException.class,
                () -> SittingControlReader.fromProperties(p));
        assertTrue(bad.getMessage().contains("rate=fast: must be a number of requests per second, 0 or more"), bad.getMessage());
        SittingControlReader.reset();
        Files.writeString(f, "phase=sni-1\nrate=20\nstop=maybe\n");
        assertTrue(assertThrows(InvalidWorkloadPropertyException.class, () -> SittingControlReader.fromProperties(p)).getMessage()
                .contains("stop=maybe: must be true or false"));
        SittingControlReader.reset();
        Files.writeString(f, "rate=20\n");
        assertTrue(assertThrows(InvalidWorkloadPropertyException.class, () -> SittingControlReader.fromProperties(p)).getMessage()
                .contains("phase is missing"));
        SittingControlReader.reset();
        Files.writeString(f, "phase=sni-1\nrate=20\n");
        assertEquals(new SittingControl("sni-1", 20, false), SittingControlReader.fromProperties(p).orElseThrow().current());
        SittingControlReader.reset();
    }
}
