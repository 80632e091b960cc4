package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.io.ResultsFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("counter samples: increase in a window")
class CounterSamplesTest {

    @Test
    @DisplayName("interpolates at the window edges, sums components, and treats a decrease as a restart")
    void increase() {
        CounterSamples c = new CounterSamples();
        // customer: 0 at t=0, 100 at t=1000, 300 at t=2000
        c.add("mongoCommands", "customer", 0, 0);
        c.add("mongoCommands", "customer", 1000, 100);
        c.add("mongoCommands", "customer", 2000, 300);
        // booking restarts between t=1000 (50) and t=1500 (5): the runs [0..1000] and [1500..2000] count apart
        c.add("mongoCommands", "booking", 0, 0);
        c.add("mongoCommands", "booking", 1000, 50);
        c.add("mongoCommands", "booking", 1500, 5);
        c.add("mongoCommands", "booking", 2000, 25);
        // [500, 1750): customer 250 - 50 = 200; booking run 1: 50 - 25 = 25, run 2: 15 - 5 = 10
        assertEquals(235.0, c.increase("mongoCommands", 500, 1750), 1e-9);
        // before the first sample and after the last nothing is counted
        assertEquals(300.0 + 50 + 20, c.increase("mongoCommands", -5000, 9000), 1e-9);
        assertNull(c.increase("mongoPathBytes", 0, 2000), "a counter never sampled has no figure");
        assertTrue(c.has("mongoCommands"));
    }

    @Test
    @DisplayName("a bad value names the file, line and column")
    void badValue(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("counters.csv");
        Files.writeString(f, "epochMs,component,counter,value\n1,customer,mongoCommands,12\n2,customer,mongoCommands,lots\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> CounterSamples.read(f));
        assertTrue(e.getMessage().contains("counters.csv") && e.getMessage().contains("line 3")
                && e.getMessage().contains("column value"), e.getMessage());
    }
}
