package dev.meshbench.charts.latency;

import dev.meshbench.charts.render.CsvReportWriter;
import dev.meshbench.charts.render.Numbers;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code latency.csv}: one row per data plane and cell, in the gist's row order within each data plane, ours next
 * to the gist's. A cell with no passed run still has its row: the measured columns and {@code run_id} are empty,
 * the gist's columns filled. Numbers use a decimal point and no grouping whatever the default locale; lines end
 * with {@code \n}.
 */
public final class LatencyCsvWriter {
    /** The columns. */
    public static final List<String> HEADER = List.of("data_plane", "svc", "scale", "ingress", "sidecar", "p99_ms",
            "p50_ms", "p90_ms", "p999_ms", "max_qps", "rate_75_target", "rate_75_achieved", "errors", "fell_behind",
            "service_p50_ms", "service_p99_ms", "run_id", "gist_p99_ms", "gist_p50_ms", "gist_max_qps");

    private LatencyCsvWriter() {
    }

    /**
     * The file's text. Latencies in ms (ours to the microsecond, the gist's as published, converted from seconds);
     * rates in requests/s; {@code errors}: failed requests of both phases; {@code fell_behind}: {@code true} when
     * the generator could not keep the open-loop phase's schedule; {@code service_*}: the open loop's percentiles from
     * each request's actual send (empty in results written before they were recorded).
     */
    public static String csv(LatencyReportModel model) {
        StringBuilder b = new StringBuilder();
        CsvReportWriter.line(b, HEADER);
        for (LatencyRow r : model.rows()) {
            List<String> row = new ArrayList<>(List.of(r.dataPlane(), r.cell().graph(), Integer.toString(r.cell().scale()),
                    r.cell().ingressId(), r.cell().sidecarId()));
            row.add(number(r.p99Ms(), 3));
            row.add(number(r.p50Ms(), 3));
            row.add(number(r.p90Ms(), 3));
            row.add(number(r.p999Ms(), 3));
            row.add(number(r.maxQps(), 1));
            row.add(number(r.rateTarget(), 1));
            row.add(number(r.rateAchieved(), 1));
            row.add(r.errors() == null ? "" : Long.toString(r.errors()));
            row.add(r.fellBehind() == null ? "" : Boolean.toString(r.fellBehind()));
            row.add(number(r.serviceP50Ms(), 3));
            row.add(number(r.serviceP99Ms(), 3));
            row.add(r.runId() == null ? "" : r.runId());
            row.add(number(r.gistP99Ms(), 6));
            row.add(number(r.gistP50Ms(), 6));
            row.add(number(r.gistMaxQps(), 1));
            CsvReportWriter.line(b, row);
        }
        return b.toString();
    }

    private static String number(Double value, int decimals) {
        return value == null ? "" : Numbers.plain(value, decimals);
    }
}
