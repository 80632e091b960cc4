package dev.meshbench.charts.latency;

import java.util.ArrayList;
import java.util.List;

/**
 * The latency a cell's mesh (gateway, sidecar, or both) adds over the no-mesh cell of the same graph and scale
 * ({@link CellId#baseline()}), of one data plane or of the gist: the cell's percentile minus the baseline's. A
 * difference of percentiles, not the percentile of the added time: what the gist's table allows to compare.
 *
 * @param source  the data plane's name, or {@link #GIST} for the gist's published figures
 * @param cell    the cell with mesh
 * @param p50Ms   P50 of the cell minus P50 of the baseline, ms; {@code null} when either is missing
 * @param p99Ms   P99 of the cell minus P99 of the baseline, ms; {@code null} when either is missing
 * @param missing why the values are {@code null} (no passed baseline, no passed cell); {@code null} when present
 */
public record AddedLatency(String source, CellId cell, Double p50Ms, Double p99Ms, String missing) {
    /** The {@link #source} of the gist's figures. */
    public static final String GIST = "gist";

    /** The difference of {@code cell} and its baseline, or what is missing ({@code null} figures: not measured). */
    static AddedLatency of(String source, CellId cell, Figures cellFigures, Figures baseFigures) {
        if (cellFigures != null && baseFigures != null) {
            return new AddedLatency(source, cell, cellFigures.p50Ms() - baseFigures.p50Ms(),
                    cellFigures.p99Ms() - baseFigures.p99Ms(), null);
        }
        List<String> absent = new ArrayList<>();
        if (baseFigures == null) {
            absent.add("the baseline " + cell.baseline().id());
        }
        if (cellFigures == null) {
            absent.add(cell.id());
        }
        String missing = GIST.equals(source) ? "the gist has no row for " + String.join(" nor for ", absent)
                : "no passed run of " + String.join(" nor of ", absent) + " on " + source;
        return new AddedLatency(source, cell, null, null, missing);
    }

    /** P50 and P99 of one cell, ms. */
    record Figures(double p50Ms, double p99Ms) {
    }
}
