package dev.meshbench.charts.render;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.NumberFormat;
import java.util.Locale;

/** Number formatting that never depends on the default locale (no decimal commas, no local digits). */
public final class Numbers {
    private Numbers() {
    }

    /** {@code value} rounded to at most {@code decimals} places, trailing zeros dropped: 66.5780 -> "66.578". */
    public static String plain(double value, int decimals) {
        BigDecimal d = BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros();
        if (d.signum() == 0) {
            return "0";
        }
        return d.toPlainString();
    }

    /** {@code value} with exactly {@code decimals} places: 3.5 -> "3.50". */
    public static String fixed(double value, int decimals) {
        return BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
    }

    /** {@code value} with {@code decimals} places and its sign: +0.091, -0.004, 0.000 (never -0.000). */
    public static String signed(double value, int decimals) {
        String s = fixed(value, decimals);
        if (s.matches("-0\\.0*")) {
            s = s.substring(1);
        }
        return value > 0 && !s.matches("0\\.0*") ? "+" + s : s;
    }

    /** A {@link NumberFormat} for chart axes and labels: Locale.ROOT symbols, no grouping. */
    public static NumberFormat axisFormat(int maxDecimals) {
        return axisFormat(0, maxDecimals);
    }

    /** As {@link #axisFormat(int)}, always showing at least {@code minDecimals} places. */
    public static NumberFormat axisFormat(int minDecimals, int maxDecimals) {
        DecimalFormat f = new DecimalFormat("0", DecimalFormatSymbols.getInstance(Locale.ROOT));
        f.setMinimumFractionDigits(minDecimals);
        f.setMaximumFractionDigits(maxDecimals);
        f.setGroupingUsed(false);
        return f;
    }
}
