package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.run.CaseRun;
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.io.ResultsJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run lifecycle with a real deployment; the load generator is emulated by real requests written as JTL rows. */
class CaseRunIT {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"step\"\n";
    private static final KitVersions VERSIONS = new KitVersions("test", System.getProperty("java.version"), "none");

    @TempDir
    Path results;

    private RunSettings config() {
        return new RunSettings(List.of(EgressCase.SIDECAR), List.of(1), 4, 0, 0, 200, 2, 0, results, new PlanOptions(DataPlane.NETTY, true, 1, false));
    }

    private static LocalTarget target() {
        return new LocalTarget(new LocalTargetSettings(ComponentJars.inBuildTree(ROOT), Duration.ofSeconds(90), 200, 2, LocalDataPlane.netty(new PlanOptions(DataPlane.NETTY, true, 1, false))));
    }

    /** Sends profile reads for {@code seconds}, appending one JTL row per request. */
    private static void load(CaseRun run, int seconds) throws Exception {
        AcmeairSession s = new AcmeairSession(run.endpoints());
        s.post("auth", "/auth/login", "login=uid3@email.com&password=password");
        StringBuilder rows = new StringBuilder(HEADER);
        long end = System.currentTimeMillis() + seconds * 1000L;
        while (System.currentTimeMillis() < end) {
            long t0 = System.currentTimeMillis();
            int code;
            try {
                HttpResponse<String> r = s.get("customer", "/customer/byid/uid3@email.com");
                code = r.statusCode();
            } catch (java.io.IOException e) {
                code = 599;
            }
            long el = Math.max(1, System.currentTimeMillis() - t0);
            rows.append(t0).append(',').append(el).append(",viewProfile,").append(code).append(",x,t 1-1,text,")
                    .append(code == 200).append(",,300,100,1,1,http://x,").append(el).append(",0,0,1\n");
        }
        Files.writeString(run.jtl(), rows, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Test
    @DisplayName("a run whose component dies midway is kept and marked failed, and earlier runs stay intact")
    void failedRunKeepsEarlierResults() throws Exception {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Path firstDir;
        try (CaseRun first = CaseRun.start(config(), EgressCase.SIDECAR, target(), VERSIONS, out)) {
            load(first, 3);
            RunResults r = first.finish(Optional.empty());
            assertEquals(RunStatus.PASSED, r.inputs().status(), String.valueOf(r.inputs().failureReason()));
            assertTrue(r.steps().get(0).transactions() > 0);
            assertTrue(Files.isRegularFile(first.runDir().resolve("hops.json")));
            assertTrue(Files.isRegularFile(first.runDir().resolve("smp.json")), "the SMP export next to results.json");
            firstDir = first.runDir();
        }
        byte[] firstResults = Files.readAllBytes(firstDir.resolve("results.json"));
        byte[] firstInputs = Files.readAllBytes(firstDir.resolve("run.json"));

        Path secondDir;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        PrintStream watched = new PrintStream(said, true, StandardCharsets.UTF_8);
        try (CaseRun second = CaseRun.start(config(), EgressCase.SIDECAR, target(), VERSIONS, watched)) {
            secondDir = second.runDir();
            java.util.concurrent.CountDownLatch loadStopped = new java.util.concurrent.CountDownLatch(1);
            second.stopLoadWith(loadStopped::countDown);
            long pid = second.deployment().sampleResources().stream()
                    .filter(x -> x.component().name().equals("sidecar-customer")).findFirst().orElseThrow().pid();
            ProcessHandle sidecar = ProcessHandle.of(pid).orElseThrow();
            sidecar.destroyForcibly();
            sidecar.onExit().get();
            assertTrue(loadStopped.await(60, java.util.concurrent.TimeUnit.SECONDS), "the load is stopped when a component dies");
            load(second, 2);
            String text = said.toString(StandardCharsets.UTF_8);
            assertEquals(1, text.split("COMPONENT DIED", -1).length - 1, "said once:\n" + text);
            assertTrue(text.contains("COMPONENT DIED: sidecar-customer (pid " + pid + ") was killed by SIGKILL (exit status 137"), text);
            RunResults r = second.finish(Optional.empty());
            assertEquals(RunStatus.FAILED, r.inputs().status());
            assertTrue(r.inputs().failureReason().startsWith("component died during the run: sidecar-customer (pid " + pid + ")"),
                    r.inputs().failureReason());
        }
        assertTrue(!secondDir.equals(firstDir));
        assertEquals(RunStatus.FAILED, ResultsJson.readRunInputs(secondDir.resolve("run.json")).status());
        assertArrayEquals(firstResults, Files.readAllBytes(firstDir.resolve("results.json")), "earlier results untouched");
        assertArrayEquals(firstInputs, Files.readAllBytes(firstDir.resolve("run.json")), "earlier run.json untouched");
    }
}
