package dev.meshbench.orchestrator.kubernetes.prometheus;

import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.T_MS;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.containerCpu;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.series;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.orchestrator.run.ResourceRecorder;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.results.ComponentCpu;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.convert.ResultsConverter;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The samples made of recorded Prometheus answers, written as {@code cpu-samples.csv} and converted by the results
 * converter: the CPU it attributes to a step's window equals what is worked out by hand from the fixture.
 */
@DisplayName("Prometheus CPU in results: the converter's CPU per window from recorded answers")
class PrometheusCpuResultsTest {
    static final int TRANSACTIONS = 10;

    @Test
    @DisplayName("across a restart (new id) and a counter reset (same id), only what was sampled counts")
    void restartAndReset(@TempDir Path run) throws IOException {
        // Step from 10 s to 105 s, 5 s warm-up: the measured window is [15 s, 105 s), 90 s.
        StepResult step = convert(run, "query_range-restart.json", 10_000, 105_000, 5);
        assertEquals(List.of("1700000000000,egress-gateway,mesh,6477454414356267059,30000,-1",
                        "1700000000000,sidecar-booking,mesh,3251821052952559916,50000,-1"),
                Files.readAllLines(run.resolve(ResourceRecorder.FILE_NAME)).subList(1, 3));

        // booking's sidecar, first container: 0..50 s, 50000 ms + 500 ms per 10 s.
        //   C(50) - C(15) = 52500 - (50500 + 500 * 0.5) = 52500 - 50750 = 1750
        // its restart (new id): 70..120 s, C(70) = 800; C(105) = 2000 + (2400 - 2000) * 0.5 = 2200.
        //   C(105) - C(70) = 1400
        // 1750 + 1400 = 3150 ms; seen 35 + 35 of 90 s. 50..70 s, between the two, is not counted.
        ComponentCpu sidecar = component(step, "sidecar-booking");
        assertEquals(3150.0, sidecar.cpuMillis());
        assertEquals(2, sidecar.processes());
        assertEquals(0.778, sidecar.coverage());

        // The gateway's counter goes from 31500 ms at 50 s down to 200 ms at 60 s (same id, same pid).
        //   before: C(50) - C(15) = 31500 - (30300 + 300 * 0.5) = 1050
        //   after:  C(105) - C(60) = (1400 + 300 * 0.5) - 200 = 1350
        // 1050 + 1350 = 2400 ms; seen 35 + 45 of 90 s. The 200 ms used between 50 and 60 s are not counted.
        ComponentCpu gateway = component(step, "egress-gateway");
        assertEquals(2400.0, gateway.cpuMillis());
        assertEquals(2, gateway.processes(), "the converter split the pid where its counter went down");
        assertEquals(0.889, gateway.coverage());

        assertEquals(5550.0, step.cpu().mesh().cpuMillis());
        assertEquals(555.0, step.cpu().mesh().cpuMsPerTransaction());
        assertEquals(0.0617, step.cpu().mesh().cores(), "5550 ms in 90 s, to 4 places");
    }

    @Test
    @DisplayName("adds up two replicas and counts a container scraped twice once")
    void replicas(@TempDir Path run) throws IOException {
        // Step from 0 to 55 s, 5 s warm-up: the measured window is [5 s, 55 s), 50 s.
        StepResult step = convert(run, "query_range-replicas.json", 0, 55_000, 5);
        // First replica (the kubelet job's scrape kept, 15010 ms + 250 per 10 s; the other scrape has the same slope):
        //   C(55) - C(5) = (16260 + 125) - (15010 + 125) = 1250
        // second replica, 3000 ms + 500 per 10 s: C(55) - C(5) = (5500 + 250) - (3000 + 250) = 2500
        ComponentCpu gateway = component(step, "egress-gateway");
        assertEquals(3750.0, gateway.cpuMillis());
        assertEquals(2, gateway.processes(), "one per replica; interleaving the two scrapes would make more");
        assertEquals(1.0, gateway.coverage());
        assertEquals(0.075, gateway.cores());
    }

    @Test
    @DisplayName("attributes each container to its component and role, leaving out what is not placed")
    void roles(@TempDir Path run) throws IOException {
        // Window [5 s, 60 s). booking: 127000 - (120500 + 1000 * 0.5) = 6000; its sidecar: 42000 - (40000 + 250 * 0.5)
        // = 1875; the gateway: 16750 - (15000 + 125 * 0.5) = 1687.5. The pod's cgroup, the pause container and
        // prometheus would add 7300, 0 and 2300 if they were counted.
        StepResult step = convert(run, "query_range-cpu.json", 0, 60_000, 5);
        assertEquals(List.of("egress-gateway", "sidecar-booking", "booking"),
                step.cpu().components().stream().map(ComponentCpu::component).toList(), "mesh first, then app");
        assertEquals(6000.0, step.cpu().app().cpuMillis());
        assertEquals(1875.0, component(step, "sidecar-booking").cpuMillis());
        assertEquals(3562.5, step.cpu().mesh().cpuMillis());
    }

    /** Writes a run folder with the fixture's samples and one step of 10 clients, converts it, returns the step. */
    static StepResult convert(Path run, String fixture, long startMs, long endMs, int warmupSeconds) throws IOException {
        List<ResourceSample> samples = containerCpu().samples(series(fixture));
        List<String> csv = new ArrayList<>(List.of(ResourceRecorder.HEADER));
        samples.forEach(s -> csv.add(ResourceRecorder.format(s)));
        Files.write(run.resolve(ResourceRecorder.FILE_NAME), csv);

        int stepSeconds = (int) ((endMs - startMs) / 1000);
        RunInputs inputs = RunInputs.starting("prometheus-" + fixture.replace(".json", ""), "sni", TargetKind.KUBERNETES,
                List.of(10), stepSeconds, warmupSeconds, 0, 10, new KitVersions("0.1.0-SNAPSHOT", "17.0.15", "5.6.3"),
                new Machine(2, 8L << 30, "Linux test amd64"), Instant.ofEpochMilli(T_MS))
                .withStep(new StepWindow(10, T_MS + startMs, T_MS + endMs)).passed();
        ResultsJson.writeRunInputs(run.resolve(ResultsSchema.RUN_FILE), inputs);

        List<String> jtl = new ArrayList<>(List.of("timeStamp,elapsed,label,responseCode,success,step"));
        long windowStart = T_MS + startMs + warmupSeconds * 1000L;
        for (int i = 0; i < TRANSACTIONS; i++) {
            jtl.add((windowStart + i * 1000L) + ",12,login,200,true,10");
        }
        Files.write(run.resolve(ResultsSchema.JTL_FILE), jtl);

        RunResults results = ResultsConverter.compute(run);
        StepResult step = results.step(10).orElseThrow();
        assertEquals(TRANSACTIONS, step.transactions(), results.notes().toString());
        return step;
    }

    static ComponentCpu component(StepResult step, String name) {
        return step.cpu().components().stream().filter(c -> c.component().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no CPU of " + name + " in " + step.cpu().components()));
    }

}
