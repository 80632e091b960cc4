package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.ConversionMethod;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.Machine;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepCpu;
import dev.meshbench.results.StepDrift;
import dev.meshbench.results.StepHost;
import dev.meshbench.results.StepRate;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWork;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.WorkloadInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The step table printed after each run: real figures in fixed columns, {@code -} for what was not measured, flags. */
class StepTableTest {
    private static final String HEADER = "[sni] clients      tx/s       tx  errors   avg ms   p90 ms   p99 ms   svc ms   mesh ms/tx   path ms/tx    app ms/tx"
            + "  mongo/tx  calls/tx  mongoB/tx  host %   runq jmeter%";

    private Locale before;

    @BeforeEach
    void decimalCommaLocale() {
        // a table that used the default locale would print 101,0 here
        before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("ru-RU"));
    }

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(before);
    }

    private static RunInputs inputs(List<Integer> clients) {
        return RunInputs.starting("20261122-060649-sni", "sni", TargetKind.LOCAL, clients, 20, 5, 0, 1000,
                new KitVersions("0.1.0", "17.0.15", "5.6.3"), new Machine(2, 1L << 34, "Linux"), Instant.parse("2026-11-22T06:06:49Z"));
    }

    private static RunResults results(RunInputs inputs, List<StepResult> steps, List<String> notes) {
        return new RunResults(ResultsSchema.VERSION, inputs, ConversionMethod.current(true), steps, notes);
    }

    private static StepResult step(int clients, long transactions, long errors, double tps, LatencyStats lat, StepCpu cpu,
            StepWork work, StepHost host, StepDrift drift, StepRate rate) {
        return new StepResult(clients, 1_000, 16_000, 15, transactions + errors, 3, 0, transactions, errors, tps, lat, cpu, work,
                host, drift, rate);
    }

    private static StepCpu cpu(double meshMsPerTx, double appMsPerTx) {
        return new StepCpu(new RoleCpu(100, 0.1, meshMsPerTx, 6), new RoleCpu(200, 0.2, appMsPerTx, 4), null, null, List.of());
    }

    private static List<String> print(RunResults r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StepTable.print(r, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return List.of(bytes.toString(StandardCharsets.UTF_8).split("\n"));
    }

    @Test
    @DisplayName("real numbers: every column in its place, rounded as documented, with a dot whatever the locale")
    void realNumbers() {
        RunResults r = results(inputs(List.of(1, 20)), List.of(
                step(1, 1511, 0, 101.04, new LatencyStats(1511, 3, 9.44, 8, 21, 30, 47, 80), cpu(4.4931, 7.04),
                        new StepWork(0.7234, 1.5, 414.6), new StepHost(85.63, 3.25, 2, 26.4, false), null, null),
                step(20, 10959, 12, 726.25, new LatencyStats(10959, 4, 27.26, 25, 55, 70, 100, 400), cpu(0.579, 1.5324),
                        new StepWork(0.75, 1.49, 400.4), new StepHost(99.2, 34.5, 2, 26.0, true), null, null)),
                List.of());
        assertEquals(List.of(HEADER,
                "[sni] 1           101.0     1511       0      9.4       21       47        -        4.493            -        7.040     0.723     1.500        415    85.6    3.3      26",
                "[sni] 20          726.3    10959      12     27.3       55      100        -        0.579            -        1.532     0.750     1.490        400    99.2   34.5      26  SATURATED"),
                print(r));
    }
    @Test
    @DisplayName("no steps (a run that failed before its load): the header alone, and the notes")
    void emptyInput() {
        assertEquals(List.of(HEADER, "[sni] note: no samples in samples.jtl"),
                print(results(inputs(List.of(1, 5)), List.of(), List.of("no samples in samples.jtl"))));
    }

    @Test
    @DisplayName("the errors column counts failed samples; a step with only errors has no latency, printed as -")
    void errorsColumn() {
        RunResults r = results(inputs(List.of(1, 5)), List.of(
                step(1, 90, 10, 6.0, new LatencyStats(90, 1, 2.0, 2, 3, 3, 4, 5), null, null, null, null, null),
                step(5, 0, 250, 0, null, null, null, null, null, null)), List.of());
        List<String> lines = print(r);
        assertEquals("[sni] 1             6.0       90      10      2.0        3        4        -            -            -            -         -         -          -       -      -       -",
                lines.get(1));
        assertEquals("[sni] 5             0.0        0     250        -        -        -        -            -            -            -         -         -          -       -      -       -",
                lines.get(2));
        assertEquals(3, lines.size());
    }

    @Test
    @DisplayName("flags: NOT STEADY after a drift, the rate held or not, CPU per transaction missing when there was none")
    void flags() {
        RunResults r = results(inputs(List.of(8, 16)), List.of(
                step(8, 4470, 0, 298.1, new LatencyStats(4470, 1, 5.0, 4, 8, 9, 12, 30),
                        new StepCpu(new RoleCpu(100, 0.1, null, 6), null, null, null, List.of()), null, null,
                        new StepDrift(250, 320, 28.0, false), new StepRate(300, 298.1, true)),
                step(16, 2703, 0, 180.2, new LatencyStats(2703, 1, 50.0, 40, 80, 90, 120, 300), null, null, null, null,
                        new StepRate(300, 180.2, false))), List.of());
        List<String> lines = print(r);
        assertEquals("[sni] 8           298.1     4470       0      5.0        8       12        -            -            -            -         -         -          -       -      -       -"
                + "  NOT STEADY  rate 298.1/300 req/s", lines.get(1));
        assertEquals("[sni] 16          180.2     2703       0     50.0       80      120        -            -            -            -         -         -          -       -      -       -"
                + "  RATE NOT HELD 180.2/300 req/s", lines.get(2));
    }

    @Test
    @DisplayName("JIT BUSY names the JVM whose JIT worked above the warm-up's quiet level (300 ms per 10 s) in the 15-s window")
    void jitBusy() {
        RunResults r = results(inputs(List.of(8, 16)), List.of(
                // auth 1130 ms in 15 s = 753 ms per 10 s: busy; customer 20 ms
                step(8, 4470, 0, 298.1, new LatencyStats(4470, 1, 5.0, 4, 8, 9, 12, 30), null,
                        new StepWork(0.7, 1.5, 400.0, 0.3, java.util.Map.of("auth", 1130.0, "customer", 20.0)), null, null, null),
                // auth 400 ms in 15 s = 267 ms per 10 s: quiet
                step(16, 4470, 0, 298.1, new LatencyStats(4470, 1, 5.0, 4, 8, 9, 12, 30), null,
                        new StepWork(0.7, 1.5, 400.0, 0.3, java.util.Map.of("auth", 400.0)), null, null, null)), List.of());
        List<String> lines = print(r);
        assertTrue(lines.get(1).endsWith("  JIT BUSY (auth 1130 ms)"), lines.get(1));
        assertFalse(lines.get(2).contains("JIT"), lines.get(2));
    }

    @Test
    @DisplayName("a step whose recorded window ran 128 s of a planned 20 s is flagged OVERRAN; one 2 s over its plan is not")
    void overran() {
        RunInputs in = inputs(List.of(1, 5000))
                .withStep(dev.meshbench.results.StepWindow.planned(1).started(1_000).ended(23_000))
                .withStep(dev.meshbench.results.StepWindow.planned(5000).started(23_000).ended(151_000));
        RunResults r = results(in, List.of(
                step(1, 90, 0, 6.0, new LatencyStats(90, 1, 2.0, 2, 3, 3, 4, 5), null, null, null, null, null),
                step(5000, 900, 0, 7.0, new LatencyStats(900, 1, 2.0, 2, 3, 3, 4, 5), null, null, null, null, null)), List.of());
        List<String> lines = print(r);
        assertEquals("[sni] 1             6.0       90       0      2.0        3        4        -            -            -            -         -         -          -       -      -       -",
                lines.get(1));
        assertEquals("[sni] 5000          7.0      900       0      2.0        3        4        -            -            -            -         -         -          -       -      -       -"
                + "  OVERRAN 128s/20s", lines.get(2));
    }

    @Test
    @DisplayName("the data plane (with how the load came in), workload and a deliberate slowdown come first, before the header")
    void preamble() {
        RunInputs in = inputs(List.of(1)).withDataPlane(new DataPlaneInfo("netty", Map.of("sidecar", "meshbench-netty 0.1.0"), 2, false, true, "JDK"))
                .withWorkload(new WorkloadInfo("original", true, false, Map.of("flight", 200)));
        List<String> lines = print(results(in, List.of(), List.of()));
        assertEquals(List.of("[sni] data plane: netty (JDK TLS, no sidecar mTLS), workers 2, load through the ingress gateway, "
                + "sidecar=meshbench-netty 0.1.0",
                "[sni] workload: original mix, flight cache on, rewards sync",
                "[sni] DELIBERATELY SLOWED (meshbench.slowService): flight +200 ms per API request", HEADER), lines);
    }

    @Test
    @DisplayName("a run whose load went straight to the sidecars says so, and its data plane is labelled no ingress")
    void preambleWithoutIngress() {
        RunInputs in = inputs(List.of(1)).withDataPlane(new DataPlaneInfo("envoy", Map.of("sidecar", "envoy 1.40.0"), 2, true, false,
                "BoringSSL"));
        assertEquals("[sni] data plane: envoy (no ingress), workers 2, load straight to the sidecars, sidecar=envoy 1.40.0",
                print(results(in, List.of(), List.of())).get(0));
    }
}
