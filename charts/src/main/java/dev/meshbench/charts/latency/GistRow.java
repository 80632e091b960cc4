package dev.meshbench.charts.latency;

/**
 * One row of the gist's published table, in meshbench's units.
 *
 * @param cell   the cell it measured
 * @param p99Ms  99th percentile at 75 % of the maximum rate, ms (published in seconds)
 * @param p50Ms  50th percentile at 75 % of the maximum rate, ms (published in seconds)
 * @param maxQps the maximum rate, requests/s
 */
public record GistRow(CellId cell, double p99Ms, double p50Ms, double maxQps) {
}
