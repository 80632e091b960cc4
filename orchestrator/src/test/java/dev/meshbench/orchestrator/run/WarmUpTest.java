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

    private static List<WarmUp.Window> windows(double[] perSecond, double[] cpuPerRequest, double[] compileMs) {
        List<WarmUp.Window> out = new java.util.ArrayList<>();
        for (int i = 0; i < perSecond.length; i++) {
            out.add(new WarmUp.Window(perSecond[i], cpuPerRequest == null ? null : cpuPerRequest[i],
                    compileMs == null ? null : compileMs[i], compileMs == null ? null : "flight"));
        }
        return out;
    }

    @Test
    @DisplayName("a climb whose last two windows agree within 5% is not warm: the trend over four windows is")
    void aClimbIsNotWarmEvenWhenTwoWindowsAgree() {
        // 30 more every window: each pair of successive windows is within 3%; the fitted line rises 90 across the four
        // windows, 8.6% of their mean 1045
        List<WarmUp.Window> climb = windows(new double[] {1000, 1030, 1060, 1090}, null, null);
        WarmUp.Verdict v = WarmUp.judge(climb, 4, 5, 50);
        assertFalse(v.warm(), v.why());
        assertTrue(v.why().contains("throughput rising 8.6% over the last 4 windows"), v.why());
        // the study's own false plateau: 1170 and 1163 agree, the windows before them were far lower
        assertFalse(WarmUp.judge(windows(new double[] {900, 1050, 1170, 1163}, null, null), 4, 5, 50).warm());
    }

    @Test
    @DisplayName("warm when throughput and CPU per request are flat over four windows and every JVM is quiet")
    void flatAndQuietIsWarm() {
        WarmUp.Verdict v = WarmUp.judge(windows(new double[] {500, 1000, 1010, 995, 1005}, new double[] {9, 2.0, 2.02, 1.99, 2.01},
                new double[] {900, 40, 20, 12, 8}), 4, 5, 50);
        assertTrue(v.warm(), v.why());
        assertTrue(v.why().contains("JIT quiet (flight's JIT used 8 ms in the last window)"), v.why());
        // the last four, 1000 1010 995 1005, around their mean 1002.5: -2.5 +7.5 -7.5 +2.5 against x -1.5 -0.5 0.5 1.5
        // sum to 0, no slope at all
        assertTrue(v.why().contains("throughput flat (+0.0% over the last 4 windows)"), v.why());
    }

    @Test
    @DisplayName("flat throughput is not enough: a JVM still compiling, or CPU per request still falling, keeps it warming")
    void compilingOrFallingCpuIsNotWarm() {
        double[] flat = {1000, 1000, 1000, 1000};
        WarmUp.Verdict compiling = WarmUp.judge(windows(flat, new double[] {2, 2, 2, 2}, new double[] {300, 200, 150, 120}), 4, 5, 50);
        assertFalse(compiling.warm());
        assertTrue(compiling.why().startsWith("still compiling (flight's JIT used 120 ms in the last window, quiet is at most 50)"),
                compiling.why());
        // a fixed rate holds throughput flat while the JVMs get cheaper: CPU per request shows it
        WarmUp.Verdict falling = WarmUp.judge(windows(flat, new double[] {2.4, 2.2, 2.0, 1.9}, new double[] {10, 10, 10, 10}), 4, 5, 50);
        assertFalse(falling.warm());
        assertTrue(falling.why().contains("CPU per request falling"), falling.why());
        assertFalse(WarmUp.judge(windows(new double[] {1000, 1000, 1000}, null, null), 4, 5, 50).warm(), "three windows are too few");
        assertFalse(WarmUp.judge(windows(new double[] {0, 0, 0, 0}, null, null), 4, 5, 50).warm(), "nothing answered");
    }

    @Test
    @DisplayName("the trend is the least-squares line's change across the windows, percent of their mean")
    void trendPercent() {
        assertEquals(0, WarmUp.trendPercent(List.of(5.0, 5.0, 5.0)), 1e-9);
        // 10, 20, 30: slope 10 per window, 20 across, mean 20 -> 100%
        assertEquals(100, WarmUp.trendPercent(List.of(10.0, 20.0, 30.0)), 1e-9);
        // 4, 2, 3, 1: slope -0.8, -2.4 across, mean 2.5 -> -96%
        assertEquals(-96, WarmUp.trendPercent(List.of(4.0, 2.0, 3.0, 1.0)), 1e-9);
        assertTrue(Double.isNaN(WarmUp.trendPercent(List.of(1.0))));
    }

    @Test
    @DisplayName("a window's CPU per request and the JVM that compiled most come from the counters at its edges")
    void windowFromCounters() {
        WarmUp.Window w = WarmUp.window(200, 10, Map.of("flight", 1000.0, "auth", 500.0),
                Map.of("flight", 1030.0, "auth", 620.0, "JMeter", 40.0), java.util.OptionalDouble.of(10_000),
                java.util.OptionalDouble.of(10_500));
        assertEquals(20.0, w.requestsPerSecond());
        assertEquals(2.5, w.cpuMsPerRequest(), "500 ms of CPU over 200 requests");
        assertEquals(120.0, w.compileMs(), "auth compiled 120 ms, more than flight's 30 and JMeter's 40");
        assertEquals("auth", w.compiling());
        WarmUp.Window restarted = WarmUp.window(0, 10, Map.of("flight", 1000.0), Map.of("flight", 70.0),
                java.util.OptionalDouble.empty(), java.util.OptionalDouble.empty());
        assertEquals(70.0, restarted.compileMs(), "a JVM whose counter went back restarted: all it compiled counts");
        assertEquals(null, restarted.cpuMsPerRequest());
        WarmUp.Window cpuWentBack = WarmUp.window(300, 10, Map.of(), Map.of(), java.util.OptionalDouble.of(90_000),
                java.util.OptionalDouble.of(20_000));
        assertEquals(null, cpuWentBack.cpuMsPerRequest(), "components' CPU that went back (pods replaced) gives no CPU per request");
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
                .startsWith("meshbench.warmupCapSeconds=5: must be between 40 and 3600"));
    }

    @Test
    @DisplayName("a fixed warm-up watches the samples for its time, then stops the load generator and records the windows")
    void fixed() throws Exception {
        Path jtl = dir.resolve("samples.jtl");
        // a stand-in load generator: writes a JTL header, 30 warm-up samples (step 0) and 5 of a step, then would run
        // for a minute
        String script = "printf 'timeStamp,elapsed,label,responseCode,success,step\\n' > " + jtl
                + "; i=0; while [ $i -lt 30 ]; do printf '1700000000000,5,login,200,true,0\\n' >> " + jtl
                + "; i=$((i+1)); done; i=0; while [ $i -lt 5 ]; do printf '1700000000000,5,login,200,true,4\\n' >> " + jtl
                + "; i=$((i+1)); done; sleep 60";
        Path home = Files.createDirectories(dir.resolve("jm/bin")).getParent();
        JMeterLoad.Running r = JMeterLoad.start(List.of("sh", "-c", script), new JMeterLoad.Install(home, "x.jar"),
                dir.resolve("out.txt"));
        // The warm-up reads the file from its start: wait until the stand-in has written every sample, so the 2 s
        // window sees them however long a busy machine takes to start sh.
        for (int i = 0; i < 600 && (!Files.exists(jtl) || Files.readAllLines(jtl).size() < 36); i++) {
            Thread.sleep(50);
        }
        assertEquals(36, Files.readAllLines(jtl).size(), "the stand-in's header and 35 samples");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WarmupInfo plan = RunSettings.warmupPlan(Map.of("meshbench.warmup", "2"));
        boolean[] ended = {false};
        WarmupInfo done = WarmUp.run(plan, 4, r, jtl, () -> ended[0] = true, WarmUp.Signals.NONE, new PrintStream(out, true), "sni");
        r.stop();
        assertTrue(ended[0], "ended after its time");
        assertEquals(WarmupInfo.FIXED, done.mode());
        assertEquals(4, done.clients());
        assertEquals(1, done.windowsPerSecond().size(), "one window of 2 s");
        double w = done.windowsPerSecond().get(0);
        assertTrue(w > 0 && w <= 15.1, "the 30 warm-up samples (not the step's 5) over a window of at least 2 s: " + w);
        assertTrue(done.tookSeconds() >= 2, "took " + done.tookSeconds());
        assertTrue(out.toString().contains("[sni] warm-up at 4 clients:"), out.toString());
    }
}
