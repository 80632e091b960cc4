package dev.meshbench.model;

import java.util.Locale;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The control file of a sitting's one JMeter ({@code meshbench.method=switched}): the kit rewrites it, whole, while
 * the load runs, and the plan's plugin reads it again whenever it changes. Its presence (the JMeter property
 * {@link #PROPERTY}) puts the plan in its sitting mode: its warm-up thread group runs every client until the file says
 * {@link #STOP}, every sample is labelled with the {@link #PHASE} it started in, and the step rate timer paces at
 * {@link #RATE}. One home for the names and the rules, read on both sides.
 *
 * @param phase the label of the samples started now (the kit cuts the sitting's JTL by it)
 * @param rate  requests per second over all clients; 0 is a closed loop
 * @param stop  every client stops after its current sample, and JMeter ends
 */
public record SittingControl(String phase, double rate, boolean stop) {
    /** The JMeter property naming the control file. */
    public static final String PROPERTY = "meshbench.controlFile";
    /** The JTL column (a sample variable) with each sample's phase. */
    public static final String PHASE_COLUMN = "phase";
    public static final String PHASE = "phase";
    public static final String RATE = "rate";
    public static final String STOP = "stop";
    private static final Pattern PHASE_RULE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    public SittingControl {
        if (phase == null || !PHASE_RULE.matcher(phase).matches()) {
            throw new IllegalArgumentException(PHASE + "=" + phase + ": must be 1 to 64 of A-Z a-z 0-9 . _ : -");
        }
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException(RATE + "=" + rate + ": must be 0 (a closed loop) or more requests per second");
        }
    }

    /** The file's text. */
    public String text() {
        return "# meshbench: the sitting's load, read by the plan when it changes\n" + PHASE + "=" + phase + "\n" + RATE + "="
                + dev.meshbench.model.settings.Parsers.plain(rate) + "\n" + STOP + "=" + stop + "\n";
    }

    /** The control a file's properties say; {@link IllegalArgumentException} naming the key and the rule when it is not one. */
    public static SittingControl of(Properties p) {
        String phase = required(p, PHASE);
        String rateText = required(p, RATE);
        double rate;
        try {
            rate = Double.parseDouble(rateText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(RATE + "=" + rateText + ": must be a number of requests per second, 0 or more");
        }
        String stop = p.getProperty(STOP, "false").trim().toLowerCase(Locale.ROOT);
        if (!stop.equals("true") && !stop.equals("false")) {
            throw new IllegalArgumentException(STOP + "=" + stop + ": must be true or false");
        }
        return new SittingControl(phase, rate, stop.equals("true"));
    }

    private static String required(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(key + " is missing");
        }
        return v.trim();
    }
}
