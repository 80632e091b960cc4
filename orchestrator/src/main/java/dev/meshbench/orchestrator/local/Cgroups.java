package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.lifetime.Leftovers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cgroup file system where the local target gives each component's process tree a group of its own, so that the
 * component's CPU is the kernel's own count (every process that ever ran in the group, nginx's workers that exited
 * included), not a sample of the processes alive at a tick; and where a CPU limit is a CFS quota on that group, as a
 * pod's {@code resources.limits.cpu}. Detected at run time:
 * <ul>
 *   <li>cgroup v2 when {@code <root>/cgroup.controllers} exists: CPU from {@code cpu.stat}'s {@code usage_usec},
 *       limits in {@code cpu.max} when the root hands the {@code cpu} controller to its groups;</li>
 *   <li>else cgroup v1 with a {@code cpuacct} hierarchy: CPU from {@code cpuacct.usage} (nanoseconds), limits in the
 *       {@code cpu} hierarchy's {@code cpu.cfs_quota_us}, mounted with {@code cpuacct} or apart.</li>
 * </ul>
 * The kit's groups live under {@value Leftovers#CGROUP_PARENT} in each hierarchy ({@link ComponentCgroups}), apart
 * from anyone else's. Writable means: a group can be made there (Linux, root, not mounted read-only).
 *
 * <p>Written here rather than taken from a library: the JDK reads its own container's limits but cannot make a
 * group, libcgroup's {@code cgcreate}/{@code cgexec} are seldom installed, and {@code systemd-run --scope} needs
 * systemd as PID 1; what the kit needs is a handful of reads and writes of the kernel's files.
 */
public final class Cgroups {
    private static final Logger LOG = LoggerFactory.getLogger(Cgroups.class);

    private final CpuMethod method;
    private final Path accounting;
    private final Optional<Path> limits;
    private final String noLimits;

    private Cgroups(CpuMethod method, Path accounting, Optional<Path> limits, String noLimits) {
        this.method = method;
        this.accounting = accounting;
        this.limits = limits;
        this.noLimits = noLimits;
    }

    /** Cgroups cannot be used here; the message says why. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String why) {
            super(why);
        }
    }

    /** The writable cgroups at {@code root} ({@link Leftovers#CGROUP_ROOT} on Linux), or empty (said in the log). */
    public static Optional<Cgroups> find(Path root) {
        try {
            return Optional.of(open(root));
        } catch (Unavailable e) {
            LOG.debug("no cgroups for the components, CPU {}: {}", CpuMethod.PROC_SAMPLED.label(), e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The cgroups at {@code root}, checked writable by making (and removing) the kit's folder in each hierarchy.
     *
     * @throws Unavailable saying what is missing or refused
     */
    public static Cgroups open(Path root) throws Unavailable {
        Cgroups c;
        if (Files.isRegularFile(root.resolve("cgroup.controllers"))) {
            boolean cpu = words(root.resolve("cgroup.subtree_control")).contains("cpu");
            c = new Cgroups(CpuMethod.CGROUP_V2, root, cpu ? Optional.of(root) : Optional.empty(),
                    root.resolve("cgroup.subtree_control") + " does not hand the cpu controller to its groups");
        } else if (Files.isRegularFile(root.resolve("cpuacct").resolve("cpuacct.usage"))) {
            Path cpu = root.resolve("cpu");
            boolean quota = Files.isRegularFile(cpu.resolve("cpu.cfs_quota_us"));
            c = new Cgroups(CpuMethod.CGROUP_V1, root.resolve("cpuacct"), quota ? Optional.of(cpu) : Optional.empty(),
                    "there is no cgroup v1 cpu controller with CFS quotas (" + cpu.resolve("cpu.cfs_quota_us") + ")");
        } else {
            throw new Unavailable("no cgroup v2 (" + root.resolve("cgroup.controllers") + ") and no cgroup v1 cpuacct ("
                    + root.resolve("cpuacct").resolve("cpuacct.usage") + ")");
        }
        for (Path hierarchy : c.hierarchies()) {
            probe(hierarchy);
        }
        return c;
    }

    /** Makes the kit's folder in {@code hierarchy} (removed again if it was not there) to see that groups can be made. */
    private static void probe(Path hierarchy) throws Unavailable {
        Path kit = hierarchy.resolve(Leftovers.CGROUP_PARENT);
        boolean existed = Files.isDirectory(kit);
        try {
            Files.createDirectories(kit);
        } catch (IOException e) {
            throw new Unavailable("making a group in " + hierarchy + " failed: " + reason(e)
                    + (e instanceof AccessDeniedException ? " (not root?)" : ""));
        }
        boolean cgroup = Files.exists(kit.resolve("cgroup.procs"));
        if (!existed) {
            try {
                Files.deleteIfExists(kit);
            } catch (IOException e) {
                LOG.debug("removing {} failed: {}", kit, e.toString());
            }
        }
        if (!cgroup) {
            throw new Unavailable(hierarchy + " is not a cgroup file system (a folder made there has no cgroup.procs)");
        }
    }

    /** How CPU is read: {@link CpuMethod#CGROUP_V1} or {@link CpuMethod#CGROUP_V2}. */
    public CpuMethod method() {
        return method;
    }

    /** Why a CPU limit cannot be set here, or empty when it can. */
    public Optional<String> limitsUnavailable() {
        return limits.isPresent() ? Optional.empty() : Optional.of(noLimits);
    }

    /**
     * The groups of one deployment, {@code <hierarchy>/meshbench/<this pid>-<name>/<component>}; nothing is made until
     * a component enters.
     *
     * @param name   what tells the deployment apart, made of letters, digits, {@code .}, {@code _}, {@code -}
     * @param limits the CPU limits its components get; refused when limits cannot be set here
     */
    public ComponentCgroups forDeployment(String name, CpuLimits limits) {
        if (!limits.isEmpty() && this.limits.isEmpty()) {
            throw new IllegalArgumentException(CpuLimits.P_CPU_LIMITS + ": " + noLimits);
        }
        return new ComponentCgroups(this, Leftovers.cgroupName(name), limits);
    }

    /** The hierarchies a group is made in: the one that counts CPU, and the one that limits it when that is another. */
    List<Path> hierarchies() {
        List<Path> out = new ArrayList<>(List.of(accounting));
        limits.filter(l -> !sameFolder(l, accounting)).ifPresent(out::add);
        return out;
    }

    /** The hierarchy where limits are set, when they can be. */
    Optional<Path> limitHierarchy() {
        return limits;
    }

    /** The hierarchy whose groups count CPU. */
    Path accountingHierarchy() {
        return accounting;
    }

    /** CPU time of everything that ran in {@code group} (of the accounting hierarchy), nanoseconds; empty if unreadable. */
    OptionalLong usageNanos(Path group) {
        try {
            return switch (method) {
                case CGROUP_V1 -> OptionalLong.of(Long.parseLong(Files.readString(group.resolve("cpuacct.usage")).trim()));
                case CGROUP_V2 -> Files.readAllLines(group.resolve("cpu.stat")).stream().filter(l -> l.startsWith("usage_usec "))
                        .mapToLong(l -> Long.parseLong(l.substring("usage_usec ".length()).trim()) * 1000).findFirst();
                case PROC_SAMPLED -> throw new IllegalStateException("not a cgroup method");
            };
        } catch (IOException | NumberFormatException e) {
            LOG.debug("reading the CPU of cgroup {} failed: {}", group, e.toString());
            return OptionalLong.empty();
        }
    }

    /** Sets a CFS quota of {@code cores} on {@code group} of the limit hierarchy. */
    void limit(Path group, double cores) throws IOException {
        long quota = CpuLimits.quotaMicros(cores);
        switch (method) {
            case CGROUP_V1 -> {
                write(group.resolve("cpu.cfs_period_us"), Long.toString(CpuLimits.PERIOD_MICROS));
                write(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
            }
            case CGROUP_V2 -> write(group.resolve("cpu.max"), quota + " " + CpuLimits.PERIOD_MICROS);
            case PROC_SAMPLED -> throw new IllegalStateException("not a cgroup method");
        }
    }

    /**
     * Lets the groups in {@code folder} (of the limit hierarchy) be limited: cgroup v2 hands a controller down one level
     * at a time ({@code cgroup.subtree_control}); v1 controllers apply to every group of their hierarchy.
     */
    void handDownCpu(Path folder) throws IOException {
        if (method == CpuMethod.CGROUP_V2 && !words(folder.resolve("cgroup.subtree_control")).contains("cpu")) {
            write(folder.resolve("cgroup.subtree_control"), "+cpu");
        }
    }

    /** Writes a kernel file (which exists: nothing is created). */
    static void write(Path file, String value) throws IOException {
        Files.writeString(file, value, StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
    }

    private static List<String> words(Path file) {
        try {
            return List.of(Files.readString(file).trim().split("\\s+"));
        } catch (IOException e) {
            return List.of();
        }
    }

    private static boolean sameFolder(Path a, Path b) {
        try {
            return a.toRealPath().equals(b.toRealPath());
        } catch (IOException e) {
            return a.equals(b);
        }
    }

    /** What went wrong, in the kernel's words where it gave them ({@code Read-only file system}). */
    static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.toString();
    }
}
