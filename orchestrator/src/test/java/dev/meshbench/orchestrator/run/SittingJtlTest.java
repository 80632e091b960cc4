package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SittingJtlTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,success,step,phase\n";

    private static void append(Path f, String text) throws IOException {
        Files.writeString(f, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    @DisplayName("copies each routed phase's records byte for byte under the sitting JTL's header, whole records only")
    void cutsByPhase(@TempDir Path dir) throws IOException {
        Path sitting = dir.resolve("samples.jtl");
        Path b = dir.resolve("b.jtl");
        SittingJtl jtl = new SittingJtl(sitting);
        jtl.route("sni-1", b); // routed before JMeter wrote its header: the header still comes first
        append(sitting, HEADER);
        String a1 = "1000,5,login,200,OK,true,20,warmup\n";
        String b1 = "1010,7,login,200,OK,true,20,sni-1\n";
        // a message with a comma, a quote and a line break, as JMeter quotes it
        String b2 = "1020,9,queryFlights,500,\"Server \"\"busy\"\",\nretry\",false,20,sni-1\n";
        String b3start = "1030,4,listBookings,200,OK,true,20,sn";
        append(sitting, a1 + b1 + b2 + b3start);
        jtl.poll();
        assertEquals(HEADER + b1 + b2, Files.readString(b), "the half-written record waits");
        append(sitting, "i-1\n" + "1040,3,login,200,OK,true,20,drain-sni-1\n");
        jtl.unroute("sni-1");
        assertEquals(HEADER + b1 + b2 + b3start + "i-1\n", Files.readString(b));
        SittingJtl.Seen seen = jtl.seen("sni-1").orElseThrow();
        assertEquals(3, seen.samples());
        assertEquals(1, seen.errors());
        assertEquals(1034, seen.lastEndMs());
        assertEquals(1, jtl.seen("warmup").orElseThrow().samples());
        assertTrue(jtl.seen("bypass-2").isEmpty());
    }

    @Test
    @DisplayName("refuses a JTL without the phase column, naming the file and what it lacks")
    void needsPhaseColumn(@TempDir Path dir) throws IOException {
        Path sitting = dir.resolve("samples.jtl");
        append(sitting, "timeStamp,elapsed,label,success,step\n1000,5,login,true,20\n");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new SittingJtl(sitting).poll());
        assertTrue(e.getMessage().startsWith(sitting + ": the sitting's JTL header lacks one of phase"), e.getMessage());
    }

    @Test
    @DisplayName("a phase cannot be routed twice at once")
    void routeOnce(@TempDir Path dir) throws IOException {
        SittingJtl jtl = new SittingJtl(dir.resolve("samples.jtl"));
        jtl.route("a", dir.resolve("a.jtl"));
        assertThrows(IllegalStateException.class, () -> jtl.route("a", dir.resolve("a2.jtl")));
        jtl.unroute("a");
        jtl.route("a", dir.resolve("a3.jtl"));
        jtl.unroute("a");
    }
}
