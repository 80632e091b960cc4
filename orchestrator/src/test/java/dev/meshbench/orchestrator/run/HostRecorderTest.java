package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepHost;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.convert.ResultsConverter;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostRecorderTest {
    @Test
    void readsTheAggregateCpuLineAndTheRunQueue() {
        String stat = """
                cpu  4705 356 584 3699 23 0 21 7 0 0
                cpu0 1393280 32966 572056 13343292 6130 0 17875 0 23933 0
                intr 114930548 113199788 3 0 5 263 0 4
                procs_running 5
                procs_blocked 0
                """;
        HostRecorder.ProcStat s = HostRecorder.ProcStat.parse(stat);
        // user nice system idle iowait irq softirq steal: 4705+356+584+3699+23+0+21+7 = 9395; idle+iowait = 3722.
        assertEquals(9395, s.totalTicks());
        assertEquals(9395 - 3722, s.busyTicks());
        assertEquals(5, s.runnable());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostRecorder.ProcStat.parse("cpu0 1 2 3 4\n"));
        assertTrue(e.getMessage().contains("no aggregate 'cpu' line"), e.getMessage());
    }

    /**
     * Bounded: about 7 s, the hog stops by itself; only the flags are asserted, never a duration. The step before
     * the hog is recorded and converted but not judged: whether it is saturated depends on what else the machine
     * runs, and no test may depend on an idle machine (HostSamplesTest judges unsaturated steps from made samples).
     */
    @Test
    void aStepUnderACpuHogIsSaturated(@TempDir Path run) throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc/stat: host sampling is Linux only");
        int cores = Runtime.getRuntime().availableProcessors();
        long idleStart;
        long idleEnd;
        long hogStart;
        long hogEnd;
        try (HostRecorder recorder = HostRecorder.start(run, Duration.ofMillis(250)).orElseThrow()) {
            Thread.sleep(600);
            idleStart = System.currentTimeMillis();
            Thread.sleep(2500);
            idleEnd = System.currentTimeMillis();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> hogs = new ArrayList<>();
            long[] spins = new long[cores];
            for (int i = 0; i < cores; i++) {
                int n = i;
                Thread t = new Thread(() -> {
                    while (!stop.get()) {
                        spins[n]++;
                    }
                }, "cpu-hog-" + i);
                t.setDaemon(true);
                t.start();
                hogs.add(t);
            }
            try {
                Thread.sleep(500);
                hogStart = System.currentTimeMillis();
                Thread.sleep(2500);
                hogEnd = System.currentTimeMillis();
            } finally {
                stop.set(true);
                for (Thread t : hogs) {
                    t.join(5000);
                }
            }
            Thread.sleep(600);
            recorder.sampleNow();
        }
        RunResults results = convert(run, cores, idleStart, idleEnd, hogStart, hogEnd);
        StepHost idle = results.step(1).orElseThrow().host();
        StepHost hog = results.step(2).orElseThrow().host();
        assertNotNull(idle, results.notes().toString());
        assertNotNull(hog, results.notes().toString());
        assertTrue(hog.busyPercent() > 90, "hog step only " + hog.busyPercent() + "% busy");
        assertTrue(hog.saturated());
        assertTrue(hog.runQueue() >= cores - 0.5, "run queue under the hog: " + hog.runQueue());
        assertTrue(results.notes().stream().anyMatch(n -> n.startsWith("step 2 clients: saturated:")), results.notes().toString());
    }

    /** A run of two steps (1 client idle, 2 clients under the hog) with one sample in each, converted. */
    private static RunResults convert(Path run, int cores, long idleStart, long idleEnd, long hogStart, long hogEnd)
            throws IOException {
        RunInputs inputs = RunInputs.starting("host-test", "sni", TargetKind.LOCAL, List.of(1, 2), 2, 0, 0, 10,
                new KitVersions("0.1.0-SNAPSHOT", "17", "5.6.3"), new Machine(cores, 8L << 30, "Linux test"),
                Instant.ofEpochMilli(idleStart)).withMeasurement(MeasurementInfo.DEFAULT)
                .withStep(new StepWindow(1, idleStart, idleEnd)).withStep(new StepWindow(2, hogStart, hogEnd)).passed();
        ResultsJson.writeRunInputs(run.resolve(ResultsSchema.RUN_FILE), inputs);
        List<String> jtl = new ArrayList<>(List.of("timeStamp,elapsed,label,responseCode,success,step"));
        jtl.add((idleStart + 100) + ",5,login,200,true,1");
        jtl.add((hogStart + 100) + ",5,login,200,true,2");
        Files.write(run.resolve(ResultsSchema.JTL_FILE), jtl);
        return ResultsConverter.compute(run);
    }
}
