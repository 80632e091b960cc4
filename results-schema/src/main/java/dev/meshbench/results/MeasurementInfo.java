package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * How a run judged its own measurements: the rules the results were checked against, so a flag in the results can
 * be read back to the rule that set it.
 *
 * @param saturationThresholdPercent a step whose host CPU was busier than this, in percent of all cores, is flagged
 *                                   {@code saturated} ({@link StepHost})
 * @param driftThresholdPercent      a step whose throughput in the last third of its window differs from the first
 *                                   third by more than this, in percent, is flagged not steady ({@link StepDrift});
 *                                   {@code null} in runs that recorded none, read as the default
 * @param targetRatePerSecond        the fixed arrival rate of each step ({@code meshbench.rate}), requests per second,
 *                                   in ramp order; empty (absent) for a closed-loop run
 * @param rateShortfallPercent       a step whose achieved rate is more than this short of its target did not hold
 *                                   the rate ({@link StepRate}); {@code null} read as the default
 * @param warmup                     the warm-up before the first step, as planned and then as it went; absent in runs
 *                                   that recorded none
 * @param repeat                     which run of its case this was (1-based) when the build repeated cases
 *                                   ({@code meshbench.repeats}); absent in runs that recorded none
 * @param repeats                    how many runs of each case the build made
 * @param settings                   every setting that shapes the work, as the run used it: each {@code meshbench.*}
 *                                   property in effect (defaults included, secrets left out) and the JVM heaps; absent
 *                                   in runs that recorded none
 * @param calibration                how {@code targetRatePerSecond} was chosen when a calibration chose it; absent for a
 *                                   rate given by hand and for a closed loop
 * @param calibrationRun             {@code true} for a calibration run itself: it chose the sitting's rate and is kept, but
 *                                   it is not a measurement of its case (the report leaves it out); absent otherwise
 * @param cpuMethod                  how each component's CPU was measured, e.g. {@code "cgroup v1 cpuacct (ns)"},
 *                                   {@code "cgroup v2 cpu.stat"}, {@code "sampled from /proc every 1 s"}; absent in runs
 *                                   that recorded none (they were sampled from {@code /proc} on the local target)
 * @param sitting                    the run's place in its sitting: method, round, order, the switch into its case;
 *                                   absent in runs that recorded none (schema 6 and older: each run deployed its case)
 */
@JsonPropertyOrder({"saturationThresholdPercent", "driftThresholdPercent", "targetRatePerSecond", "rateShortfallPercent",
        "warmup", "repeat", "repeats", "settings", "calibration", "calibrationRun", "cpuMethod", "sitting"})
public record MeasurementInfo(@JsonProperty(required = true) double saturationThresholdPercent, Double driftThresholdPercent,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Double> targetRatePerSecond,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double rateShortfallPercent,
        @JsonInclude(JsonInclude.Include.NON_NULL) WarmupInfo warmup,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer repeat,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer repeats,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> settings,
        @JsonInclude(JsonInclude.Include.NON_NULL) RateCalibration calibration,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean calibrationRun,
        @JsonInclude(JsonInclude.Include.NON_NULL) String cpuMethod,
        @JsonInclude(JsonInclude.Include.NON_NULL) SittingInfo sitting) {
    /** Rules, rate, warm-up, repeats and settings; no calibration, the CPU method not recorded. */
    public MeasurementInfo(double saturationThresholdPercent, Double driftThresholdPercent, List<Double> targetRatePerSecond,
            Double rateShortfallPercent, WarmupInfo warmup, Integer repeat, Integer repeats, Map<String, String> settings) {
        this(saturationThresholdPercent, driftThresholdPercent, targetRatePerSecond, rateShortfallPercent, warmup, repeat,
                repeats, settings, null, null, null, null);
    }

    /** A closed-loop run's rules. */
    public MeasurementInfo(double saturationThresholdPercent, Double driftThresholdPercent) {
        this(saturationThresholdPercent, driftThresholdPercent, List.of(), null, null, null, null, Map.of(), null, null, null, null);
    }

    /** Rules, rate and warm-up, nothing recorded about repeats and settings. */
    public MeasurementInfo(double saturationThresholdPercent, Double driftThresholdPercent, List<Double> targetRatePerSecond,
            Double rateShortfallPercent, WarmupInfo warmup) {
        this(saturationThresholdPercent, driftThresholdPercent, targetRatePerSecond, rateShortfallPercent, warmup, null,
                null, Map.of(), null, null, null, null);
    }

    /** The same with the warm-up recorded. */
    public MeasurementInfo withWarmup(WarmupInfo w) {
        return new MeasurementInfo(saturationThresholdPercent, driftThresholdPercent, targetRatePerSecond,
                rateShortfallPercent, w, repeat, repeats, settings, calibration, calibrationRun, cpuMethod, sitting);
    }

    /** The same with the run's place among the repeats and its settings recorded. */
    public MeasurementInfo withRun(int repeat, int repeats, Map<String, String> settings) {
        return new MeasurementInfo(saturationThresholdPercent, driftThresholdPercent, targetRatePerSecond,
                rateShortfallPercent, warmup, repeat, repeats, settings, calibration, calibrationRun, cpuMethod, sitting);
    }

    /** The same at the fixed rate {@code c} chose for every step ({@code steps} of them), with {@code shortfallPercent}. */
    public MeasurementInfo withCalibratedRate(RateCalibration c, int steps, double shortfallPercent) {
        return new MeasurementInfo(saturationThresholdPercent, driftThresholdPercent,
                java.util.Collections.nCopies(steps, c.ratePerSecond()), shortfallPercent, warmup, repeat, repeats, settings, c, null, cpuMethod,
                sitting);
    }

    /** The same as a calibration run's: a closed loop, marked so the report leaves it out. */
    public MeasurementInfo asCalibrationRun() {
        return new MeasurementInfo(saturationThresholdPercent, driftThresholdPercent, List.of(), null, warmup, repeat, repeats,
                settings, null, true, cpuMethod, sitting);
    }

    /** The same with how each component's CPU was measured recorded. */
    public MeasurementInfo withCpuMethod(String method) {
        Checks.text("measurement.cpuMethod", method);
        return new MeasurementInfo(saturationThresholdPercent, driftThresholdPercent, targetRatePerSecond,
                rateShortfallPercent, warmup, repeat, repeats, settings, calibration, calibrationRun, method, sitting);
    }

    /** The same with the run's place in its sitting recorded. */
    public MeasurementInfo withSitting(SittingInfo s) {
        return new MeasurementInfo(saturationThresholdPercent, driftThresholdPercent, targetRatePerSecond,
                rateShortfallPercent, warmup, repeat, repeats, settings, calibration, calibrationRun, cpuMethod, s);
    }

    /** Whether this is a calibration run's ({@link #calibrationRun}). */
    public boolean calibrationOnly() {
        return Boolean.TRUE.equals(calibrationRun);
    }

    /** The default: a step that sends more than 5% fewer requests than its target did not hold the rate. */
    public static final double DEFAULT_RATE_SHORTFALL_PERCENT = 5;

    /** The shortfall threshold, the default where none was recorded. */
    public double rateShortfallOrDefault() {
        return rateShortfallPercent == null ? DEFAULT_RATE_SHORTFALL_PERCENT : rateShortfallPercent;
    }

    /** Whether {@code achieved} requests per second hold a {@code target}: at most the shortfall threshold short. */
    public boolean holdsRate(double target, double achieved) {
        return achieved >= target * (1 - rateShortfallOrDefault() / 100);
    }

    /** The default: above 90% busy, the components wait for CPU more than they use it. */
    public static final double DEFAULT_SATURATION_PERCENT = 90;
    /** The default: throughput that moves more than 10% within a step has not settled. */
    public static final double DEFAULT_DRIFT_PERCENT = 10;
    public static final MeasurementInfo DEFAULT = new MeasurementInfo(DEFAULT_SATURATION_PERCENT, DEFAULT_DRIFT_PERCENT);

    /** The drift threshold, the default where none was recorded. */
    public double driftOrDefault() {
        return driftThresholdPercent == null ? DEFAULT_DRIFT_PERCENT : driftThresholdPercent;
    }

    public MeasurementInfo {
        settings = settings == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(settings));
        if (repeat != null && (repeats == null || repeat < 1 || repeat > repeats)) {
            throw new IllegalArgumentException("measurement.repeat (" + repeat + ") must be 1.." + repeats);
        }
        targetRatePerSecond = targetRatePerSecond == null ? List.of() : List.copyOf(targetRatePerSecond);
        for (Double r : targetRatePerSecond) {
            if (r == null || !(r > 0)) {
                throw new IllegalArgumentException("measurement.targetRatePerSecond " + targetRatePerSecond + ": rates must be above 0");
            }
        }
        if (rateShortfallPercent != null && !(rateShortfallPercent > 0 && rateShortfallPercent < 100)) {
            throw new IllegalArgumentException("measurement.rateShortfallPercent (" + rateShortfallPercent + ") must be above 0 and below 100");
        }
        if (driftThresholdPercent != null && !(driftThresholdPercent > 0)) {
            throw new IllegalArgumentException("measurement.driftThresholdPercent (" + driftThresholdPercent + ") must be above 0");
        }
        if (!(saturationThresholdPercent > 0 && saturationThresholdPercent <= 100)) {
            throw new IllegalArgumentException("measurement.saturationThresholdPercent (" + saturationThresholdPercent
                    + ") must be above 0 and at most 100");
        }
    }
}
