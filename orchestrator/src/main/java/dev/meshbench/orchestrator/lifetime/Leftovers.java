package dev.meshbench.orchestrator.lifetime;

import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunOwner;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.io.ResultsFormatException;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a killed run left, found and removed by the next run: its private work folders under the temporary
 * directory (keys first), the processes it had started that still run, its cgroups ({@value #CGROUP_PARENT}{@code
 * /<pid>-*}), and its run folder's {@code running} status, which becomes {@code failed} with a reason that starts
 * with {@value #ABANDONED}. Only folders whose recorded owner ({@link RunOwner}) is gone on this machine, and
 * cgroups whose owner's pid runs no process, are touched; a live run's are left alone.
 *
 * <p>The {@link Lifeline} watchdog does this at once when the kit dies; this is for when the watchdog died with it
 * (a kill of the whole process group, a machine without {@code sh}/{@code setsid}, a reboot).
 */
public final class Leftovers {
    private static final Logger LOG = LoggerFactory.getLogger(Leftovers.class);
    /** The process groups a folder's owner started ({@code <leader pid> <leader start instant>} a line). */
    public static final String GROUPS_FILE = "run.groups";
    /** How an abandoned run's failure reason starts. */
    public static final String ABANDONED = "abandoned: ";
    private static final Path PROC = Path.of("/proc");
    /** Where the cgroup file systems are mounted on Linux. */
    public static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");
    /**
     * The folder of the kit's cgroups in each hierarchy, apart from everyone else's (a kubelet's): a deployment's are
     * {@code meshbench/<owner pid>-<deployment>/<component>} ({@link #cgroupName}), so a sweep tells a dead run's
     * groups by their name.
     */
    public static final String CGROUP_PARENT = "meshbench";
    /** How long a sweep waits for the kernel to let go of a dead run's cgroup. */
    private static final Duration CGROUP_WAIT = Duration.ofSeconds(1);

    private Leftovers() {
    }

    /** Records in {@code folder} that its owner started process group {@code leader}. */
    static void recordGroup(Path folder, ProcessHandle leader) {
        String line = leader.pid() + " " + leader.info().startInstant().orElse(Instant.EPOCH) + "\n";
        try {
            Files.writeString(folder.resolve(GROUPS_FILE), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            LOG.warn("recording process {} in {} failed: {}", leader.pid(), folder, e.toString());
        }
    }

    /**
     * Cleans up after killed runs: work folders under {@code tempDir}, run folders under {@code resultsDir}.
     *
     * @return one line for a person per thing cleaned up (empty when there was nothing)
     */
    public static List<String> sweep(Path tempDir, Path resultsDir) {
        return sweep(tempDir, resultsDir, null);
    }

    /**
     * As {@link #sweep(Path, Path)}, and the cgroups of killed runs under {@code cgroupRoot} (none when {@code null}),
     * after their processes were ended.
     */
    public static List<String> sweep(Path tempDir, Path resultsDir, Path cgroupRoot) {
        List<String> said = new ArrayList<>();
        for (Path dir : children(tempDir)) {
            if (dir.getFileName().toString().startsWith(WorkFolders.PREFIX)) {
                gone(dir).ifPresent(owner -> said.add(removeWorkFolder(dir, owner)));
            }
        }
        if (resultsDir != null) {
            for (Path dir : children(resultsDir)) {
                markIfAbandoned(dir).ifPresent(said::add);
            }
        }
        if (cgroupRoot != null) {
            said.addAll(removeCgroups(cgroupRoot));
        }
        return said;
    }

    /**
     * Sweeps the JVM's temporary directory, {@code resultsDir} and the kit's cgroups, printing a line per thing it
     * cleaned up.
     */
    public static void sweepAndSay(Path resultsDir, java.io.PrintStream out) {
        for (String line : sweep(Path.of(System.getProperty("java.io.tmpdir")), resultsDir, CGROUP_ROOT)) {
            out.println("[meshbench] " + line);
        }
    }

    private static String removeWorkFolder(Path dir, RunOwner owner) {
        String ended = endGroups(dir);
        long bytes = WorkFolders.size(dir);
        int keys = WorkFolders.delete(dir);
        return String.format(Locale.ROOT, "removed what a killed run left (its process, %s, is gone): %s%d key file%s and "
                + "the work folder %s (%.1f MB)", owner.describe(), ended, keys, keys == 1 ? "" : "s", dir, bytes / 1e6);
    }

    /** A run folder left {@code running} by a process that is gone: its processes ended, its status made failed. */
    private static Optional<String> markIfAbandoned(Path runDir) {
        Path runJson = runDir.resolve(dev.meshbench.results.ResultsSchema.RUN_FILE);
        if (!Files.isRegularFile(runJson)) {
            return Optional.empty();
        }
        RunInputs in;
        try {
            in = ResultsJson.readRunInputs(runJson);
        } catch (ResultsFormatException e) {
            return Optional.empty();
        }
        if (in.status() != RunStatus.RUNNING) {
            return Optional.empty();
        }
        Optional<RunOwner> owner = gone(runDir);
        if (owner.isEmpty()) {
            return Optional.empty();
        }
        String ended = endGroups(runDir);
        String reason = abandonedReason(owner.get()) + " (marked by the run of "
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ")";
        try {
            ResultsJson.writeRunInputs(runJson, in.failed(reason));
        } catch (IOException e) {
            return Optional.of("run " + in.runId() + " is abandoned, but marking it in " + runJson + " failed: " + e.getMessage());
        }
        return Optional.of("run " + in.runId() + " (" + runDir + ") was left running by a process that is gone: "
                + ended + "marked failed, " + reason);
    }

    /** The reason an abandoned run is given. */
    public static String abandonedReason(RunOwner owner) {
        return ABANDONED + "the process that ran it (" + owner.describe() + ") ended before the run finished (killed?)";
    }

    /** The owner of {@code dir} if one is recorded and is gone. */
    private static Optional<RunOwner> gone(Path dir) {
        return RunOwner.readFrom(dir).filter(o -> o.state() == RunOwner.State.GONE);
    }

    /**
     * Ends every live process of every group {@code folder}'s owner recorded. A group's number cannot be reused while
     * a process is in the group, so members of a group whose leader is gone are the owner's; a live leader must have
     * the recorded start time.
     *
     * @return {@code "ended 3 processes (nginx 123, 124, 125); "} or the empty string
     */
    static String endGroups(Path folder) {
        Path groups = folder.resolve(GROUPS_FILE);
        if (!Files.isRegularFile(groups) || !Files.isDirectory(PROC)) {
            return "";
        }
        List<String> ended = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(groups, StandardCharsets.UTF_8)) {
                String[] f = line.trim().split(" ");
                if (f.length < 1 || f[0].isEmpty()) {
                    continue;
                }
                long leader = Long.parseLong(f[0]);
                Instant started = f.length > 1 ? Instant.parse(f[1]) : Instant.EPOCH;
                Optional<ProcessHandle> lead = ProcessHandle.of(leader);
                if (lead.isPresent() && !started.equals(Instant.EPOCH) && lead.get().info().startInstant()
                        .map(s -> Math.abs(s.toEpochMilli() - started.toEpochMilli()) > 1000).orElse(false)) {
                    continue; // a later process has the number
                }
                for (ProcessHandle p : members(leader)) {
                    String name = p.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("?");
                    if (p.destroyForcibly()) {
                        ended.add(name + " " + p.pid());
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("ending the processes recorded in {} failed: {}", groups, e.toString());
        }
        return ended.isEmpty() ? "" : "ended " + ended.size() + " process" + (ended.size() == 1 ? "" : "es") + " ("
                + String.join(", ", ended) + "); ";
    }

    /** The name of a deployment's cgroup folder under {@value #CGROUP_PARENT}: this process's id first, {@code 4242-sni-1234}. */
    public static String cgroupName(String deployment) {
        return ProcessHandle.current().pid() + "-" + deployment;
    }

    /**
     * Removes the cgroups of runs whose process is gone: {@value #CGROUP_PARENT}{@code /<pid>-*} in the cgroup v2
     * hierarchy at {@code cgroupRoot} and in each v1 hierarchy under it, when no process {@code pid} runs (a reused
     * pid keeps them until that process ends: never a live run's).
     *
     * @return one line per run whose groups were removed
     */
    static List<String> removeCgroups(Path cgroupRoot) {
        List<Path> parents = new ArrayList<>(List.of(cgroupRoot.resolve(CGROUP_PARENT)));
        children(cgroupRoot).forEach(hierarchy -> parents.add(hierarchy.resolve(CGROUP_PARENT)));
        Map<String, Set<String>> removed = new TreeMap<>();
        for (Path parent : parents) {
            boolean any = false;
            for (Path deployment : children(parent)) {
                String name = deployment.getFileName().toString();
                String pid = name.contains("-") ? name.substring(0, name.indexOf('-')) : "";
                if (pid.isEmpty() || pid.length() > 18 || !pid.chars().allMatch(Character::isDigit)
                        || ProcessHandle.of(Long.parseLong(pid)).isPresent()) {
                    continue;
                }
                Set<String> components = new TreeSet<>();
                for (Path component : children(deployment)) {
                    if (removeCgroup(component, CGROUP_WAIT)) {
                        components.add(component.getFileName().toString());
                    }
                }
                if (removeCgroup(deployment, CGROUP_WAIT)) {
                    removed.computeIfAbsent(name, k -> new TreeSet<>()).addAll(components);
                    any = true;
                }
            }
            if (any) {
                try {
                    Files.deleteIfExists(parent);
                } catch (IOException e) {
                    // a live run's groups are in it
                }
            }
        }
        List<String> said = new ArrayList<>();
        removed.forEach((name, components) -> said.add("removed the cgroups a killed run left (its process, pid "
                + name.substring(0, name.indexOf('-')) + ", is gone): " + CGROUP_PARENT + "/" + name
                + (components.isEmpty() ? "" : " (" + String.join(", ", components) + ")")));
        return said;
    }

    /**
     * Removes one cgroup whose child groups are gone, once the kernel lets it: a process still listed in its
     * {@code cgroup.procs} is killed (only the kit's own processes are put in its groups, and this is called when they
     * should all have ended: nginx workers left by a killed master), and the removal is retried until {@code wait} has
     * passed.
     *
     * @return whether the group is gone
     */
    public static boolean removeCgroup(Path group, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                Files.deleteIfExists(group); // rmdir: the kernel's files in it go with it
                return true;
            } catch (IOException e) {
                // busy: the kernel still lists a task in it
                if (System.nanoTime() > deadline) {
                    LOG.warn("removing cgroup {} failed: {}; still in it: {}", group, e.toString(), tasks(group));
                    return false;
                }
            }
            for (long pid : tasks(group)) {
                ProcessHandle.of(pid).ifPresent(p -> {
                    LOG.debug("ending {} (pid {}), left in cgroup {}", p.info().command().orElse("?"), pid, group);
                    p.destroyForcibly();
                });
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** The processes a cgroup lists ({@code cgroup.procs}); empty when it cannot be read. */
    private static List<Long> tasks(Path group) {
        try {
            return Files.readAllLines(group.resolve("cgroup.procs")).stream().map(String::trim).filter(l -> !l.isEmpty())
                    .map(Long::parseLong).toList();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The live (not zombie) processes whose process group is {@code pgid} (Linux: {@code /proc/<pid>/stat}). */
    public static List<ProcessHandle> members(long pgid) {
        List<ProcessHandle> out = new ArrayList<>();
        for (Path p : children(PROC)) {
            String name = p.getFileName().toString();
            if (!name.chars().allMatch(Character::isDigit)) {
                continue;
            }
            try {
                String stat = Files.readString(p.resolve("stat"), StandardCharsets.UTF_8);
                // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'
                String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // after[0] is the state: a zombie (Z) has ended already and only waits for its parent to reap it
                if (Long.parseLong(after[2]) == pgid && !"Z".equals(after[0])) {
                    ProcessHandle.of(Long.parseLong(name)).ifPresent(out::add);
                }
            } catch (IOException | RuntimeException e) {
                // the process ended while we looked
            }
        }
        return out;
    }

    private static List<Path> children(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).toList();
        } catch (IOException e) {
            LOG.debug("listing {} failed: {}", dir, e.toString());
            return List.of();
        }
    }
}
