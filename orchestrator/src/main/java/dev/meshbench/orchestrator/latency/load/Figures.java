package dev.meshbench.orchestrator.latency.load;

import java.math.BigDecimal;
import java.time.Duration;

/** How figures are written in progress lines and summaries, in any locale. */
final class Figures {
    private Figures() {
    }

    /** {@code 12.5}, {@code 1000}, {@code 0.125}: rounded to 3 decimals, no trailing zeros, no exponent. */
    static String number(double v) {
        return BigDecimal.valueOf(Math.round(v * 1000) / 1000.0).stripTrailingZeros().toPlainString();
    }

    /** {@code 30 s}, {@code 0.5 s}. */
    static String seconds(Duration d) {
        return number(d.toNanos() / 1e9) + " s";
    }

    /** {@code 99.5%} for 0.995. */
    static String percent(double share) {
        return number(share * 100) + "%";
    }
}
