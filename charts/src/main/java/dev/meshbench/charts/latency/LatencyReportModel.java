package dev.meshbench.charts.latency;

import dev.meshbench.charts.latency.AddedLatency.Figures;
import dev.meshbench.results.ResultsSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Everything the latency report shows, computed once from what was read and the gist's table.
 *
 * @param loaded     what the latency results directory held
 * @param gist       the gist's published table
 * @param dataPlanes names of the data planes with at least one passed or failed cell: netty, envoy, then others
 *                   alphabetically
 * @param cells      the gist's sixteen cells and any other cell that ran, in {@link CellId#GIST_ORDER}
 * @param rows       every cell of every data plane (data plane, then {@link #cells} order); a cell that did not pass
 *                   has a row with no measured figures
 * @param added      for each data plane, then the gist ({@link AddedLatency#GIST}), the latency of every cell with
 *                   mesh over its no-mesh cell, in {@link CellId#ADDED_ORDER}
 */
public record LatencyReportModel(LoadedLatency loaded, GistTable gist, List<String> dataPlanes, List<CellId> cells,
        List<LatencyRow> rows, List<AddedLatency> added) {

    public LatencyReportModel {
        dataPlanes = List.copyOf(dataPlanes);
        cells = List.copyOf(cells);
        rows = List.copyOf(rows);
        added = List.copyOf(added);
    }

    /** The model of {@code loaded} against {@code gist}. */
    public static LatencyReportModel of(LoadedLatency loaded, GistTable gist) {
        List<LoadedCell> all = Stream.concat(loaded.passed().stream(), loaded.failed().stream()).toList();
        List<String> planes = all.stream().map(LoadedCell::dataPlane).distinct()
                .sorted(Comparator.comparingInt(ResultsSchema::dataPlaneOrder).thenComparing(Function.identity()))
                .toList();
        TreeSet<CellId> cellSet = new TreeSet<>(CellId.GIST_ORDER);
        gist.rows().forEach(r -> cellSet.add(r.cell()));
        all.forEach(c -> cellSet.add(c.cell()));
        List<CellId> cells = List.copyOf(cellSet);

        List<LatencyRow> rows = new ArrayList<>();
        for (String plane : planes) {
            for (CellId cell : cells) {
                LoadedCell passed = loaded.passed().stream()
                        .filter(c -> c.dataPlane().equals(plane) && c.cell().equals(cell)).findFirst().orElse(null);
                LoadedCell failure = passed != null ? null : loaded.failed().stream()
                        .filter(c -> c.dataPlane().equals(plane) && c.cell().equals(cell))
                        .max(Comparator.comparing(LoadedCell::startTime).thenComparing(LoadedCell::runId)).orElse(null);
                rows.add(new LatencyRow(plane, cell, passed, failure, gist.row(cell).orElse(null)));
            }
        }

        List<CellId> meshCells = meshCells(cells);
        List<AddedLatency> added = new ArrayList<>();
        for (String plane : planes) {
            Function<CellId, Figures> measured = cell -> rows.stream()
                    .filter(r -> r.dataPlane().equals(plane) && r.cell().equals(cell) && r.measured() != null)
                    .findFirst().map(r -> new Figures(r.p50Ms(), r.p99Ms())).orElse(null);
            meshCells.forEach(c -> added.add(AddedLatency.of(plane, c, measured.apply(c), measured.apply(c.baseline()))));
        }
        Function<CellId, Figures> published = cell -> gist.row(cell).map(r -> new Figures(r.p50Ms(), r.p99Ms()))
                .orElse(null);
        meshCells.forEach(c -> added.add(AddedLatency.of(AddedLatency.GIST, c, published.apply(c),
                published.apply(c.baseline()))));
        return new LatencyReportModel(loaded, gist, planes, cells, rows, added);
    }

    /** The rows of one data plane, in {@link #cells} order. */
    public List<LatencyRow> rows(String dataPlane) {
        return rows.stream().filter(r -> r.dataPlane().equals(dataPlane)).toList();
    }

    /** The row of {@code cell} on {@code dataPlane}. */
    public Optional<LatencyRow> row(String dataPlane, CellId cell) {
        return rows.stream().filter(r -> r.dataPlane().equals(dataPlane) && r.cell().equals(cell)).findFirst();
    }

    /** The added latencies of a data plane's cells, or of the gist's ({@link AddedLatency#GIST}). */
    public List<AddedLatency> added(String source) {
        return added.stream().filter(a -> a.source().equals(source)).toList();
    }

    /** The cells with mesh, in {@link CellId#ADDED_ORDER}: the categories of the added-latency chart. */
    public List<CellId> meshCells() {
        return meshCells(cells);
    }

    private static List<CellId> meshCells(List<CellId> cells) {
        return cells.stream().filter(c -> !c.isBaseline()).sorted(CellId.ADDED_ORDER).toList();
    }

    /** Rows whose open-loop phase fell behind its schedule. */
    public List<LatencyRow> fellBehind() {
        return rows.stream().filter(r -> Boolean.TRUE.equals(r.fellBehind())).toList();
    }
}
