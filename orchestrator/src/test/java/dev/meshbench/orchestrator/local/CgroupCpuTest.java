package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.lifetime.Leftovers;
import dev.meshbench.results.ComponentRole;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each component in a cgroup of its own, on this machine's real cgroup file systems: {@code /sys/fs/cgroup} (v1, or v2
 * on a pure v2 machine) and, where a hybrid machine mounts one, the v2 hierarchy at {@code /sys/fs/cgroup/unified}.
 * Skipped where cgroups are not writable (not Linux, not root). The busy loops are {@code sh}; nothing asserts on how
 * long anything took: a process is stopped (SIGSTOP) before two counters are compared, waits are for events with a
 * timeout that only fails a hung test, and a limit is checked against a bound well above it and the kernel's own
 * throttling count.
 */
class CgroupCpuTest {
    private static final String BUSY = "while :; do :; done";
    private static final Duration READY = Duration.ofSeconds(30);
    private static final Duration EVENT_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path logs;

    private final List<ProcessSupervisor> supervisors = new ArrayList<>();
    private final List<ComponentCgroups> deployments = new ArrayList<>();
    private final List<Cgroups> opened = new ArrayList<>();

    static Stream<Path> roots() {
        return Stream.of(Leftovers.CGROUP_ROOT, Leftovers.CGROUP_ROOT.resolve("unified"));
    }

    @AfterEach
    void noGroupsLeft() {
        supervisors.forEach(ProcessSupervisor::close);
        for (int i = 0; i < deployments.size(); i++) {
            for (Path hierarchy : opened.get(i).hierarchies()) {
                Path folder = hierarchy.resolve(Leftovers.CGROUP_PARENT).resolve(deployments.get(i).id());
                assertFalse(Files.exists(folder), folder + " is left behind");
            }
        }
    }

    private static Cgroups writable(Path root) {
        Optional<Cgroups> c = Cgroups.find(root);
        assumeTrue(c.isPresent(), "no writable cgroups at " + root);
        return c.get();
    }

    private ProcessSupervisor supervisor(Cgroups cgroups, CpuLimits limits) {
        ComponentCgroups deployment = cgroups.forDeployment("cgroup-test-" + UUID.randomUUID().toString().substring(0, 8), limits);
        deployments.add(deployment);
        opened.add(cgroups);
        ProcessSupervisor s = new ProcessSupervisor(logs, Duration.ofSeconds(2), null, Optional.of(deployment));
        supervisors.add(s);
        return s;
    }

    /** A component that is {@code sh -c <script>}, ready once it has printed its ready line. */
    private static ProcessSpec sh(String name, String script) {
        return new ProcessSpec(new Component(name, ComponentRole.MESH), List.of("/bin/sh", "-c", "echo " + ReadyLine.of(name) + "; " + script));
    }

    /** {@code component}'s group in each hierarchy. */
    private List<Path> groups(Cgroups cgroups, String component) {
        ComponentCgroups deployment = deployments.get(opened.lastIndexOf(cgroups));
        return cgroups.hierarchies().stream().map(h -> h.resolve(Leftovers.CGROUP_PARENT).resolve(deployment.id()).resolve(component)).toList();
    }

    @ParameterizedTest
    @MethodSource("roots")
    @DisplayName("a busy loop's CPU in its cgroup agrees with its utime + stime in /proc to a few clock ticks, and is what the samples say")
    void accountingAgreesWithProc(Path root) throws Exception {
        Cgroups cgroups = writable(root);
        ProcessSupervisor s = supervisor(cgroups, CpuLimits.NONE);
        s.start(sh("busy", BUSY), READY);
        long pid = s.processes().get(0).pid();
        await(() -> s.cgroupCpuNanos("busy").orElse(0) >= 300_000_000L, "300 ms of CPU in the group of busy");
        signal("STOP", pid);
        await(() -> "T".equals(state(pid)), "busy stopped");

        long group = s.cgroupCpuNanos("busy").orElseThrow();
        long proc = procCpuNanos(pid);
        long tick = 1_000_000_000L / clockTicks();
        // /proc counts in ticks, and from fork, a few ms before the process joined its group
        assertTrue(Math.abs(group - proc) <= 3 * tick + group / 100,
                cgroups.method().label() + ": group " + group / 1e6 + " ms, /proc " + proc / 1e6 + " ms (tick " + tick / 1e6 + " ms)");
        ResourceSample sample = LocalDeployment.sample(s).get(0);
        assertEquals(group / 1_000_000, sample.cpuMillis(), "cpu-samples.csv gets the group's count");
        assertEquals(cgroups.method(), s.cpuMethod());
        signal("CONT", pid);
    }

    @ParameterizedTest
    @MethodSource("roots")
    @DisplayName("the CPU of a child that exited still counts in the cgroup, where /proc's live tree has lost it")
    void exitedChildStillCounts(Path root) throws Exception {
        Cgroups cgroups = writable(root);
        ProcessSupervisor s = supervisor(cgroups, CpuLimits.NONE);
        // A worker that burns CPU and exits, as nginx's do when reloaded; the master reaps it and says what it used.
        s.start(sh("master", "( i=0; while [ $i -lt 1000000 ]; do i=$((i+1)); done ); times; echo worker-done; "
                + "while :; do sleep 1; done"), READY);
        Path log = logs.resolve("master.log");
        await(() -> read(log).contains("worker-done"), "the worker to finish");
        // dash's times: the shell's own user and system time, then its reaped children's
        Matcher m = Pattern.compile("(\\d+)m([\\d.]+)s (\\d+)m([\\d.]+)s").matcher(read(log));
        assertTrue(m.find() && m.find(), read(log));
        long worker = (long) ((Long.parseLong(m.group(1)) * 60 + Double.parseDouble(m.group(2))
                + Long.parseLong(m.group(3)) * 60 + Double.parseDouble(m.group(4))) * 1e9);
        assertTrue(worker > 0, read(log));

        long group = s.cgroupCpuNanos("master").orElseThrow();
        long sampled = ProcessResources.cpuMillis(s.processes().get(0).handle()) * 1_000_000;
        long tick = 1_000_000_000L / clockTicks();
        assertTrue(group >= worker - tick, "group " + group / 1e6 + " ms must hold the worker's " + worker / 1e6 + " ms");
        assertTrue(sampled + worker / 2 < group, "the live tree in /proc (" + sampled / 1e6 + " ms) lost the worker's "
                + worker / 1e6 + " ms; the group has " + group / 1e6 + " ms");
    }

    @ParameterizedTest
    @MethodSource("roots")
    @DisplayName("closing the supervisor ends every process in the groups, workers included, and removes every group")
    void groupsRemovedOnClose(Path root) throws Exception {
        Cgroups cgroups = writable(root);
        ProcessSupervisor s = supervisor(cgroups, CpuLimits.NONE);
        s.start(sh("busy", BUSY), READY);
        s.start(sh("forking", "sleep 300 & sleep 300 & wait"), READY);
        await(() -> tasks(groups(cgroups, "forking").get(0)).size() == 3, "the forking component's two workers");
        List<Path> all = new ArrayList<>(groups(cgroups, "busy"));
        all.addAll(groups(cgroups, "forking"));
        all.forEach(g -> assertTrue(Files.isDirectory(g), g + " made"));
        List<Long> processes = tasks(groups(cgroups, "forking").get(0));

        s.close();
        all.forEach(g -> assertFalse(Files.exists(g), g + " removed"));
        assertFalse(Files.exists(all.get(0).getParent()), "the deployment's folder removed");
        // A group can only be removed once the kernel lists no task in it: they have ended (a zombie may await its reaper).
        assertEquals(List.of(), processes.stream().filter(CgroupCpuTest::running).toList(), "every process in the group ended");
    }

    @ParameterizedTest
    @MethodSource("roots")
    @DisplayName("a start that fails removes the component's groups at once, and ends the worker its process left in them")
    void groupsRemovedOnFailedStart(Path root) throws Exception {
        Cgroups cgroups = writable(root);
        ProcessSupervisor s = supervisor(cgroups, CpuLimits.NONE);
        ProcessSpec dies = new ProcessSpec(new Component("sni-proxy", ComponentRole.MESH), List.of("/bin/sh", "-c",
                "sleep 300 >/dev/null 2>&1 & echo \"worker $!\"; echo 'bind() to 127.0.0.1:1 failed (98: Address already in use)' >&2; exit 1"));
        TargetException e = assertThrows(TargetException.class, () -> s.start(dies, READY));
        assertTrue(e.getMessage().startsWith("starting sni-proxy failed: sni-proxy exited with code 1"), e.getMessage());
        groups(cgroups, "sni-proxy").forEach(g -> assertFalse(Files.exists(g), g + " removed before the supervisor closes"));
        Matcher worker = Pattern.compile("worker (\\d+)").matcher(read(logs.resolve("sni-proxy.log")));
        assertTrue(worker.find(), read(logs.resolve("sni-proxy.log")));
        long pid = Long.parseLong(worker.group(1));
        assertFalse(running(pid), "the worker " + pid + " ended with its group");
    }

    @ParameterizedTest
    @MethodSource("roots")
    @DisplayName("a 0.2-core limit holds a busy loop well under one core, and the kernel throttles it")
    void limitCapsBusyLoop(Path root) throws Exception {
        Cgroups cgroups = writable(root);
        assumeTrue(cgroups.limitsUnavailable().isEmpty(), () -> "no CPU limits at " + root + ": " + cgroups.limitsUnavailable().get());
        ProcessSupervisor s = supervisor(cgroups, CpuLimits.fromProperties(Map.of(CpuLimits.P_CPU_LIMITS, "sidecar=200m")));
        long started = System.nanoTime();
        s.start(sh("sidecar-busy", BUSY), READY);
        Path limited = cgroups.limitHierarchy().orElseThrow().resolve(Leftovers.CGROUP_PARENT)
                .resolve(deployments.get(0).id()).resolve("sidecar-busy");
        assertEquals(cgroups.method() == CpuMethod.CGROUP_V1 ? "20000" : "20000 100000",
                read(limited.resolve(cgroups.method() == CpuMethod.CGROUP_V1 ? "cpu.cfs_quota_us" : "cpu.max")).trim());
        await(() -> s.cgroupCpuNanos("sidecar-busy").orElse(0) >= 400_000_000L, "400 ms of CPU at 0.2 cores");
        long pid = s.processes().get(0).pid();
        signal("STOP", pid);
        await(() -> "T".equals(state(pid)), "the loop stopped");

        long used = s.cgroupCpuNanos("sidecar-busy").orElseThrow();
        double cores = used / (double) (System.nanoTime() - started);
        // Unlimited it takes a whole core; a slower machine only lowers the figure.
        assertTrue(cores < 0.2 * 2, "a 0.2-core limit used " + cores + " cores");
        Map<String, Long> stat = stat(limited.resolve("cpu.stat"));
        assertTrue(stat.getOrDefault("nr_throttled", 0L) > 0, "throttled: " + stat);
        // The kernel's own clock: at most the quota in each period it ran (one period's slack for the first and last).
        assertTrue(used <= (stat.get("nr_periods") + 2) * 20_000_000L, used / 1e6 + " ms in " + stat.get("nr_periods") + " periods");
        signal("CONT", pid);
    }

    @ParameterizedTest
    @MethodSource("roots")
    @DisplayName("the next run's sweep removes the groups of a run whose process is gone, and leaves a live run's")
    void sweepRemovesDeadRunsGroups(Path root) throws Exception {
        Cgroups cgroups = writable(root);
        ProcessSupervisor s = supervisor(cgroups, CpuLimits.NONE);
        s.start(sh("busy", BUSY), READY);
        String dead = "999999999-sni-" + UUID.randomUUID().toString().substring(0, 8); // above any pid_max
        for (Path hierarchy : cgroups.hierarchies()) {
            Files.createDirectories(hierarchy.resolve(Leftovers.CGROUP_PARENT).resolve(dead).resolve("sidecar-auth"));
        }

        List<String> said = Leftovers.sweep(logs, null, root);
        assertTrue(said.contains("removed the cgroups a killed run left (its process, pid 999999999, is gone): meshbench/" + dead
                + " (sidecar-auth)"), said.toString());
        for (Path hierarchy : cgroups.hierarchies()) {
            assertFalse(Files.exists(hierarchy.resolve(Leftovers.CGROUP_PARENT).resolve(dead)), "dead run's groups removed");
        }
        groups(cgroups, "busy").forEach(g -> assertTrue(Files.isDirectory(g), g + " of a live run stays"));
        assertTrue(s.processes().get(0).isAlive());
    }

    @Test
    @DisplayName("where the cgroup root is no cgroup file system, CPU is sampled from /proc, and CPU limits are refused naming the setting")
    void fallbackAndRefusal(@TempDir Path fakeRoot) throws IOException {
        Files.createDirectories(fakeRoot.resolve("cpuacct"));
        Files.writeString(fakeRoot.resolve("cpuacct/cpuacct.usage"), "0\n");
        assertEquals(Optional.empty(), Cgroups.find(fakeRoot));
        assertEquals(Optional.empty(), CpuLimits.NONE.cgroupsAt(fakeRoot));
        assertFalse(Files.exists(fakeRoot.resolve("cpuacct").resolve(Leftovers.CGROUP_PARENT)), "the probe leaves nothing");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CpuLimits.fromProperties(Map.of(CpuLimits.P_CPU_LIMITS, "sidecar=0.5,egress-gateway=1")).cgroupsAt(fakeRoot));
        assertEquals("meshbench.cpuLimits=egress-gateway=1,sidecar=0.5: CPU limits need writable cgroups with CFS quotas (Linux, "
                + "as root), checked before anything starts; cgroups are not writable here: " + fakeRoot.resolve("cpuacct")
                + " is not a cgroup file system (a folder made there has no cgroup.procs)", e.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CpuLimits.fromProperties(Map.of(CpuLimits.P_CPU_LIMITS,
                "mongo=1")).cgroupsAt(fakeRoot.resolve("absent"))).getMessage().contains("cgroups are not writable here: no cgroup v2"));
        try (ProcessSupervisor s = new ProcessSupervisor(logs, Duration.ofSeconds(2))) {
            assertEquals(CpuMethod.PROC_SAMPLED, s.cpuMethod());
            assertTrue(s.cgroupCpuNanos("anything").isEmpty());
        }
    }

    @Test
    @DisplayName("CPU limits apply by kind: every service's sidecar by sidecar, the others by name")
    void limitsByKind() {
        CpuLimits limits = CpuLimits.fromProperties(Map.of(CpuLimits.P_CPU_LIMITS, "sidecar=0.5,egress-gateway=1,mongo=250m"));
        assertEquals(0.5, limits.of("sidecar-auth").orElseThrow());
        assertEquals(0.5, limits.of("sidecar-booking").orElseThrow());
        assertEquals(1.0, limits.of("egress-gateway").orElseThrow());
        assertEquals(0.25, limits.of("mongo").orElseThrow());
        assertTrue(limits.of("auth").isEmpty());
        assertTrue(limits.of("ingress-gateway").isEmpty());
        assertEquals(25_000, CpuLimits.quotaMicros(0.25));
        assertEquals(Map.of("meshbench.cpuLimits", "egress-gateway=1,mongo=0.25,sidecar=0.5"), limits.asProperties());
        assertEquals(Map.of(), CpuLimits.fromProperties(Map.of()).asProperties());
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + EVENT_TIMEOUT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("waited " + EVENT_TIMEOUT.toSeconds() + " s for " + what);
            }
            Thread.sleep(50);
        }
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor());
    }

    /** Fields of {@code /proc/<pid>/stat} after the command: state first; empty when the process is gone. */
    private static List<String> procStat(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return List.of(stat.substring(stat.lastIndexOf(')') + 2).trim().split(" "));
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Whether {@code pid} runs: exists and has not ended (a zombie only waits to be reaped). */
    private static boolean running(long pid) {
        String state = state(pid);
        return !state.isEmpty() && !state.equals("Z") && !state.equals("X");
    }

    private static String state(long pid) {
        List<String> f = procStat(pid);
        return f.isEmpty() ? "" : f.get(0);
    }

    /** utime + stime of one process ({@code /proc/<pid>/stat} fields 14 and 15), ns. */
    private static long procCpuNanos(long pid) throws IOException, InterruptedException {
        List<String> f = procStat(pid);
        return (Long.parseLong(f.get(11)) + Long.parseLong(f.get(12))) * (1_000_000_000L / clockTicks());
    }

    private static long clockTicks() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("getconf", "CLK_TCK").start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertEquals(0, p.waitFor());
        return Long.parseLong(out);
    }

    private static List<Long> tasks(Path group) {
        return read(group.resolve("cgroup.procs")).lines().map(String::trim).filter(l -> !l.isEmpty()).map(Long::parseLong).toList();
    }

    private static Map<String, Long> stat(Path file) {
        Map<String, Long> out = new java.util.HashMap<>();
        read(file).lines().map(l -> l.split(" ")).filter(f -> f.length == 2).forEach(f -> out.put(f[0], Long.parseLong(f[1])));
        return out;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
