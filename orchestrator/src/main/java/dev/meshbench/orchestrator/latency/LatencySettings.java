package dev.meshbench.orchestrator.latency;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Parsers;
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
 * @param stableWarmup  whether the warm-up ends when warm ({@code meshbench.latency.warmup=stable}), {@code warmupSeconds}
 *                      then being its cap
 */
public record LatencySettings(List<String> graphs, String cells, int connections, int warmupSeconds, int maxSeconds, int fixedSeconds,
        double loadFraction, boolean stableWarmup) {
    public static final String P_GRAPHS = Catalogue.LATENCY_GRAPHS.name();
    public static final String P_CELLS = Catalogue.LATENCY_CELLS.name();
    public static final String P_CONNECTIONS = Catalogue.LATENCY_CONNECTIONS.name();
    public static final String P_WARMUP_SECONDS = Catalogue.LATENCY_WARMUP_SECONDS.name();
    public static final String P_MAX_SECONDS = Catalogue.LATENCY_MAX_SECONDS.name();
    public static final String P_FIXED_SECONDS = Catalogue.LATENCY_FIXED_SECONDS.name();
    public static final String P_LOAD_FRACTION = Catalogue.LATENCY_LOAD_FRACTION.name();
    public static final String P_WARMUP = Catalogue.LATENCY_WARMUP.name();
    /** The smallest cap of a stable warm-up: the windows its rule needs. */
    static final int STABLE_MIN_SECONDS = Catalogue.WARMUP_WINDOW_SECONDS * Catalogue.WARMUP_TREND_WINDOWS;

    public LatencySettings {
        graphs = List.copyOf(graphs);
        if (graphs.isEmpty()) {
            throw new IllegalArgumentException(P_GRAPHS + " must name at least one graph");
        }
        if (stableWarmup && warmupSeconds < STABLE_MIN_SECONDS) {
            throw invalid(P_WARMUP_SECONDS, Integer.toString(warmupSeconds), "is the cap of the warm-up with " + P_WARMUP + "="
                    + Catalogue.LATENCY_WARMUP_STABLE + ", which judges " + Catalogue.WARMUP_TREND_WINDOWS + " windows of "
                    + Catalogue.WARMUP_WINDOW_SECONDS + " s: give " + STABLE_MIN_SECONDS + " or more (120 lets a cold JVM warm)");
        }
    }

    /** A fixed warm-up of {@code warmupSeconds}. */
    public LatencySettings(List<String> graphs, String cells, int connections, int warmupSeconds, int maxSeconds, int fixedSeconds,
            double loadFraction) {
        this(graphs, cells, connections, warmupSeconds, maxSeconds, fixedSeconds, loadFraction, false);
    }

    /** The settings from properties, the catalogue's defaults for absent ones; a bad value is refused naming its property. */
    public static LatencySettings fromProperties(Map<String, String> props) {
        return new LatencySettings(Catalogue.LATENCY_GRAPHS.value(props), Catalogue.LATENCY_CELLS.value(props),
                Catalogue.LATENCY_CONNECTIONS.value(props), Catalogue.LATENCY_WARMUP_SECONDS.value(props),
                Catalogue.LATENCY_MAX_SECONDS.value(props), Catalogue.LATENCY_FIXED_SECONDS.value(props),
                Catalogue.LATENCY_LOAD_FRACTION.value(props), Catalogue.LATENCY_WARMUP.value(props).equals(Catalogue.LATENCY_WARMUP_STABLE));
    }

    /** Every setting as a property, defaults included (for the results' settings). */
    public Map<String, String> asProperties() {
        return Map.of(P_GRAPHS, String.join(",", graphs), P_CELLS, cells, P_CONNECTIONS, Integer.toString(connections),
                P_WARMUP_SECONDS, Integer.toString(warmupSeconds), P_MAX_SECONDS, Integer.toString(maxSeconds),
                P_FIXED_SECONDS, Integer.toString(fixedSeconds), P_LOAD_FRACTION, Parsers.plain(loadFraction),
                P_WARMUP, stableWarmup ? Catalogue.LATENCY_WARMUP_STABLE : Catalogue.LATENCY_WARMUP_FIXED);
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
     * Refuses more {@code meshbench.latency.connections} than the open-files limit ({@code ulimit -n}, inherited by what Maven starts)
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

    private static IllegalArgumentException invalid(String key, String value, String rule) {
        return new IllegalArgumentException(String.format(Locale.ROOT, "%s=%s: %s", key, value, rule));
    }
}
