package dev.meshbench.orchestrator.local.envoynginx;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * nginx's command line (after the binary) for the SNI proxy: {@code -c <conf> -p <workDir>/ -e stderr}.
 * {@code -p} makes the work folder nginx's prefix (nothing resolves under the compiled-in {@code /usr/share/nginx});
 * {@code -e stderr} (nginx 1.19.5 and later) sends the messages nginx prints before it has read the config to
 * stderr instead of the compiled-in error log path, which may be root-only. The config itself keeps nginx in the
 * foreground ({@code daemon off}), so the supervisor owns the master process; stopping it (SIGTERM, a fast
 * shutdown) stops the workers too.
 */
public final class NginxCommand {
    private NginxCommand() {
    }

    public static List<String> args(Path conf, Path workDir) {
        Objects.requireNonNull(conf, "conf");
        Objects.requireNonNull(workDir, "workDir");
        return List.of("-c", conf.toAbsolutePath().toString(), "-p", prefix(workDir), "-e", "stderr");
    }

    /** The arguments that only check a config ({@code -t}) and exit. */
    public static List<String> testArgs(Path conf, Path workDir) {
        Objects.requireNonNull(conf, "conf");
        Objects.requireNonNull(workDir, "workDir");
        return List.of("-t", "-q", "-c", conf.toAbsolutePath().toString(), "-p", prefix(workDir), "-e", "stderr");
    }

    private static String prefix(Path workDir) {
        String p = workDir.toAbsolutePath().toString();
        return p.endsWith("/") ? p : p + "/";
    }
}
