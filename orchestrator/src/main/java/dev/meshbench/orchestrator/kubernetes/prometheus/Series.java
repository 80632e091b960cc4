package dev.meshbench.orchestrator.kubernetes.prometheus;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One time series of a Prometheus query result: its labels and its points, oldest first. An instant query's vector
 * gives one point per series, a range query's matrix one per evaluation step.
 *
 * @param labels the series' labels, {@code __name__} included when Prometheus kept it; sorted by name and
 *               unmodifiable. Prometheus leaves out labels whose value is empty, so an absent label and an empty one
 *               are the same ({@link #label})
 * @param points the points as Prometheus answered them, values {@code NaN} and infinite included
 */
public record Series(Map<String, String> labels, List<Point> points) {
    public Series {
        Objects.requireNonNull(labels, "labels");
        Objects.requireNonNull(points, "points");
        SortedMap<String, String> sorted = new TreeMap<>();
        labels.forEach((name, value) -> {
            Objects.requireNonNull(name, "label name");
            sorted.put(name, Objects.requireNonNull(value, () -> "value of label " + name));
        });
        labels = Collections.unmodifiableSortedMap(sorted);
        points = List.copyOf(points);
    }

    /** The value of label {@code name}, or {@code ""} when the series has none (as PromQL treats it). */
    public String label(String name) {
        return labels.getOrDefault(name, "");
    }

    /**
     * One sample.
     *
     * @param epochMs the sample's (for a range query: the evaluation step's) time, epoch milliseconds
     * @param value   the value; Prometheus may answer {@code NaN}, {@code +Inf} or {@code -Inf}
     */
    public record Point(long epochMs, double value) {
    }
}
