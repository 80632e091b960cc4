package dev.meshbench.orchestrator.run;

import dev.meshbench.model.settings.Parsers;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWindow;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The per-step summary printed at the end of a case, for people reading the build log. {@code avg ms}, {@code p90 ms},
 * {@code p99 ms}: JMeter's, whole milliseconds; {@code svc ms}: the mean time in the service a request entered, by its
 * own timer (sub-millisecond); {@code mesh ms/tx}: all mesh components; {@code path ms/tx}: the MongoDB path's share of
 * it (egress gateway, SNI proxy, the sidecars' MongoDB share), where the cases differ.
 */
public final class StepTable {
    private StepTable() {
    }

    public static void print(RunResults results, PrintStream out) {
        String caseId = results.inputs().caseId();
        DataPlaneInfo plane = results.inputs().dataPlane();
        if (plane != null) {
            out.printf(Locale.ROOT, "[%s] data plane: %s, workers %s, load %s, %s%n", caseId, plane.label(),
                    plane.workers() == null ? "not recorded" : plane.workers(), plane.entry(), plane.versionsText());
        }
        if (results.inputs().workload() != null) {
            var w = results.inputs().workload();
            out.printf(Locale.ROOT, "[%s] workload: %s mix, flight cache %s, rewards %s%n", caseId, w.mix(),
                    w.flightCache() ? "on" : "off", w.rewardsAsync() ? "async" : "sync");
            if (!w.addedLatencyMs().isEmpty()) {
                out.printf(Locale.ROOT, "[%s] DELIBERATELY SLOWED (meshbench.slowService): %s per API request%n", caseId, w.slowdown());
            }
        }
        out.printf(Locale.ROOT, "[%s] %-7s %9s %8s %7s %8s %8s %8s %8s %12s %12s %12s %9s %9s %10s %7s %6s %7s%n", caseId, "clients",
                "tx/s", "tx", "errors", "avg ms", "p90 ms", "p99 ms", "svc ms", "mesh ms/tx", "path ms/tx", "app ms/tx", "mongo/tx",
                "calls/tx", "mongoB/tx", "host %", "runq", "jmeter%");
        for (StepResult s : results.steps()) {
            var lat = s.latencyMs();
            RoleCpu mesh = s.cpu() == null ? null : s.cpu().mesh();
            RoleCpu app = s.cpu() == null ? null : s.cpu().app();
            var w = s.work();
            var h = s.host();
            var path = s.cpu() == null || s.cpu().attribution() == null ? null : s.cpu().attribution().mongoPath();
            out.printf(Locale.ROOT, "[%s] %-7d %9.1f %8d %7d %8s %8s %8s %8s %12s %12s %12s %9s %9s %10s %7s %6s %7s%s%n", caseId,
                    s.clients(), s.throughputPerSecond(), s.transactions(), s.errors(),
                    lat == null ? "-" : String.format(Locale.ROOT, "%.1f", lat.avg()),
                    lat == null ? "-" : Long.toString(lat.p90()), lat == null ? "-" : Long.toString(lat.p99()),
                    w == null ? "-" : fixed(w.serviceMs(), 3), perTx(mesh),
                    path == null || path.cpuMsPerTransaction() == null ? "-" : String.format(Locale.ROOT, "%.3f", path.cpuMsPerTransaction()),
                    perTx(app), w == null ? "-" : fixed(w.mongoCommandsPerTransaction(), 3),
                    w == null ? "-" : fixed(w.interServiceCallsPerTransaction(), 3),
                    w == null ? "-" : fixed(w.mongoPathBytesPerTransaction(), 0),
                    h == null ? "-" : fixed(h.busyPercent(), 1), h == null ? "-" : fixed(h.runQueue(), 1),
                    h == null ? "-" : fixed(h.loadGeneratorCpuPercent(), 0), (s.saturated() ? "  SATURATED" : "") + (s.notSteady() ? "  NOT STEADY" : "") + rate(s)
                            + overran(results, s.clients()) + jit(results, s));
        }

        results.notes().forEach(n -> out.printf("[%s] note: %s%n", caseId, n));
    }

    /** E.g. {@code  OVERRAN 128s/10s} when the step ran clearly longer than planned ({@link StepWindow#overran}); else empty. */
    private static String overran(RunResults results, int clients) {
        var in = results.inputs();
        return in.steps().stream().filter(w -> w.clients() == clients && w.overran(in.stepSeconds())).findFirst()
                .map(w -> String.format(Locale.ROOT, "  OVERRAN %ds/%ds", Math.round(w.lengthMs() / 1000.0), in.stepSeconds()))
                .orElse("");
    }

    /**
     * E.g. {@code  JIT BUSY (auth 1130 ms)} when a JVM's JIT spent more in the step's measured window than the warm-up
     * calls quiet ({@link StepResult#busiestJit}): that JVM was still compiling while the step measured; else empty.
     */
    static String jit(RunResults results, StepResult s) {
        return s.busiestJit(results.inputs().measurementOrDefault())
                .map(e -> String.format(Locale.ROOT, "  JIT BUSY (%s %.0f ms)", e.getKey(), e.getValue())).orElse("");
    }

    /** E.g. {@code  rate 298.1/300} or {@code  RATE NOT HELD 180.2/300}; empty for a closed-loop step. */
    private static String rate(StepResult s) {
        if (s.rate() == null) {
            return "";
        }
        return String.format(Locale.ROOT, "  %s %.1f/%s req/s", s.rateNotHeld() ? "RATE NOT HELD" : "rate",
                s.rate().achievedPerSecond(), Parsers.plain(s.rate().targetPerSecond()));
    }

    private static String fixed(Double v, int decimals) {
        return v == null ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String perTx(RoleCpu cpu) {
        return cpu == null || cpu.cpuMsPerTransaction() == null ? "-"
                : String.format(Locale.ROOT, "%.3f", cpu.cpuMsPerTransaction());
    }
}
