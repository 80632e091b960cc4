package dev.meshbench.results.convert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import dev.meshbench.results.WorkCounters;
import dev.meshbench.results.io.ResultsFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code counters.csv}: cumulative counters of the application's work, {@code epochMs,component,counter,value}, one
 * row per component and counter per sampling tick. Counters the converter knows: {@link WorkCounters}'
 * (per service, per mesh hop on the MongoDB path, per mesh component).
 *
 * <p>The increase of a counter in a window {@code [a, b)} is, per run of non-decreasing samples (a decrease means
 * the process restarted), the value interpolated linearly at the clamped edges: {@code V(min(b, last)) -
 * V(max(a, first))}, as for CPU ({@link CpuTimeline}).
 */
final class CounterSamples {
    static final String MONGO_COMMANDS = WorkCounters.MONGO_COMMANDS;
    static final String INTER_SERVICE_CALLS = WorkCounters.INTER_SERVICE_CALLS;
    static final String API_REQUESTS = WorkCounters.API_REQUESTS;
    static final String API_MICROS = WorkCounters.API_MICROS;
    static final String MONGO_PATH_BYTES = WorkCounters.MONGO_PATH_BYTES;
    static final String LISTENER_BYTES = WorkCounters.LISTENER_BYTES;
    static final String JIT_MS = WorkCounters.JIT_MS;
    /** Host counters ({@link dev.meshbench.results.ResultsSchema#HOST_FILE}). */
    static final String HOST_BUSY_TICKS = "cpuBusyTicks";
    static final String HOST_TOTAL_TICKS = "cpuTotalTicks";
    static final String HOST_RUNNABLE_SUM = "runnableSum";
    static final String HOST_SAMPLES = "samples";
    static final String LOADGEN_CPU_MS = "cpuMs";

    /** counter -> component -> runs of (time, value). */
    private final Map<String, Map<String, List<List<double[]>>>> series = new TreeMap<>();

    static CounterSamples read(Path file) throws ResultsFormatException {
        CounterSamples out = new CounterSamples();
        try (InputStream in = Files.newInputStream(file);
                MappingIterator<Map<String, String>> rows =
                        CsvInput.open(file, in, "epochMs,component,counter,value")) {
            int columns = CsvInput.header(file, rows, List.of("epochMs", "component", "counter", "value"));
            while (rows.hasNextValue()) {
                int line = CsvInput.nextLine(rows);
                Map<String, String> row = rows.nextValue();
                if (row.size() != columns) { // fewer: Jackson refuses a row with more
                    throw new ResultsFormatException(file, "line " + line + " has " + row.size()
                            + " fields but the header has " + columns);
                }
                double t = number(file, row.get("epochMs"), "epochMs", line);
                double v = number(file, row.get("value"), "value", line);
                out.add(row.get("counter").strip(), row.get("component").strip(), t, v);
            }
        } catch (ResultsFormatException e) {
            throw e;
        } catch (JsonProcessingException e) {
            throw CsvInput.error(file, e);
        } catch (IOException e) {
            throw new ResultsFormatException(file, "reading failed: " + e.getMessage(), e);
        }
        return out;
    }

    private static double number(Path file, String s, String column, int line) throws ResultsFormatException {
        try {
            double d = Double.parseDouble(s.strip());
            if (!Double.isFinite(d) || d < 0) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new ResultsFormatException(file, "line " + line + ", column " + column + ": '" + s
                    + "' is not a number of 0 or more");
        }
    }

    void add(String counter, String component, double t, double v) {
        List<List<double[]>> runs = series.computeIfAbsent(counter, k -> new TreeMap<>()).computeIfAbsent(component, k -> new ArrayList<>());
        List<double[]> last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        if (last == null || v < last.get(last.size() - 1)[1]) {
            last = new ArrayList<>();
            runs.add(last);
        }
        last.add(new double[] {t, v});
    }

    boolean has(String counter) {
        return series.containsKey(counter);
    }

    /** The counter's increase in {@code [from, to)}, summed over components; {@code null} if never sampled. */
    Double increase(String counter, long from, long to) {
        Map<String, List<List<double[]>>> byComponent = series.get(counter);
        if (byComponent == null) {
            return null;
        }
        double sum = 0;
        for (List<List<double[]>> runs : byComponent.values()) {
            sum += increase(runs, from, to);
        }
        return sum;
    }

    /** The components the counter was sampled for, sorted. */
    java.util.Set<String> components(String counter) {
        return java.util.Collections.unmodifiableSet(series.getOrDefault(counter, Map.of()).keySet());
    }

    /** The counter's increase in {@code [from, to)} for one component; {@code null} if never sampled for it. */
    Double increase(String counter, String component, long from, long to) {
        List<List<double[]>> runs = series.getOrDefault(counter, Map.of()).get(component);
        return runs == null ? null : increase(runs, from, to);
    }

    private static double increase(List<List<double[]>> runs, long from, long to) {
        double sum = 0;
        for (List<double[]> run : runs) {
            double first = run.get(0)[0];
            double last = run.get(run.size() - 1)[0];
            double lo = Math.max(from, first);
            double hi = Math.min(to, last);
            if (hi > lo) {
                sum += at(run, hi) - at(run, lo);
            }
        }
        return sum;
    }

    private static double at(List<double[]> run, double t) {
        for (int i = 1; i < run.size(); i++) {
            double[] a = run.get(i - 1);
            double[] b = run.get(i);
            if (t <= b[0]) {
                return b[0] == a[0] ? b[1] : a[1] + (b[1] - a[1]) * (t - a[0]) / (b[0] - a[0]);
            }
        }
        return run.get(run.size() - 1)[1];
    }
}
