package dev.meshbench.charts.latency;

import dev.meshbench.charts.study.PublishedFigures;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The gist's published results (<i>Istio Latency Analysis</i> by therealmitchconnors), read from the study's one
 * data file ({@link PublishedFigures#RESOURCE}): a verbatim copy of its table with P50 and P99 in seconds and
 * {@code No}/{@code Istio} for ingress and sidecar, converted here, once, to milliseconds and cell ids.
 *
 * @param source the gist's address
 * @param rows   the rows in the gist's order
 */
public record GistTable(String source, List<GistRow> rows) {
    public GistTable {
        rows = List.copyOf(rows);
    }

    /** The table shipped with charts. */
    public static GistTable load() {
        return of(PublishedFigures.RESOURCE, PublishedFigures.load().latencyGist());
    }

    /** The table of {@code gist} as published; {@code name} names its file in error messages. */
    public static GistTable of(String name, PublishedFigures.LatencyGist gist) {
        List<GistRow> rows = new ArrayList<>();
        Set<CellId> seen = new HashSet<>();
        for (int i = 0; i < gist.rows().size(); i++) {
            String where = name + " latencyGist row " + (i + 1) + ": ";
            GistRow row = row(where, gist.rows().get(i));
            if (!seen.add(row.cell())) {
                throw new IllegalStateException(where + "cell " + row.cell() + " appears twice");
            }
            rows.add(row);
        }
        if (rows.isEmpty()) {
            throw new IllegalStateException(name + ": latencyGist has no rows");
        }
        return new GistTable(gist.source(), rows);
    }

    /** The gist's row of {@code cell}, if it published one. */
    public Optional<GistRow> row(CellId cell) {
        return rows.stream().filter(r -> r.cell().equals(cell)).findFirst();
    }

    private static GistRow row(String where, PublishedFigures.GistRecord r) {
        try {
            CellId cell = new CellId(r.svc(), r.scale(), yesNo(r.istioIngress(), "istio_ingress"),
                    yesNo(r.istioSidecar(), "istio_sidecar"));
            return new GistRow(cell, secondsToMs(r.p99Seconds()), secondsToMs(r.p50Seconds()), r.maxQps().doubleValue());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + e.getMessage(), e);
        }
    }

    /** The gist's "Istio" (the component was there) or "No". */
    private static boolean yesNo(String value, String column) {
        return switch (value) {
            case "Istio" -> true;
            case "No" -> false;
            default -> throw new IllegalArgumentException(column + " \"" + value + "\" is not Istio|No");
        };
    }

    /** Seconds as published to milliseconds, in decimal so 0.000612 s is exactly 0.612 ms. */
    private static double secondsToMs(BigDecimal seconds) {
        return seconds.movePointRight(3).doubleValue();
    }
}
