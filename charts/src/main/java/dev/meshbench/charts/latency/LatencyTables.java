package dev.meshbench.charts.latency;

import dev.meshbench.charts.model.SkippedLine;
import dev.meshbench.charts.render.Numbers;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.TargetKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the latency report's page shows beyond {@link LatencyReportModel}'s rows, computed once: per data plane how
 * many cells passed and what it ran, the cells that fell behind or had errors, the measurement settings the cells
 * shared, where they ran, the failed runs with what is shown instead, the bars the chart left out and why. The page
 * renderer only walks these.
 *
 * @param model        the report's model
 * @param planes       one summary per data plane, in report order
 * @param fellBehind   rows whose open loop fell behind its schedule
 * @param withErrors   rows with failed requests
 * @param fraction     the open loop's fraction of MaxQPS, e.g. {@code "75 %"}
 * @param connections  the closed loop's connections over the passed cells ({@code ", "}-joined; empty: none passed)
 * @param maxSeconds   the closed loop's seconds over the passed cells (empty: none passed)
 * @param openSeconds  the open loop's seconds over the passed cells (empty: none passed)
 * @param generators   the load generators over the passed cells (empty: none passed)
 * @param where        where the passed and failed cells ran
 * @param failed       every failed run, with the passed run shown instead
 * @param leftOut      per data plane and the gist, the bars left out and why; only sources that left some out
 * @param withNotes    the cells that noted something, in report order
 * @param skipped      the files left out, relative to the folder when inside it, and why
 */
public record LatencyTables(LatencyReportModel model, List<PlaneSummary> planes, List<LatencyRow> fellBehind,
        List<LatencyRow> withErrors, String fraction, String connections, String maxSeconds, String openSeconds,
        String generators, Where where, List<FailedLine> failed, List<LeftOut> leftOut, List<LoadedCell> withNotes,
        List<SkippedLine> skipped) {

    /** What each known data plane is, for the page. */
    private static final Map<String, String> DATA_PLANES = Map.of(
            DataPlaneInfo.NETTY, "meshbench's Netty relays standing in for Envoy as sidecar and ingress gateway",
            DataPlaneInfo.ENVOY, "Envoy as sidecar and ingress gateway");

    public LatencyTables {
        Objects.requireNonNull(model, "model");
        planes = List.copyOf(planes);
        fellBehind = List.copyOf(fellBehind);
        withErrors = List.copyOf(withErrors);
        Objects.requireNonNull(where, "where");
        failed = List.copyOf(failed);
        leftOut = List.copyOf(leftOut);
        withNotes = List.copyOf(withNotes);
        skipped = List.copyOf(skipped);
    }

    /**
     * A data plane of the report.
     *
     * @param name        its name
     * @param passed      cells with a passed run
     * @param cells       cells in its table
     * @param description what it is
     * @param runsWith    what its runs recorded of it: label, versions and workers, {@code "; "}-joined
     */
    public record PlaneSummary(String name, long passed, int cells, String description, String runsWith) {
    }

    /**
     * Where the cells ran.
     *
     * @param cells         cells read (passed and failed)
     * @param local         of those, on the local target
     * @param localMachines the local target's machines, e.g. {@code "2 cores, Linux 6.1 amd64"}
     * @param kubernetes    of those, on a Kubernetes cluster
     */
    public record Where(int cells, int local, String localMachines, int kubernetes) {
    }

    /** A failed run, and the run id of the passed run shown instead ({@code null}: none). */
    public record FailedLine(LoadedCell cell, String shownRunId) {
    }

    /**
     * The bars a source (a data plane or the gist) left out.
     *
     * @param source    the data plane, or {@link AddedLatency#GIST}
     * @param baselines baselines without a figure: every cell of their graph and scale has no bar
     * @param cells     cells without a figure whose baseline has one
     */
    public record LeftOut(String source, List<CellId> baselines, List<CellId> cells) {
        public LeftOut {
            baselines = List.copyOf(baselines);
            cells = List.copyOf(cells);
        }

        /** Whether the source is the gist's table. */
        public boolean gist() {
            return AddedLatency.GIST.equals(source);
        }
    }

    /** The tables of {@code m}. */
    public static LatencyTables of(LatencyReportModel m) {
        List<LoadedCell> all = Stream.concat(m.loaded().passed().stream(), m.loaded().failed().stream()).toList();
        List<PlaneSummary> planes = m.dataPlanes().stream().map(p -> new PlaneSummary(p,
                m.rows(p).stream().filter(r -> r.measured() != null).count(), m.rows(p).size(),
                DATA_PLANES.getOrDefault(p, "data plane " + p),
                // whether a cell had the ingress gateway is its own column, not part of the data plane's description
                all.stream().filter(c -> c.dataPlane().equals(p)).map(c -> c.results().dataPlane().withIngress(true))
                        .distinct()
                        .map(d -> d.label() + ": " + d.versionsText()
                                + (d.workers() == null ? "" : ", " + d.workers() + " worker threads per proxy"))
                        .distinct().collect(Collectors.joining("; ")))).toList();
        List<LatencyCellResults> passed = m.loaded().passed().stream().map(LoadedCell::results).toList();
        List<LatencyCellResults> read = all.stream().map(LoadedCell::results).toList();
        List<LatencyCellResults> local = read.stream().filter(c -> c.target() == TargetKind.LOCAL).toList();
        Where where = new Where(read.size(), local.size(),
                distinct(local, c -> c.machine().cores() + " cores, " + c.machine().os()), read.size() - local.size());
        List<FailedLine> failed = m.loaded().failed().stream().map(c -> new FailedLine(c,
                m.row(c.dataPlane(), c.cell()).map(LatencyRow::runId).orElse(null))).toList();
        List<SkippedLine> skipped = SkippedLine.of(m.loaded().directory(), m.loaded().skipped());
        return new LatencyTables(m, planes, m.fellBehind(),
                m.rows().stream().filter(r -> r.errors() != null && r.errors() > 0).toList(),
                AddedLatencyChartRenderer.fraction(m),
                distinct(passed, c -> c.maxRate().connections() + ""),
                distinct(passed, c -> Numbers.plain(c.maxRate().seconds(), 1)),
                distinct(passed, c -> Numbers.plain(c.atFraction().seconds(), 1)),
                distinct(passed, LatencyCellResults::generator),
                where, failed, leftOut(m),
                all.stream().filter(c -> !c.results().notes().isEmpty()).sorted(LoadedCell.REPORT_ORDER).toList(),
                skipped);
    }

    /** Per data plane (and the gist), the baselines and cells whose absence leaves bars out. */
    private static List<LeftOut> leftOut(LatencyReportModel m) {
        List<String> sources = new ArrayList<>(m.dataPlanes());
        sources.add(AddedLatency.GIST);
        List<LeftOut> lines = new ArrayList<>();
        for (String s : sources) {
            boolean gist = AddedLatency.GIST.equals(s);
            Predicate<CellId> has = gist ? c -> m.gist().row(c).isPresent()
                    : c -> m.row(s, c).map(r -> r.measured() != null).orElse(false);
            List<AddedLatency> missing = m.added(s).stream().filter(a -> a.missing() != null).toList();
            List<CellId> baselines = missing.stream().map(a -> a.cell().baseline()).filter(has.negate()).distinct()
                    .toList();
            List<CellId> cells = missing.stream().map(AddedLatency::cell).filter(c -> has.test(c.baseline())).toList();
            if (!baselines.isEmpty() || !cells.isEmpty()) {
                lines.add(new LeftOut(s, baselines, cells));
            }
        }
        return lines;
    }

    private static <T> String distinct(List<T> items, Function<T, String> value) {
        return items.stream().map(value).distinct().sorted().collect(Collectors.joining(", "));
    }
}
