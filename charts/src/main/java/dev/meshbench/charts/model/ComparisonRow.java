package dev.meshbench.charts.model;

/**
 * One case on one data plane against the baseline ({@code bypass}) of the same data plane at the report's client
 * count. Changes are in percent of the baseline's mean; {@code null} when the baseline or the figure is missing.
 *
 * @param caseId           the case
 * @param dataPlane        the data plane's label
 * @param hasBaseline      whether the data plane has a bypass run to compare against
 * @param runs             runs of the case on the data plane
 * @param throughput       throughput at the report's client count, transactions/s
 * @param throughputChange its change against the baseline, %
 * @param peak             highest throughput over all steps, transactions/s
 * @param peakChange       its change, %
 * @param p99              99th percentile response time, ms
 * @param p99Change        its change, %
 * @param meshCpu          mesh CPU per transaction, ms
 * @param meshCpuChange    its change, %
 * @param appCpu           app CPU per transaction, ms
 * @param appCpuChange     its change, %
 */
public record ComparisonRow(String caseId, String dataPlane, boolean hasBaseline, int runs, Spread throughput,
        Double throughputChange, Spread peak, Double peakChange, Spread p99, Double p99Change, Spread meshCpu,
        Double meshCpuChange, Spread appCpu, Double appCpuChange) {
}
