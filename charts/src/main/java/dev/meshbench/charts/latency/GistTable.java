package dev.meshbench.charts.latency;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The gist's published results (<i>Istio Latency Analysis</i> by therealmitchconnors), read from the resource
 * {@value #RESOURCE} next to this class: a verbatim copy of its table with P50 and P99 in seconds and
 * {@code No}/{@code Istio} for ingress and sidecar, converted here, once, to milliseconds and cell ids.
 *
 * @param source the gist's address (the resource's {@code # source:} line)
 * @param rows   the rows in the gist's order
 */
public record GistTable(String source, List<GistRow> rows) {
    /** The resource's file name, next to this class. */
    public static final String RESOURCE = "gist-results.csv";
    /** The header line of the resource, after its comment lines. */
    public static final String HEADER = "svc,scale,istio_ingress,istio_sidecar,p99_s,p50_s,max_qps";

    private static final String SOURCE_PREFIX = "# source: ";

    public GistTable {
        rows = List.copyOf(rows);
    }

    /** The table shipped with charts. */
    public static GistTable load() {
        try (InputStream in = GistTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing next to " + GistTable.class.getName());
            }
            return parse(RESOURCE, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("reading resource " + RESOURCE + " failed", e);
        }
    }

    /**
     * Parses the resource's text; {@code name} names it in error messages. Lines starting with {@code #} are
     * comments (one of them {@code # source: <url>}), then {@link #HEADER}, then one row per cell.
     */
    static GistTable parse(String name, String text) {
        String source = null;
        boolean header = false;
        List<GistRow> rows = new ArrayList<>();
        Set<CellId> seen = new HashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            String where = name + " line " + (i + 1) + ": ";
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                if (line.startsWith(SOURCE_PREFIX)) {
                    source = line.substring(SOURCE_PREFIX.length()).strip();
                }
                continue;
            }
            if (!header) {
                if (!line.equals(HEADER)) {
                    throw new IllegalStateException(where + "expected the header " + HEADER + ", found " + line);
                }
                header = true;
                continue;
            }
            GistRow row = row(where, line);
            if (!seen.add(row.cell())) {
                throw new IllegalStateException(where + "cell " + row.cell() + " appears twice");
            }
            rows.add(row);
        }
        if (source == null) {
            throw new IllegalStateException(name + ": no '" + SOURCE_PREFIX.strip() + " <url>' comment line");
        }
        if (rows.isEmpty()) {
            throw new IllegalStateException(name + ": no rows");
        }
        return new GistTable(source, rows);
    }

    /** The gist's row of {@code cell}, if it published one. */
    public Optional<GistRow> row(CellId cell) {
        return rows.stream().filter(r -> r.cell().equals(cell)).findFirst();
    }

    private static GistRow row(String where, String line) {
        String[] f = line.split(",", -1);
        if (f.length != 7) {
            throw new IllegalStateException(where + "expected 7 fields (" + HEADER + "), found " + f.length);
        }
        try {
            int scale = Integer.parseInt(f[1]);
            CellId cell = new CellId(f[0], scale, yesNo(f[2], "istio_ingress"), yesNo(f[3], "istio_sidecar"));
            return new GistRow(cell, secondsToMs(f[4]), secondsToMs(f[5]), new BigDecimal(f[6]).doubleValue());
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
    private static double secondsToMs(String seconds) {
        return new BigDecimal(seconds).movePointRight(3).doubleValue();
    }
}
