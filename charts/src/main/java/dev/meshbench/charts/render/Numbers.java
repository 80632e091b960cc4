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

    /** A signed percentage with one decimal: "+4.2 %", "-10.0 %", "0.0 %". */
    public static String change(Double percent) {
        if (percent == null) {
            return "";
        }
        String s = fixed(percent, 1);
        if (s.equals("-0.0")) {
            s = "0.0";
        }
        return (percent > 0 && !s.equals("0.0") ? "+" : "") + s + " %";
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
