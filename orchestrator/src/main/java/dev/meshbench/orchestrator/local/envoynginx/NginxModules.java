package dev.meshbench.orchestrator.local.envoynginx;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an nginx binary's {@code stream} module is. Debian's {@code nginx-light} builds it as a dynamic module
 * ({@code --with-stream=dynamic}, file {@code ngx_stream_module.so} from {@code libnginx-mod-stream}) that a config
 * must {@code load_module}; other builds have it built in ({@code --with-stream}).
 */
public final class NginxModules {
    /** The dynamic module's file name. */
    public static final String STREAM_MODULE_FILE = "ngx_stream_module.so";
    /** Where distributions put dynamic modules, looked at after the binary's own {@code --modules-path}. */
    public static final List<Path> USUAL_DIRS = List.of(Path.of("/usr/lib/nginx/modules"), Path.of("/usr/share/nginx/modules"),
            Path.of("/usr/lib64/nginx/modules"), Path.of("/usr/local/nginx/modules"));
    /** How to get an nginx with the stream module on Debian and Ubuntu. */
    public static final String INSTALL_HINT = "apt-get install nginx-light libnginx-mod-stream";

    private static final Pattern OPTION = Pattern.compile("--([a-z0-9_-]+)(?:=('[^']*'|\\S*))?");

    private NginxModules() {
    }

    /**
     * The stream module {@code nginx} must load, from {@code nginx -V}: empty when it is built in, else the first
     * {@value #STREAM_MODULE_FILE} in the binary's {@code --modules-path}, {@code <--prefix>/modules} or
     * {@link #USUAL_DIRS}.
     *
     * @throws IllegalArgumentException when nginx has no stream module (or no {@code ssl_preread}), naming the
     *                                  packages to install
     */
    public static Optional<Path> streamModule(Path nginxBinary) {
        NativeBinaries.Result r = NativeBinaries.run(List.of(nginxBinary.toString(), "-V"));
        if (r.exitCode() != 0) {
            throw new IllegalArgumentException("reading the build options of " + nginxBinary + " (-V) failed with exit code "
                    + r.exitCode() + ": " + r.output().strip());
        }
        return streamModule(nginxBinary, r.output(), Files::isRegularFile);
    }

    /**
     * The stream module, from the text of {@code nginx -V} without running anything; {@code isFile} says whether a
     * candidate module file exists. Built in: empty. Dynamic: the first file found.
     */
    static Optional<Path> streamModule(Path nginxBinary, String versionOutput, Predicate<Path> isFile) {
        List<String[]> options = options(versionOutput);
        String stream = null;
        boolean sslPreread = false;
        String modulesPath = null;
        String prefix = null;
        for (String[] o : options) {
            switch (o[0]) {
                case "with-stream" -> stream = o[1] == null ? "static" : o[1];
                case "with-stream_ssl_preread_module" -> sslPreread = true;
                case "modules-path" -> modulesPath = o[1];
                case "prefix" -> prefix = o[1];
                default -> {
                    // other build options do not matter here
                }
            }
        }
        if (stream != null && !sslPreread) {
            throw new IllegalArgumentException(nginxBinary + " has the stream module but was built without ssl_preread"
                    + " (--with-stream_ssl_preread_module), which the SNI proxy needs: " + INSTALL_HINT);
        }
        if (stream == null) {
            throw new IllegalArgumentException(nginxBinary + " has no stream module: its build options (nginx -V) have no "
                    + "--with-stream, so a " + STREAM_MODULE_FILE + " lying around would not load into it; install an "
                    + "nginx with it: '" + INSTALL_HINT + "'");
        }
        if ("static".equals(stream)) {
            return Optional.empty();
        }
        Set<Path> dirs = new LinkedHashSet<>();
        if (modulesPath != null && !modulesPath.isEmpty()) {
            dirs.add(Path.of(modulesPath));
        }
        if (prefix != null && !prefix.isEmpty()) {
            dirs.add(Path.of(prefix, "modules"));
        }
        dirs.addAll(USUAL_DIRS);
        for (Path dir : dirs) {
            Path candidate = dir.resolve(STREAM_MODULE_FILE);
            if (isFile.test(candidate)) {
                return Optional.of(candidate);
            }
        }
        throw new IllegalArgumentException(nginxBinary + " has no stream module: "
                + "it is built as a dynamic module but no " + STREAM_MODULE_FILE + " in " + dirs + "; install it with '" + INSTALL_HINT + "'");
    }

    /** {@code --name} or {@code --name=value} options of {@code nginx -V}, in order ({@code [name, value-or-null]}). */
    private static List<String[]> options(String versionOutput) {
        List<String[]> out = new ArrayList<>();
        for (String line : versionOutput.split("\\R")) {
            if (!line.startsWith("configure arguments:")) {
                continue;
            }
            Matcher m = OPTION.matcher(line.substring("configure arguments:".length()));
            while (m.find()) {
                String value = m.group(2);
                if (value != null && value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
                    value = value.substring(1, value.length() - 1);
                }
                out.add(new String[] {m.group(1), value});
            }
        }
        return out;
    }
}
