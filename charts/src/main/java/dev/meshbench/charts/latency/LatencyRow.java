package dev.meshbench.charts.latency;

import dev.meshbench.results.LoadPhase;

/**
 * One cell of one data plane in the report's table: what meshbench measured (if a run passed) next to what the
 * gist published (if it has the cell). Latencies are those of the open-loop phase at a fraction (75 %) of the
 * maximum rate; the maximum rate is the closed-loop phase's.
 *
 * @param dataPlane the data plane's name
 * @param cell      the cell
 * @param measured  the latest passed run of the cell on this data plane; {@code null} when none passed
 * @param failure   when none passed, the latest failed run; {@code null} otherwise or when the cell never ran
 * @param gist      the gist's row of the cell; {@code null} when the gist has none (a cell of another graph or scale)
 */
public record LatencyRow(String dataPlane, CellId cell, LoadedCell measured, LoadedCell failure, GistRow gist) {

    /** The open-loop phase's median, ms. */
    public Double p50Ms() {
        return open() == null ? null : open().p50();
    }

    /** The open-loop phase's 90th percentile, ms. */
    public Double p90Ms() {
        return open() == null ? null : open().p90();
    }

    /** The open-loop phase's 99th percentile, ms. */
    public Double p99Ms() {
        return open() == null ? null : open().p99();
    }

    /** The open-loop phase's 99.9th percentile, ms. */
    public Double p999Ms() {
        return open() == null ? null : open().p999();
    }

    /**
     * The open-loop phase's median counted from each request's actual send (what fortio reports); {@code null} when
     * not measured or in results written before service times were recorded.
     */
    public Double serviceP50Ms() {
        return open() == null || open().serviceTime() == null ? null : open().serviceTime().p50();
    }

    /** The same for the 99th percentile. */
    public Double serviceP99Ms() {
        return open() == null || open().serviceTime() == null ? null : open().serviceTime().p99();
    }

    /** The closed-loop phase's completed requests per second: the gist's MaxQPS. */
    public Double maxQps() {
        return measured == null ? null : measured.results().maxRate().achievedRate();
    }

    /** The rate the open-loop phase asked for (75 % of {@link #maxQps()}), requests/s. */
    public Double rateTarget() {
        return open() == null ? null : open().targetRate();
    }

    /** The rate the open-loop phase completed, requests/s. */
    public Double rateAchieved() {
        return open() == null ? null : open().achievedRate();
    }

    /** Failed requests of both phases (closed loop and open loop). */
    public Long errors() {
        return measured == null ? null : measured.results().maxRate().errorCount() + open().errorCount();
    }

    /** Whether the generator fell behind the open-loop phase's schedule; {@code null} when not measured. */
    public Boolean fellBehind() {
        return open() == null ? null : open().fellBehind();
    }

    /** Why it fell behind; {@code null} when it kept up or was not measured. */
    public String fellBehindReason() {
        return open() == null ? null : open().fellBehindReason();
    }

    /** The measured run's id; {@code null} when none passed. */
    public String runId() {
        return measured == null ? null : measured.runId();
    }

    /** The gist's P99, ms. */
    public Double gistP99Ms() {
        return gist == null ? null : gist.p99Ms();
    }

    /** The gist's P50, ms. */
    public Double gistP50Ms() {
        return gist == null ? null : gist.p50Ms();
    }

    /** The gist's MaxQPS. */
    public Double gistMaxQps() {
        return gist == null ? null : gist.maxQps();
    }

    /** The open-loop phase of the measured run; {@code null} when none passed. */
    public LoadPhase open() {
        return measured == null ? null : measured.results().atFraction();
    }
}
