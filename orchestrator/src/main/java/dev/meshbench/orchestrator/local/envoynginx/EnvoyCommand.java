package dev.meshbench.orchestrator.local.envoynginx;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Envoy's command line (after the binary) for one proxy of a run:
 * <pre>{@code -c <bootstrap> --concurrency <workers> --disable-hot-restart --log-level warn --drain-time-s 1 --parent-shutdown-time-s 2}</pre>
 * <ul>
 *   <li>{@code --disable-hot-restart}: no shared-memory region and no hot-restart domain socket, so several Envoys
 *       run side by side with the default base id; {@code --base-id}/{@code --use-dynamic-base-id} only matter when hot
 *       restart is on (checked against Envoy 1.40: two instances with the same default base id start together);</li>
 *   <li>{@code --drain-time-s 1 --parent-shutdown-time-s 2}: keep any drain short (Envoy exits at once on SIGTERM);
 *       the drain time bounds how long connections accepted under a listener or filter chain that a case switch
 *       replaces or removes stay open ({@link EnvoyConfigs}); the parent shutdown time only matters for hot restart;</li>
 *   <li>Envoy's own log goes to stderr unless a log file is given ({@code --log-path}); the supervisor captures
 *       stdout and stderr of the process into the component's log.</li>
 * </ul>
 */
public final class EnvoyCommand {
    /** Envoy's own log level: warnings and errors only, so the log costs nothing under load. */
    public static final String LOG_LEVEL = "warn";
    /** How long Envoy drains a listener (or filter chain) that a configuration change replaces or removes (--drain-time-s). */
    public static final int DRAIN_SECONDS = 1;
    static final int PARENT_SHUTDOWN_SECONDS = 2;

    private EnvoyCommand() {
    }

    /** The arguments for a proxy whose bootstrap is {@code bootstrap}, logging to stderr. */
    public static List<String> args(Path bootstrap, int workers) {
        return args(bootstrap, workers, null);
    }

    /**
     * The arguments for a proxy whose bootstrap is {@code bootstrap}.
     *
     * @param workers Envoy worker threads ({@code --concurrency}), at least 1
     * @param logFile where Envoy writes its own log, or null for stderr
     */
    public static List<String> args(Path bootstrap, int workers, Path logFile) {
        Objects.requireNonNull(bootstrap, "bootstrap");
        if (workers < 1) {
            throw new IllegalArgumentException("Envoy workers (" + workers + ") must be at least 1");
        }
        List<String> args = new ArrayList<>(List.of(
                "-c", bootstrap.toString(),
                "--concurrency", Integer.toString(workers),
                "--disable-hot-restart",
                "--log-level", LOG_LEVEL,
                "--drain-time-s", Integer.toString(DRAIN_SECONDS),
                "--parent-shutdown-time-s", Integer.toString(PARENT_SHUTDOWN_SECONDS)));
        if (logFile != null) {
            args.addAll(List.of("--log-path", logFile.toString()));
        }
        return List.copyOf(args);
    }

    /** The arguments that only check a bootstrap ({@code --mode validate}) and exit. */
    public static List<String> validateArgs(Path bootstrap) {
        Objects.requireNonNull(bootstrap, "bootstrap");
        return List.of("--mode", "validate", "-c", bootstrap.toString(), "--disable-hot-restart", "--log-level", LOG_LEVEL);
    }
}
