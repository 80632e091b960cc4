package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepDrift;
import dev.meshbench.results.StepHost;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.io.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostSamplesTest {
    private static final long T = 1_700_000_000_000L;

    @Test
    void busyShareRunQueueAndLoadGeneratorPerStepWithTheRunsThreshold(@TempDir Path run) throws Exception {
        // Step 1 window [T, T+10 s), step 2 window [T+10 s, T+20 s) (no warm-up). Host samples at 0, 10, 20 s:
        //   busy ticks   0 -> 1000 -> 2900;  total ticks 0 -> 2000 -> 4000
        //   runnable sum 0 -> 10 -> 60 over samples 0 -> 10 -> 20
        //   loadgen cpu  0 -> 2000 -> 6000 ms
        // step 1: busy 1000/2000 = 50.0%, run queue 10/10 = 1.0, JMeter 2000 ms / 10 s = 20.0% of a core
        // step 2: busy 1900/2000 = 95.0% > 90 -> saturated; run queue 50/10 = 5.0; JMeter 4000/10 s = 40.0%
        Files.write(run.resolve(ResultsSchema.HOST_FILE), List.of("epochMs,component,counter,value",
                T + ",host,cpuBusyTicks,0", T + ",host,cpuTotalTicks,0", T + ",host,runnableSum,0", T + ",host,samples,0",
                T + ",loadgen,cpuMs,0",
                (T + 10_000) + ",host,cpuBusyTicks,1000", (T + 10_000) + ",host,cpuTotalTicks,2000",
                (T + 10_000) + ",host,runnableSum,10", (T + 10_000) + ",host,samples,10", (T + 10_000) + ",loadgen,cpuMs,2000",
                (T + 20_000) + ",host,cpuBusyTicks,2900", (T + 20_000) + ",host,cpuTotalTicks,4000",
                (T + 20_000) + ",host,runnableSum,60", (T + 20_000) + ",host,samples,20", (T + 20_000) + ",loadgen,cpuMs,6000"));
        RunResults r = convert(run, MeasurementInfo.DEFAULT);
        StepHost one = r.step(1).orElseThrow().host();
        StepHost two = r.step(2).orElseThrow().host();
        assertEquals(new StepHost(50.0, 1.0, 2, 20.0, false), one);
        assertEquals(new StepHost(95.0, 5.0, 2, 40.0, true), two);
        assertTrue(r.notes().contains("step 2 clients: " + StepHost.SATURATED_MEANING + " (host 95.0% busy, threshold 90.0%)"),
                r.notes().toString());

        // The same samples judged by a run that set the threshold at 96%: nothing saturated.
        RunResults lenient = convert(run, new MeasurementInfo(96, null));
        assertFalse(lenient.step(2).orElseThrow().saturated());
    }

    @Test
    void aStepWhoseThroughputMovesBetweenItsThirdsIsNotSteady(@TempDir Path run) throws Exception {
        // Step 1 window [T, T+9 s), thirds of 3 s: 3, 3, 3 samples -> 1.0, 1.0 tx/s, 0% -> steady.
        // Step 2 window [T+9 s, T+18 s): 3, 3, 6 samples -> 1.0 then 2.0 tx/s, +100% > 10% -> not steady.
        RunInputs inputs = RunInputs.starting("drift", "sni", TargetKind.LOCAL, List.of(1, 2), 9, 0, 0, 10,
                new KitVersions("0.1.0-SNAPSHOT", "17", "5.6.3"), new Machine(2, 8L << 30, "Linux test"),
                Instant.ofEpochMilli(T)).withMeasurement(MeasurementInfo.DEFAULT)
                .withStep(new StepWindow(1, T, T + 9_000)).withStep(new StepWindow(2, T + 9_000, T + 18_000)).passed();
        ResultsJson.writeRunInputs(run.resolve(ResultsSchema.RUN_FILE), inputs);
        List<String> jtl = new java.util.ArrayList<>(List.of("timeStamp,elapsed,label,responseCode,success,step"));
        for (long t = 500; t < 9_000; t += 1_000) {
            jtl.add((T + t) + ",5,login,200,true,1");
        }
        for (long t = 500; t < 6_000; t += 1_000) {
            jtl.add((T + 9_000 + t) + ",5,login,200,true,2");
        }
        for (long t = 6_250; t < 9_000; t += 500) {
            jtl.add((T + 9_000 + t) + ",5,login,200,true,2");
        }
        Files.write(run.resolve(ResultsSchema.JTL_FILE), jtl);
        RunResults r = ResultsConverter.compute(run);
        assertEquals(new StepDrift(1.0, 1.0, 0.0, true), r.step(1).orElseThrow().drift());
        assertEquals(new StepDrift(1.0, 2.0, 100.0, false), r.step(2).orElseThrow().drift());
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("step 2 clients: not steady:")), r.notes().toString());
    }

    @Test
    void noHostSamplesNoHostFigures(@TempDir Path run) throws Exception {
        assertNull(convert(run, MeasurementInfo.DEFAULT).step(1).orElseThrow().host());
    }

    private static RunResults convert(Path run, MeasurementInfo m) throws Exception {
        RunInputs inputs = RunInputs.starting("host", "sni", TargetKind.LOCAL, List.of(1, 2), 10, 0, 0, 10,
                new KitVersions("0.1.0-SNAPSHOT", "17", "5.6.3"), new Machine(2, 8L << 30, "Linux test"),
                Instant.ofEpochMilli(T)).withMeasurement(m)
                .withStep(new StepWindow(1, T, T + 10_000)).withStep(new StepWindow(2, T + 10_000, T + 20_000)).passed();
        ResultsJson.writeRunInputs(run.resolve(ResultsSchema.RUN_FILE), inputs);
        Files.write(run.resolve(ResultsSchema.JTL_FILE), List.of("timeStamp,elapsed,label,responseCode,success,step",
                (T + 100) + ",5,login,200,true,1", (T + 10_100) + ",5,login,200,true,2"));
        return ResultsConverter.compute(run);
    }
}
