package dev.meshbench.charts.model;

/** The response-time statistics the study reports, in the order it shows them. */
public enum LatencyStatistic {
    AVG("avg", "average"),
    MEDIAN("median", "median"),
    P90("p90", "p90"),
    P95("p95", "p95"),
    P99("p99", "p99");

    private final String field;
    private final String label;

    LatencyStatistic(String field, String label) {
        this.field = field;
        this.label = label;
    }

    /** The field name in results.json's {@code latencyMs}. */
    public String field() {
        return field;
    }

    /** The label on the chart's axis. */
    public String label() {
        return label;
    }
}
