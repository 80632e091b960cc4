package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What one load step measured. The measured window is the step's window minus its warm-up:
 * {@code [startEpochMs + warmupSeconds, endEpochMs)}; a sample belongs to it when its JTL {@code step} equals
 * {@code clients} and its start time ({@code timeStamp}) falls inside.
 *
 * @param clients              concurrent clients
 * @param windowStartEpochMs   start of the measured window (after warm-up), epoch ms
 * @param windowEndEpochMs     end of the measured window (the step's end), epoch ms
 * @param measuredSeconds      window length, seconds
 * @param samples              samples in the window: {@code transactions + errors}
 * @param warmupSamplesSkipped samples of this step that started during the warm-up
 * @param lateSamplesSkipped   samples of this step that started at or after the step's end
 * @param transactions         successful samples in the window
 * @param errors               failed samples ({@code success=false}) in the window
 * @param throughputPerSecond  {@code transactions / measuredSeconds}, transactions per second
 * @param latencyMs            response time of the successful samples; {@code null} when there were none
 * @param cpu                  CPU in the window; {@code null} when the run has no CPU samples
 * @param work                 MongoDB commands, inter-service calls and MongoDB-path bytes per transaction;
 *                             {@code null} when the run has no counter samples or the window no transactions
 * @param host                 the machine during the window (host CPU, run queue, load generator, saturation);
 *                             absent when the run recorded no host samples (runs before it was recorded, clusters)
 * @param drift                throughput of the window's first and last thirds and whether the step was steady;
 *                             absent in runs converted before it was computed
 * @param rate                 the fixed arrival rate's target and what was achieved; absent for a closed-loop step
 * @param labels               the same window per request type (JMeter label), by label; their samples, transactions
 *                             and errors add up to the step's; empty in runs converted before schema version 6
 */
@JsonPropertyOrder({"clients", "windowStartEpochMs", "windowEndEpochMs", "measuredSeconds", "samples",
        "warmupSamplesSkipped", "lateSamplesSkipped", "transactions", "errors", "throughputPerSecond", "latencyMs",
        "cpu", "work", "host", "drift", "rate", "labels"})
public record StepResult(
        @JsonProperty(required = true) int clients,
        @JsonProperty(required = true) long windowStartEpochMs,
        @JsonProperty(required = true) long windowEndEpochMs,
        @JsonProperty(required = true) double measuredSeconds,
        @JsonProperty(required = true) long samples,
        @JsonProperty(required = true) long warmupSamplesSkipped,
        @JsonProperty(required = true) long lateSamplesSkipped,
        @JsonProperty(required = true) long transactions,
        @JsonProperty(required = true) long errors,
        @JsonProperty(required = true) double throughputPerSecond,
        LatencyStats latencyMs,
        StepCpu cpu,
        StepWork work,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        StepHost host,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        StepDrift drift,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        StepRate rate,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
        java.util.List<LabelResult> labels) {

    /** A step without figures per request type. */
    public StepResult(int clients, long windowStartEpochMs, long windowEndEpochMs, double measuredSeconds, long samples,
            long warmupSamplesSkipped, long lateSamplesSkipped, long transactions, long errors, double throughputPerSecond,
            LatencyStats latencyMs, StepCpu cpu, StepWork work, StepHost host, StepDrift drift, StepRate rate) {
        this(clients, windowStartEpochMs, windowEndEpochMs, measuredSeconds, samples, warmupSamplesSkipped,
                lateSamplesSkipped, transactions, errors, throughputPerSecond, latencyMs, cpu, work, host, drift, rate,
                java.util.List.of());
    }

    /** A closed-loop step (no fixed rate). */
    public StepResult(int clients, long windowStartEpochMs, long windowEndEpochMs, double measuredSeconds, long samples,
            long warmupSamplesSkipped, long lateSamplesSkipped, long transactions, long errors, double throughputPerSecond,
            LatencyStats latencyMs, StepCpu cpu, StepWork work, StepHost host, StepDrift drift) {
        this(clients, windowStartEpochMs, windowEndEpochMs, measuredSeconds, samples, warmupSamplesSkipped,
                lateSamplesSkipped, transactions, errors, throughputPerSecond, latencyMs, cpu, work, host, drift, null,
                java.util.List.of());
    }

    public StepResult {
        Checks.positive("clients", clients);
        if (windowEndEpochMs <= windowStartEpochMs) {
            throw new IllegalArgumentException("step of " + clients + " clients: windowEndEpochMs ("
                    + windowEndEpochMs + ") must be after windowStartEpochMs (" + windowStartEpochMs + ")");
        }
        Checks.notNegative("measuredSeconds", measuredSeconds);
        Checks.notNegative("warmupSamplesSkipped", warmupSamplesSkipped);
        Checks.notNegative("lateSamplesSkipped", lateSamplesSkipped);
        Checks.notNegative("transactions", transactions);
        Checks.notNegative("errors", errors);
        if (samples != transactions + errors) {
            throw new IllegalArgumentException("step of " + clients + " clients: samples (" + samples
                    + ") must equal transactions (" + transactions + ") + errors (" + errors + ")");
        }
        Checks.notNegative("throughputPerSecond", throughputPerSecond);
        if ((latencyMs == null) != (transactions == 0)) {
            throw new IllegalArgumentException("step of " + clients + " clients: latencyMs must be present exactly "
                    + "when there are transactions (" + transactions + ")");
        }
        labels = labels == null ? java.util.List.of() : java.util.List.copyOf(labels);
        if (!labels.isEmpty()) {
            long t = labels.stream().mapToLong(LabelResult::transactions).sum();
            long e = labels.stream().mapToLong(LabelResult::errors).sum();
            if (t != transactions || e != errors) {
                throw new IllegalArgumentException("step of " + clients + " clients: its labels' transactions (" + t
                        + ") and errors (" + e + ") must add up to the step's (" + transactions + ", " + errors + ")");
            }
            if (labels.stream().map(LabelResult::label).distinct().count() != labels.size()) {
                throw new IllegalArgumentException("step of " + clients + " clients: a label appears twice in labels");
            }
        }
    }

    /** The figures of one request type in this step, if it had samples. */
    public java.util.Optional<LabelResult> label(String label) {
        return labels.stream().filter(l -> l.label().equals(label)).findFirst();
    }

    /** A step as runs without host samples recorded it. */
    public StepResult(int clients, long windowStartEpochMs, long windowEndEpochMs, double measuredSeconds, long samples,
            long warmupSamplesSkipped, long lateSamplesSkipped, long transactions, long errors, double throughputPerSecond,
            LatencyStats latencyMs, StepCpu cpu, StepWork work) {
        this(clients, windowStartEpochMs, windowEndEpochMs, measuredSeconds, samples, warmupSamplesSkipped,
                lateSamplesSkipped, transactions, errors, throughputPerSecond, latencyMs, cpu, work, null, null);
    }

    /** True when the step's throughput drifted beyond the run's threshold (false when not computed). */
    @JsonIgnore
    public boolean notSteady() {
        return drift != null && !drift.steady();
    }

    /** Ran at a fixed rate and fell short of it by more than the threshold. */
    @JsonIgnore
    public boolean rateNotHeld() {
        return rate != null && !rate.held();
    }

    /**
     * The JVM whose JIT worked above the warm-up's quiet level in this step's measured window, if one did
     * ({@link StepWork#busiestJit}): the level is {@code m}'s warm-up's {@code jitQuietMs} per warm-up window, else
     * {@link dev.meshbench.model.settings.Catalogue#WARMUP_JIT_QUIET_MS} per
     * {@link dev.meshbench.model.settings.Catalogue#WARMUP_WINDOW_SECONDS}. That JVM was still compiling while the step
     * measured.
     */
    public java.util.Optional<java.util.Map.Entry<String, Double>> busiestJit(MeasurementInfo m) {
        if (work == null) {
            return java.util.Optional.empty();
        }
        WarmupInfo w = m == null ? null : m.warmup();
        boolean judged = w != null && w.jitQuietMs() != null && w.windowSeconds() > 0;
        double quiet = judged ? w.jitQuietMs() : dev.meshbench.model.settings.Catalogue.WARMUP_JIT_QUIET_MS;
        int window = judged ? w.windowSeconds() : dev.meshbench.model.settings.Catalogue.WARMUP_WINDOW_SECONDS;
        return work.busiestJit((windowEndEpochMs - windowStartEpochMs) / 1000.0, quiet * 10 / window);
    }

    /** True when the host was saturated during the window (false when not recorded). */
    @JsonIgnore
    public boolean saturated() {
        return host != null && host.saturated();
    }

    /** Failed samples as a fraction of all samples in the window (0 when there were none). */
    @JsonIgnore
    public double errorRatio() {
        return samples == 0 ? 0 : (double) errors / samples;
    }
}
