package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.WarmupInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarmUpTest {
    @TempDir
    Path dir;

    @Test
    @DisplayName("stable when the last two windows differ by at most the tolerance of the larger, both above 0")
    void stableRule() {
        assertFalse(WarmUp.stable(List.of(100.0), 5), "one window compares with nothing");
        assertTrue(WarmUp.stable(List.of(50.0, 100.0, 95.0), 5), "5 of 100 is 5%");
        assertFalse(WarmUp.stable(List.of(100.0, 94.9), 5), "5.1 of 100 is more than 5%");
        assertFalse(WarmUp.stable(List.of(94.9, 99.9), 5), "5.0 of 99.9 is 5.005%");
        assertFalse(WarmUp.stable(List.of(0.0, 0.0), 5), "no throughput is not a steady state");
    }

    @Test
    @DisplayName("the plan is read: stable with a cap by default, fixed seconds, or none; bad values name the property")
    void plan() {
        WarmupInfo d = RunSettings.warmupPlan(Map.of());
        assertEquals(WarmupInfo.STABLE, d.mode());
        assertEquals(180, d.limitSeconds());
        assertEquals(10, d.windowSeconds());
        assertEquals(WarmupInfo.FIXED, RunSettings.warmupPlan(Map.of("meshbench.warmup", "45")).mode());
        assertEquals(45, RunSettings.warmupPlan(Map.of("meshbench.warmup", "45")).limitSeconds());
        assertEquals(WarmupInfo.NONE, RunSettings.warmupPlan(Map.of("meshbench.warmup", "0")).mode());
        assertEquals(WarmupInfo.NONE, RunSettings.warmupPlan(Map.of("meshbench.warmup", "none")).mode());
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RunSettings.warmupPlan(Map.of("meshbench.warmup", "soon"))).getMessage().startsWith("meshbench.warmup=soon:"));
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RunSettings.warmupPlan(Map.of("meshbench.warmupCapSeconds", "5"))).getMessage()
                .startsWith("meshbench.warmupCapSeconds=5: must be between 20 and 3600"));
    }

    @Test
    @DisplayName("a fixed warm-up watches the samples for its time, then stops the load generator and records the windows")
    void fixed() throws Exception {
        Path jtl = dir.resolve(WarmUp.JTL);
        // a stand-in load generator: writes a JTL header and 30 samples at once, then would run for a minute
        String script = "printf 'timeStamp,elapsed,label,responseCode,success,step\\n' > " + jtl
                + "; i=0; while [ $i -lt 30 ]; do printf '1700000000000,5,login,200,true,4\\n' >> " + jtl
                + "; i=$((i+1)); done; sleep 60";
        Path home = Files.createDirectories(dir.resolve("jm/bin")).getParent();
        JMeterLoad.Running r = JMeterLoad.start(List.of("sh", "-c", script), new JMeterLoad.Install(home, "x.jar"),
                dir.resolve("out.txt"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WarmupInfo plan = RunSettings.warmupPlan(Map.of("meshbench.warmup", "2"));
        WarmupInfo done = WarmUp.run(plan, 4, r, jtl, new PrintStream(out, true), "sni");
        assertFalse(r.isAlive(), "stopped after its time");
        assertEquals(WarmupInfo.FIXED, done.mode());
        assertEquals(4, done.clients());
        assertEquals(1, done.windowsPerSecond().size(), "one window of 2 s");
        double w = done.windowsPerSecond().get(0);
        assertTrue(w > 0 && w <= 15.1, "the 30 samples over a window of at least 2 s: " + w);
        assertTrue(done.tookSeconds() >= 2, "took " + done.tookSeconds());
        assertTrue(out.toString().contains("[sni] warm-up at 4 clients:"), out.toString());
    }
}
