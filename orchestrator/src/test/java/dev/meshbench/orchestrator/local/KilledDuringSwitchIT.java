package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.lifetime.Leftovers;
import dev.meshbench.orchestrator.plan.DataPlane;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code kill -9} of a real orchestrator in the middle of a sitting's switch ({@code meshbench.jar run --cases all},
 * the switched method: the second window's case being switched in) leaves no process (components, the egress chain it
 * was starting, JMeter), no listener and no key file.
 */
class KilledDuringSwitchIT {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    /** Generous: it waits for an event (everything gone), it does not time anything. */
    private static final long DEADLINE_MS = 60_000;

    @TempDir
    Path tmp;
    @TempDir
    Path results;

    @ParameterizedTest(name = "{0}: kill -9 during a switch leaves no process, listener or key file")
    @EnumSource(DataPlane.class)
    void nothingOutlivesAKillDuringASwitch(DataPlane plane) throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")) && Files.isExecutable(Path.of("/usr/bin/setsid")),
                "needs /proc and util-linux's setsid");
        DataPlanes.of(plane, true); // skips, saying why, where Envoy or nginx is missing
        Path jar = ROOT.resolve("orchestrator/target/meshbench.jar");
        assertTrue(Files.isRegularFile(jar), jar + " (built at package)");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp, "-jar", jar.toString(), "run", "--cases", "all", "-Dmeshbench.dataplane=" + plane.id(),
                "-Dmeshbench.rate=100", "-Dmeshbench.warmup=0", "-Dmeshbench.stepSeconds=3", "-Dmeshbench.warmupSeconds=1",
                "-Dmeshbench.repeats=1", "-Dmeshbench.customers=50", "-Dmeshbench.flightDays=2", "-Dmeshbench.resultsDir=" + results));
        String envoy = System.getProperty(LocalDataPlane.P_ENVOY_BINARY);
        if (envoy != null) {
            cmd.add("-D" + LocalDataPlane.P_ENVOY_BINARY + "=" + envoy);
        }
        Process run = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true).start();
        StringBuilder said = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("[meshbench] window 1 of")) {
                said.append(line).append('\n');
            }
            assertTrue(line != null, "the sitting never reached its first window:\n" + said);
            // bypass is measured now: the deployment is up, with its keys and listeners
            Path work;
            try (Stream<Path> s = Files.list(tmp)) {
                work = s.filter(p -> p.getFileName().toString().startsWith("meshbench-bypass-")).findFirst().orElseThrow();
            }
            List<Path> keys;
            try (Stream<Path> s = Files.walk(work)) {
                keys = s.filter(p -> p.toString().endsWith(".key") || p.toString().endsWith(".pem")).toList();
            }
            assertTrue(keys.size() >= 5, "the deployment's keys and certificates: " + keys);
            Set<Integer> ports = listeningPorts(run.toHandle().descendants().toList());
            assertTrue(ports.size() >= 10, "listeners of the deployment: " + ports);
            // the second window begins with its case's switch (sidecar: new configurations, MongoDB clients re-pointed)
            while ((line = out.readLine()) != null && !line.startsWith("[meshbench] window 2 of")) {
                said.append(line).append('\n');
            }
            assertTrue(line != null, "the sitting never reached its second window:\n" + said);
            List<ProcessHandle> processes = run.toHandle().descendants().toList();
            List<String> commands = processes.stream().map(p -> p.info().commandLine().orElse("?")).toList();
            run.destroyForcibly();
            assertTrue(run.waitFor(30, TimeUnit.SECONDS));
            try (Stream<Path> s = Files.list(results)) {
                assertEquals(List.of(), s.filter(p -> p.getFileName().toString().endsWith("-sidecar")).toList(),
                        "killed before the switch was through: the sidecar window had not begun");
            }
            assertTrue(commands.stream().anyMatch(c -> c.contains("ApacheJMeter")), "JMeter among the processes: " + commands);
            long end = System.currentTimeMillis() + DEADLINE_MS;
            while (System.currentTimeMillis() < end && (processes.stream().anyMatch(ProcessHandle::isAlive) || Files.exists(work))) {
                Thread.sleep(200);
            }
            assertEquals(List.of(), processes.stream().filter(ProcessHandle::isAlive)
                    .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList(), "processes left running");
            assertFalse(Files.exists(work), "work folder " + work + " with the keys is still there");
            assertEquals(List.of(), keys.stream().filter(Files::exists).toList(), "key files left");
            List<Integer> stillListening = new ArrayList<>();
            for (int port : ports) {
                try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                    assertTrue(s.isBound());
                } catch (IOException e) {
                    stillListening.add(port);
                }
            }
            assertEquals(List.of(), stillListening, "ports still taken after the kill");
        } finally {
            run.destroyForcibly();
        }
    }

    /** The TCP ports {@code processes} listen on ({@code /proc/<pid>/fd} socket inodes in {@code /proc/net/tcp*}). */
    private static Set<Integer> listeningPorts(List<ProcessHandle> processes) throws IOException {
        Set<Long> inodes = new HashSet<>();
        for (ProcessHandle p : processes) {
            try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(p.pid()), "fd"))) {
                for (Path fd : fds.toList()) {
                    try {
                        String t = Files.readSymbolicLink(fd).toString();
                        if (t.startsWith("socket:[")) {
                            inodes.add(Long.parseLong(t.substring(8, t.length() - 1)));
                        }
                    } catch (IOException e) {
                        // closed while we looked
                    }
                }
            }
        }
        Set<Integer> ports = new TreeSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path t = Path.of(table);
            if (!Files.exists(t)) {
                continue;
            }
            List<String> lines = Files.readAllLines(t);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                // st 0A = LISTEN
                if (f.length > 9 && "0A".equals(f[3]) && inodes.contains(Long.parseLong(f[9]))) {
                    ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16));
                }
            }
        }
        return ports;
    }
}
