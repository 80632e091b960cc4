package dev.meshbench.orchestrator.latency;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a latency study run measures and how, from {@code meshbench.latency.*} properties, every value checked with
 * an error that names the property: which graphs and cells, the generator's connections, how long each phase runs,
 * and the fraction of the maximum rate the open-loop phase asks for.
 *
 * @param graphs        graph names (shipped: {@code single}, {@code double}) or paths of the user's graph files
 * @param cells         the selection of cells ({@link LatencyCell#select})
 * @param connections   connections of the load generator (the gist's {@code -c 64})
 * @param warmupSeconds closed-loop seconds before the maximum-rate phase, not measured (the services' JIT)
 * @param maxSeconds    the closed-loop phase that finds the maximum rate (the gist's {@code -qps 0 -t 30s})
 * @param fixedSeconds  the open-loop phase at {@code loadFraction} of the maximum (the gist's second run)
 * @param loadFraction  the fraction of the maximum rate (the gist's 75%)
 */
public record LatencySettings(List<String> graphs, String cells, int connections, int warmupSeconds, int maxSeconds, int fixedSeconds,
        double loadFraction) {
    public static final String P_GRAPHS = "meshbench.latency.graphs";
    public static final String P_CELLS = "meshbench.latency.cells";
    public static final String P_CONNECTIONS = "meshbench.latency.connections";
    public static final String P_WARMUP_SECONDS = "meshbench.latency.warmupSeconds";
    public static final String P_MAX_SECONDS = "meshbench.latency.maxSeconds";
    public static final String P_FIXED_SECONDS = "meshbench.latency.fixedSeconds";
    public static final String P_LOAD_FRACTION = "meshbench.latency.loadFraction";

    /** The defaults: the gist's method (64 connections, 30 s, then 30 s at 75%), plus a 10-s warm-up. */
    public static final Map<String, String> DEFAULTS = Map.of(
            P_GRAPHS, "single,double",
            P_CELLS, "all",
            P_CONNECTIONS, "64",
            P_WARMUP_SECONDS, "10",
            P_MAX_SECONDS, "30",
            P_FIXED_SECONDS, "30",
            P_LOAD_FRACTION, "0.75");

    public LatencySettings {
        graphs = List.copyOf(graphs);
        if (graphs.isEmpty()) {
            throw new IllegalArgumentException(P_GRAPHS + " must name at least one graph");
        }
    }

    public static LatencySettings fromProperties(Map<String, String> props) {
        String graphsValue = get(props, P_GRAPHS);
        List<String> graphs = new ArrayList<>();
        for (String g : graphsValue.split(",")) {
            String t = g.trim();
            if (t.isEmpty()) {
                throw invalid(P_GRAPHS, graphsValue, "has an empty entry; give graph names or .yaml files separated by commas");
            }
            if (graphs.contains(t)) {
                throw invalid(P_GRAPHS, graphsValue, "names " + t + " twice");
            }
            graphs.add(t);
        }
        int connections = intIn(props, P_CONNECTIONS, 1, 4096, "connections");
        int warmup = intIn(props, P_WARMUP_SECONDS, 0, 3600, "seconds");
        int max = intIn(props, P_MAX_SECONDS, 1, 3600, "seconds");
        int fixed = intIn(props, P_FIXED_SECONDS, 1, 3600, "seconds");
        String f = get(props, P_LOAD_FRACTION);
        double fraction;
        try {
            fraction = Double.parseDouble(f);
        } catch (NumberFormatException e) {
            throw invalid(P_LOAD_FRACTION, f, "must be a number between 0 and 1, e.g. 0.75");
        }
        if (!(fraction > 0 && fraction <= 1)) {
            throw invalid(P_LOAD_FRACTION, f, "must be above 0 and at most 1, e.g. 0.75");
        }
        return new LatencySettings(graphs, get(props, P_CELLS), connections, warmup, max, fixed, fraction);
    }

    /** Every setting as a property, defaults included (for the results' settings). */
    public Map<String, String> asProperties() {
        return Map.of(P_GRAPHS, String.join(",", graphs), P_CELLS, cells, P_CONNECTIONS, Integer.toString(connections),
                P_WARMUP_SECONDS, Integer.toString(warmupSeconds), P_MAX_SECONDS, Integer.toString(maxSeconds),
                P_FIXED_SECONDS, Integer.toString(fixedSeconds), P_LOAD_FRACTION, java.math.BigDecimal.valueOf(loadFraction)
                        .stripTrailingZeros().toPlainString());
    }

    /** Wall time of the load of one cell. */
    public int loadSecondsPerCell() {
        return warmupSeconds + maxSeconds + fixedSeconds;
    }

    /**
     * File descriptors one generator connection costs the busiest process: the generator's socket (in Maven's JVM),
     * and on the local target the accepting proxy's two (the connection in, its relay to the next hop); 4 leaves room
     * for the processes' own files.
     */
    public static final int FILES_PER_CONNECTION = 4;

    /**
     * Refuses more {@value #P_CONNECTIONS} than the open-files limit ({@code ulimit -n}, inherited by what Maven starts)
     * allows at {@value #FILES_PER_CONNECTION} per connection, naming the property, the value and the rule; no bound
     * when the limit is unknown (0 or less).
     */
    public void checkOpenFiles(long openFiles) {
        if (openFiles > 0 && (long) connections * FILES_PER_CONNECTION > openFiles) {
            throw invalid(P_CONNECTIONS, Integer.toString(connections), "is above the " + openFiles / FILES_PER_CONNECTION
                    + " this machine's open-files limit allows (ulimit -n " + openFiles + " / " + FILES_PER_CONNECTION
                    + " descriptors per connection); raise the limit or give fewer connections");
        }
    }

    private static String get(Map<String, String> props, String key) {
        String v = props.get(key);
        return v == null || v.isBlank() ? DEFAULTS.get(key) : v.trim();
    }

    private static int intIn(Map<String, String> props, String key, int min, int max, String unit) {
        String v = get(props, key);
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw invalid(key, v, "must be a whole number of " + unit);
        }
        if (n < min || n > max) {
            throw invalid(key, v, "must be between " + min + " and " + max + " " + unit);
        }
        return n;
    }

    private static IllegalArgumentException invalid(String key, String value, String rule) {
        return new IllegalArgumentException(String.format(Locale.ROOT, "%s=%s: %s", key, value, rule));
    }
}
