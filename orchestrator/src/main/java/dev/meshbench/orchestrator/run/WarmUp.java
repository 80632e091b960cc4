package dev.meshbench.orchestrator.run;

import dev.meshbench.results.WarmupInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs the warm-up before a case's measured ramp: a JMeter already started at the ramp's highest step, whose
 * samples ({@code warmup.jtl}) are only watched, then stopped. {@code stable}: every window, the throughput of the
 * window just ended is compared with the one before; two within the tolerance end the warm-up, the cap ends it
 * anyway (recorded as not stable). {@code fixed}: a set time.
 */
public final class WarmUp {
    public static final String JTL = "warmup.jtl";

    private WarmUp() {
    }

    /** Whether the last two windows' throughputs differ by at most {@code tolerancePercent} of the larger (both > 0). */
    static boolean stable(List<Double> windows, double tolerancePercent) {
        if (windows.size() < 2) {
            return false;
        }
        double a = windows.get(windows.size() - 2);
        double b = windows.get(windows.size() - 1);
        double larger = Math.max(a, b);
        return a > 0 && b > 0 && Math.abs(a - b) <= larger * tolerancePercent / 100;
    }

    /**
     * Watches {@code jmeter} (writing {@code jtl}) as {@code plan} says, then stops it.
     *
     * @return the plan with what happened: seconds taken, windows, whether it became stable
     */
    public static WarmupInfo run(WarmupInfo plan, int clients, JMeterLoad.Running jmeter, Path jtl, PrintStream out,
            String caseId) throws InterruptedException {
        long start = System.nanoTime();
        List<Double> windows = new ArrayList<>();
        Boolean stable = null;
        JtlTail tail = new JtlTail(jtl);
        try {
            int window = WarmupInfo.STABLE.equals(plan.mode()) ? plan.windowSeconds() : 10;
            long last = System.nanoTime();
            while (jmeter.isAlive()) {
                double elapsed = (System.nanoTime() - start) / 1e9;
                double left = plan.limitSeconds() - elapsed;
                if (left <= 0) {
                    break;
                }
                Thread.sleep((long) (Math.min(window, left) * 1000));
                long now = System.nanoTime();
                long samples = poll(tail);
                double perSecond = Math.round(samples / ((now - last) / 1e9) * 10) / 10.0;
                last = now;
                windows.add(perSecond);
                if (WarmupInfo.STABLE.equals(plan.mode())) {
                    stable = stable(windows, plan.tolerancePercent());
                    out.printf(Locale.ROOT, "[%s] warm-up at %d clients: %.1f req/s in the last %d s%s (%.0f s, at most %d s)%n",
                            caseId, clients, perSecond, window, stable ? ", stable" : "", (now - start) / 1e9, plan.limitSeconds());
                    if (stable) {
                        break;
                    }
                } else {
                    out.printf(Locale.ROOT, "[%s] warm-up at %d clients: %.1f req/s (%.0f of %d s)%n", caseId, clients,
                            perSecond, (now - start) / 1e9, plan.limitSeconds());
                }
            }
        } finally {
            jmeter.stop();
        }
        double took = Math.round((System.nanoTime() - start) / 1e8) / 10.0;
        if (WarmupInfo.STABLE.equals(plan.mode()) && !Boolean.TRUE.equals(stable)) {
            out.printf(Locale.ROOT, "[%s] warm-up NOT STABLE after %.0f s (cap %d s): the first steps may still climb%n",
                    caseId, took, plan.limitSeconds());
            stable = false;
        }
        return new WarmupInfo(plan.mode(), plan.limitSeconds(), plan.windowSeconds(), plan.tolerancePercent(), clients,
                took, stable, windows);
    }

    private static long poll(JtlTail tail) {
        try {
            return tail.poll();
        } catch (IOException e) {
            return 0;
        }
    }
}
