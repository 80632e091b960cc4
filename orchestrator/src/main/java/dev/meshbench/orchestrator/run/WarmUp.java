package dev.meshbench.orchestrator.run;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.results.WarmupInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Supplier;

/**
 * Runs the warm-up before a case's measured ramp: the plan's warm-up thread group, in the same JMeter as the ramp (so
 * the ramp's first step does not start with a cold JMeter), at the ramp's highest step (at its rate, if any). Its
 * samples carry step {@link #STEP} in the run's JTL and are only watched; the warm-up ends when this says so (the kit
 * creates the file the plan watches, {@link #WARM_FILE}), and the ramp follows at once.
 *
 * <p>{@code stable}: the system is warm when, at the end of a window, both hold:
 * <ul>
 * <li>the JIT is quiet: no JVM of the run (services, Netty proxies, MongoDB, JMeter) spent more than
 * {@link Catalogue#WARMUP_JIT_QUIET_MS} of CPU in its JIT compiler threads in the window (where the platform
 * shows threads; else HotSpot's own compilation time);</li>
 * <li>nothing trends: over the last {@link Catalogue#WARMUP_TREND_WINDOWS} windows, neither throughput nor CPU per
 * request moved by more than the tolerance (least-squares trend across the windows, percent of their mean). Two
 * windows that happen to agree in the middle of a climb do not pass: the climb is a trend.</li>
 * </ul>
 * The cap ends it anyway, recorded as not stable with what was still moving. {@code fixed}: a set time.
 */
public final class WarmUp {
    /** The step label of the warm-up's samples (the plan's warm-up thread group). */
    public static final int STEP = 0;
    /** The file whose creation ends the plan's warm-up thread group, in the run folder. */
    public static final String WARM_FILE = "warm";

    private WarmUp() {
    }

    /** What the warm-up watches besides the samples: read at each window's end, cumulative. */
    public interface Signals {
        /** The JIT's work so far in every JVM of the run, ms of compiler-thread CPU, by name; empty where it cannot be seen. */
        Map<String, Double> jitMillis();

        /** CPU used so far by every component, ms; empty where it cannot be seen. */
        OptionalDouble cpuMillis();

        /** Signals that see nothing: the warm-up then judges throughput alone. */
        Signals NONE = new Signals() {
            @Override
            public Map<String, Double> jitMillis() {
                return Map.of();
            }

            @Override
            public OptionalDouble cpuMillis() {
                return OptionalDouble.empty();
            }
        };
    }

    /** One window as the rule sees it. */
    public record Window(double requestsPerSecond, Double cpuMsPerRequest, Double compileMs, String compiling) {
    }

    /** The rule's answer after a window: warm or not, and why, in words. */
    public record Verdict(boolean warm, String why) {
    }

    /**
     * The least-squares trend of {@code values} across them, percent of their mean: the fitted line's change from
     * the first to the last value. {@code NaN} with fewer than two values or a mean of 0.
     */
    static double trendPercent(List<Double> values) {
        int n = values.size();
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        if (n < 2 || !(mean > 0)) {
            return Double.NaN;
        }
        double xMean = (n - 1) / 2.0;
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < n; i++) {
            sxy += (i - xMean) * (values.get(i) - mean);
            sxx += (i - xMean) * (i - xMean);
        }
        return sxy / sxx * (n - 1) / mean * 100;
    }

    /**
     * Whether the windows so far say the system is warm: the JIT quiet in the last window (where seen) and no trend
     * beyond {@code tolerancePercent} over the last {@code trendWindows} windows in throughput and (where seen) CPU
     * per request.
     */
    public static Verdict judge(List<Window> windows, int trendWindows, double tolerancePercent, double jitQuietMs) {
        if (windows.size() < trendWindows) {
            return new Verdict(false, "fewer than " + trendWindows + " windows yet");
        }
        List<Window> last = windows.subList(windows.size() - trendWindows, windows.size());
        Window now = last.get(last.size() - 1);
        List<String> moving = new ArrayList<>();
        List<String> still = new ArrayList<>();
        if (now.compileMs() != null) {
            String jit = String.format(Locale.ROOT, "%s's JIT used %.0f ms in the last window", now.compiling(), now.compileMs());
            (now.compileMs() > jitQuietMs ? moving : still).add(now.compileMs() > jitQuietMs ? "still compiling (" + jit + ", quiet is "
                    + "at most " + fmt(jitQuietMs) + ")" : "JIT quiet (" + jit + ")");
        }
        trend("throughput", last.stream().map(Window::requestsPerSecond).toList(), tolerancePercent, trendWindows, moving, still);
        if (last.stream().allMatch(w -> w.cpuMsPerRequest() != null)) {
            trend("CPU per request", last.stream().map(Window::cpuMsPerRequest).toList(), tolerancePercent, trendWindows, moving, still);
        }
        if (!(now.requestsPerSecond() > 0)) {
            moving.add("no requests answered in the last window");
        }
        return moving.isEmpty() ? new Verdict(true, String.join(", ", still)) : new Verdict(false, String.join(", ", moving));
    }

    private static void trend(String what, List<Double> values, double tolerancePercent, int n, List<String> moving, List<String> still) {
        double t = trendPercent(values);
        if (Double.isNaN(t) || Math.abs(t) > tolerancePercent) {
            moving.add(String.format(Locale.ROOT, "%s %s %s%% over the last %d windows (at most %s%%)", what,
                    Double.isNaN(t) ? "unmeasurable" : t > 0 ? "rising" : "falling", Double.isNaN(t) ? "?" : fmt(Math.abs(t)), n,
                    fmt(tolerancePercent)));
        } else {
            still.add(String.format(Locale.ROOT, "%s flat (%+.1f%% over the last %d windows)", what, t, n));
        }
    }

    private static String fmt(double v) {
        return dev.meshbench.model.settings.Parsers.plain(Math.round(v * 10) / 10.0);
    }

    /**
     * Watches the warm-up samples ({@link #STEP}) {@code jmeter} writes to {@code jtl} as {@code plan} says, then ends the
     * warm-up with {@code end} (which must also do when the warm-up is cut short).
     *
     * @param signals the run's JIT and CPU counters, read at each window's end
     * @return the plan with what happened: seconds taken, windows, whether it became warm and why it ended
     */
    public static WarmupInfo run(WarmupInfo plan, int clients, JMeterLoad.Running jmeter, Path jtl, Runnable end, Signals signals,
            PrintStream out, String caseId) throws InterruptedException {
        return run(plan, clients, STEP, jmeter, jtl, end, signals, out, caseId);
    }

    /**
     * As {@link #run(WarmupInfo, int, JMeterLoad.Running, Path, Runnable, Signals, PrintStream, String)}, watching the
     * samples of step {@code step} in {@code jtl} (a sitting's warm-up has its own JTL, whose samples carry the sitting's
     * clients as their step).
     */
    public static WarmupInfo run(WarmupInfo plan, int clients, int step, JMeterLoad.Running jmeter, Path jtl, Runnable end, Signals signals,
            PrintStream out, String caseId) throws InterruptedException {
        boolean judged = WarmupInfo.STABLE.equals(plan.mode());
        int window = judged ? plan.windowSeconds() : 10;
        long start = System.nanoTime();
        List<Window> windows = new ArrayList<>();
        Verdict verdict = new Verdict(false, "not judged");
        JtlTail tail = new JtlTail(jtl);
        long[] seen = {0};
        Map<String, Double> compiledBefore = signals.jitMillis();
        OptionalDouble cpuBefore = signals.cpuMillis();
        try {
            long last = System.nanoTime();
            while (jmeter.isAlive()) {
                double left = plan.limitSeconds() - (System.nanoTime() - start) / 1e9;
                if (left <= 0) {
                    break;
                }
                Thread.sleep((long) (Math.min(window, left) * 1000));
                long now = System.nanoTime();
                long samples = poll(tail, seen, step);
                Map<String, Double> compiled = signals.jitMillis();
                OptionalDouble cpu = signals.cpuMillis();
                Window w = window(samples, (now - last) / 1e9, compiledBefore, compiled, cpuBefore, cpu);
                compiledBefore = compiled;
                cpuBefore = cpu;
                last = now;
                windows.add(w);
                if (judged) {
                    verdict = judge(windows, plan.trendWindows(), plan.tolerancePercent(), plan.jitQuietMs() == null ? Double.MAX_VALUE
                            : plan.jitQuietMs());
                }
                out.printf(Locale.ROOT, "[%s] warm-up at %d clients: %.1f req/s%s%s in the last %d s (%.0f s, %s %d s)%s%n", caseId,
                        clients, w.requestsPerSecond(),
                        w.cpuMsPerRequest() == null ? "" : String.format(Locale.ROOT, ", %.3f ms CPU/req", w.cpuMsPerRequest()),
                        w.compileMs() == null ? "" : String.format(Locale.ROOT, ", JIT at most %.0f ms CPU (%s)", w.compileMs(), w.compiling()),
                        window, (now - start) / 1e9, judged ? "at most" : "of", plan.limitSeconds(), verdict.warm() ? ": warm" : "");
                if (judged && verdict.warm()) {
                    break;
                }
            }
        } finally {
            end.run();
        }
        double took = Math.round((System.nanoTime() - start) / 1e8) / 10.0;
        Boolean stable = null;
        String reason;
        if (judged) {
            stable = verdict.warm();
            reason = (stable ? "warm: " : "capped at " + plan.limitSeconds() + " s: ") + verdict.why();
            out.printf(Locale.ROOT, stable ? "[%s] warm after %.0f s: %s%n"
                    : "[%s] warm-up NOT STABLE after %.0f s, %s; the steps may still drift%n", caseId, took, stable ? verdict.why() : reason);
        } else {
            reason = "fixed time of " + plan.limitSeconds() + " s";
        }
        return new WarmupInfo(plan.mode(), plan.limitSeconds(), plan.windowSeconds(), plan.tolerancePercent(), clients, took, stable,
                windows.stream().map(Window::requestsPerSecond).toList(), plan.trendWindows(), compiledBefore.isEmpty() ? null : plan.jitQuietMs(),
                windows.stream().map(Window::cpuMsPerRequest).filter(java.util.Objects::nonNull).toList(),
                windows.stream().map(Window::compileMs).filter(java.util.Objects::nonNull).toList(), reason);
    }

    /** One window from the samples it saw and the counters at its edges. */
    public static Window window(long samples, double seconds, Map<String, Double> compiledBefore, Map<String, Double> compiled,
            OptionalDouble cpuBefore, OptionalDouble cpu) {
        double perSecond = Math.round(samples / seconds * 10) / 10.0;
        // CPU that went back (a component restarted in the window: a pod a switch replaced) says nothing of this window.
        Double cpuPerRequest = cpu.isPresent() && cpuBefore.isPresent() && samples > 0 && cpu.getAsDouble() >= cpuBefore.getAsDouble()
                ? Math.round((cpu.getAsDouble() - cpuBefore.getAsDouble()) / samples * 1000) / 1000.0 : null;
        Double most = null;
        String who = null;
        for (Map.Entry<String, Double> c : compiled.entrySet()) {
            Double before = compiledBefore.get(c.getKey());
            double spent = before == null || c.getValue() < before ? c.getValue() : c.getValue() - before;
            if (most == null || spent > most) {
                most = Math.round(spent * 10) / 10.0;
                who = c.getKey();
            }
        }
        return new Window(perSecond, cpuPerRequest, most, who);
    }

    /** Warm-up samples seen since the last call. */
    private static long poll(JtlTail tail, long[] seen, int step) {
        try {
            tail.poll();
        } catch (IOException e) {
            return 0;
        }
        JtlTail.StepCounts c = tail.steps().get(step);
        long now = c == null ? 0 : c.samples();
        long fresh = now - seen[0];
        seen[0] = now;
        return fresh;
    }
}
