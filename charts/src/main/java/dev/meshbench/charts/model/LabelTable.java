package dev.meshbench.charts.model;

import dev.meshbench.results.LabelResult;
import dev.meshbench.results.ResultsSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Response time and rate per request type (JMeter label) at the compared client count, case against case, one table
 * per data plane: which requests pay for the egress path (those that talk to MongoDB) and which do not. A data plane
 * whose runs have no figures per request type (converted before results schema 6) has no table.
 *
 * @param dataPlane the data plane's label
 * @param clients   the compared client count
 * @param cases     the data plane's cases, in report order (the columns)
 * @param rows      one row per label, in label order
 */
public record LabelTable(String dataPlane, int clients, List<CaseSummary> cases, List<Row> rows) {

    public LabelTable {
        cases = List.copyOf(cases);
        rows = List.copyOf(rows);
    }

    /** One request type: a cell per case, in the order of {@link #cases}. */
    public record Row(String label, List<Cell> cells) {
        public Row {
            cells = List.copyOf(cells);
        }
    }

    /**
     * One case's figures for one request type, spreads over the case's runs; {@code null} spreads where no run had
     * them (the label absent, or no successful request).
     *
     * @param p99ChangePercent the P99's mean against bypass's, percent; {@code null} for bypass itself or without it
     */
    public record Cell(Spread rate, Spread p50, Spread p99, Double p99ChangePercent) {
    }

    /** The tables of {@code m}, one per data plane that has figures per request type. */
    public static List<LabelTable> of(ReportModel m) {
        List<LabelTable> out = new ArrayList<>();
        for (String plane : m.dataPlanes()) {
            List<CaseSummary> cases = m.cases().stream().filter(c -> c.dataPlane().equals(plane)).toList();
            SortedSet<String> labels = labels(cases, m.clients());
            if (labels.isEmpty()) {
                continue;
            }
            CaseSummary base = cases.stream().filter(c -> c.caseId().equals(ResultsSchema.BASELINE_CASE)).findFirst()
                    .orElse(null);
            List<Row> rows = new ArrayList<>();
            for (String label : labels) {
                Spread baseP99 = base == null ? null : base.label(m.clients(), label, LabelTable::p99);
                rows.add(new Row(label, cases.stream().map(c -> {
                    Spread p99 = c.label(m.clients(), label, LabelTable::p99);
                    Double change = c == base || baseP99 == null || p99 == null || baseP99.mean() == 0 ? null
                            : 100 * (p99.mean() - baseP99.mean()) / baseP99.mean();
                    return new Cell(c.label(m.clients(), label, LabelResult::throughputPerSecond),
                            c.label(m.clients(), label, l -> l.latencyMs() == null ? null : l.latencyMs().median()), p99,
                            change);
                }).toList()));
            }
            out.add(new LabelTable(plane, m.clients(), cases, rows));
        }
        return out;
    }

    /** The labels any run of {@code cases} has at {@code clients}, in label order. */
    public static SortedSet<String> labels(List<CaseSummary> cases, int clients) {
        SortedSet<String> labels = new TreeSet<>();
        cases.forEach(c -> c.results().forEach(r -> r.step(clients)
                .ifPresent(s -> s.labels().forEach(l -> labels.add(l.label())))));
        return labels;
    }

    /** A label's P99, ms; {@code null} without a successful request. */
    public static Number p99(LabelResult l) {
        return l.latencyMs() == null ? null : l.latencyMs().p99();
    }
}
