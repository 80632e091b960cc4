package dev.meshbench.charts.latency;

import dev.meshbench.charts.load.SkippedRun;
import dev.meshbench.charts.render.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The console's view of the latency report: per data plane, the gist's columns
 * ({@code Svc Scale Ingress Sidecar P99 P50 MaxQPS}) for our cells and the gist's beside them, then failed cells and
 * skipped files. Latencies in ms, rates in requests/s, a decimal point whatever the default locale.
 */
public final class LatencyTextRenderer {
    private static final String ROW = "%-7s %5s  %-8s %-8s %9s %9s %8s | %9s %9s %8s%s%n";

    private LatencyTextRenderer() {
    }

    /** The text, lines ending in {@code \n}. */
    public static String table(LatencyReportModel model) {
        StringBuilder b = new StringBuilder();
        if (model.dataPlanes().isEmpty()) {
            b.append("no latency cell in ").append(model.loaded().directory()).append('\n');
        }
        for (String plane : model.dataPlanes()) {
            List<LatencyRow> rows = model.rows(plane);
            long passed = rows.stream().filter(r -> r.measured() != null).count();
            b.append(String.format(Locale.ROOT, "%s: %d of %d cells passed; P99 and P50 in ms at %s of MaxQPS%n", plane,
                    passed, rows.size(), AddedLatencyChartRenderer.fraction(model)));
            b.append(String.format(Locale.ROOT, ROW, "Svc", "Scale", "Ingress", "Sidecar", "P99", "P50", "MaxQPS",
                    "gist P99", "P50", "MaxQPS", ""));
            for (LatencyRow r : rows) {
                b.append(String.format(Locale.ROOT, ROW, r.cell().graph(), r.cell().scale(), r.cell().ingressId(),
                        r.cell().sidecarId(), number(r.p99Ms(), 3), number(r.p50Ms(), 3), number(r.maxQps(), 0),
                        number(r.gistP99Ms(), 3), number(r.gistP50Ms(), 3), number(r.gistMaxQps(), 0), flags(r)));
            }
            b.append('\n');
        }
        for (LoadedCell c : model.loaded().failed()) {
            String shown = model.row(c.dataPlane(), c.cell()).map(LatencyRow::runId).orElse(null);
            b.append("failed ").append(c.dataPlane()).append(' ').append(c.cell().id()).append(" (").append(c.runId())
                    .append("): ").append(c.results().failureReason())
                    .append(shown == null ? "" : " [passed run " + shown + " shown]").append('\n');
        }
        for (SkippedRun s : model.loaded().skipped()) {
            b.append("skipped ").append(s).append('\n');
        }
        return b.toString();
    }

    private static String flags(LatencyRow r) {
        if (r.measured() == null) {
            return r.failure() != null ? "  failed" : "  not run";
        }
        List<String> f = new ArrayList<>();
        if (Boolean.TRUE.equals(r.fellBehind())) {
            f.add(r.serviceP99Ms() == null ? "FELL BEHIND"
                    : "FELL BEHIND (from the actual send: P50 " + number(r.serviceP50Ms(), 3) + ", P99 " + number(r.serviceP99Ms(), 3) + ")");
        }
        if (r.errors() > 0) {
            f.add(r.errors() + (r.errors() == 1 ? " error" : " errors"));
        }
        return f.isEmpty() ? "" : "  " + String.join(", ", f);
    }

    private static String number(Double value, int decimals) {
        return value == null ? "-" : Numbers.fixed(value, decimals);
    }
}
