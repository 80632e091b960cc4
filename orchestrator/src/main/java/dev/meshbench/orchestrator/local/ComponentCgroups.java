package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.lifetime.Leftovers;
import dev.meshbench.orchestrator.lifetime.Lifeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cgroups of one deployment's components, {@code <hierarchy>/meshbench/<pid>-<deployment>/<component>} in each
 * hierarchy of {@link Cgroups}: made when a component starts (with its CPU limit, if it has one), joined by its process
 * before that runs its program, read for its CPU, and removed once its processes are gone ({@link #release},
 * {@link #close}). The {@link Lifeline} watchdog removes them if this JVM is killed first, and {@link Leftovers} if the
 * watchdog died with it.
 */
public final class ComponentCgroups implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ComponentCgroups.class);
    /** How long a release waits for the kernel to let go of a group whose processes are ending. */
    static final Duration RELEASE_WAIT = Duration.ofSeconds(2);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    /**
     * What a component's process runs first: it writes its own pid into each {@code cgroup.procs} given before
     * {@code --}, then {@code exec}s the command, so the process that joined is the one that runs the program, and every
     * child it starts is born in its groups.
     */
    static final String JOIN = "while [ \"$1\" != -- ]; do echo $$ > \"$1\" || { echo \"meshbench: joining cgroup $1 failed\" >&2; "
            + "exit 125; }; shift; done; shift; exec \"$@\"";

    private static final String SH = "/bin/sh";

    private final Cgroups cgroups;
    private final String id;
    private final CpuLimits limits;
    private final Set<String> entered = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean guarded = new AtomicBoolean();

    ComponentCgroups(Cgroups cgroups, String id, CpuLimits limits) {
        if (!NAME.matcher(id).matches()) {
            throw new IllegalArgumentException("cgroup name " + id + " must be letters, digits, '.', '_' and '-'");
        }
        this.cgroups = cgroups;
        this.id = id;
        this.limits = limits;
    }

    /** The deployment's folder name in each hierarchy, {@code <pid>-<deployment>}. */
    public String id() {
        return id;
    }

    /** How these groups count CPU. */
    public CpuMethod method() {
        return cgroups.method();
    }

    /**
     * Makes {@code component}'s groups, with its CPU limit if it has one, and returns {@code command} behind a prefix
     * that puts its process in them before it runs: {@code /bin/sh -c JOIN meshbench-cgroup <group>/cgroup.procs ... --
     * <command>}.
     *
     * @throws TargetException naming the component and why, when a group cannot be made or limited (what was made is
     *                         removed by {@link #close})
     */
    public List<String> enter(String component, List<String> command) {
        if (!NAME.matcher(component).matches()) {
            throw new IllegalArgumentException("component name " + component + " cannot name a cgroup");
        }
        guard();
        entered.add(component);
        List<String> out = new ArrayList<>(List.of(SH, "-c", JOIN, "meshbench-cgroup"));
        try {
            for (Path hierarchy : cgroups.hierarchies()) {
                Path group = group(hierarchy, component);
                make(group);
                out.add(group.resolve("cgroup.procs").toString());
            }
            OptionalDouble cores = limits.of(component);
            if (cores.isPresent()) {
                Path hierarchy = cgroups.limitHierarchy().orElseThrow();
                cgroups.handDownCpu(hierarchy.resolve(Leftovers.CGROUP_PARENT));
                cgroups.handDownCpu(hierarchy.resolve(Leftovers.CGROUP_PARENT).resolve(id));
                cgroups.limit(group(hierarchy, component), cores.getAsDouble());
            }
        } catch (IOException e) {
            throw new TargetException("making the cgroup of " + component + " (" + Leftovers.CGROUP_PARENT + "/" + id + "/" + component
                    + ") failed: " + Cgroups.reason(e), e);
        }
        out.add("--");
        out.addAll(command);
        return out;
    }

    /** CPU time of everything that ran in {@code component}'s group so far, nanoseconds; empty when it has none. */
    public OptionalLong usageNanos(String component) {
        return entered.contains(component) ? cgroups.usageNanos(group(cgroups.accountingHierarchy(), component)) : OptionalLong.empty();
    }

    /** Removes {@code component}'s groups; call once its processes are gone (a straggler still in them is killed). */
    public void release(String component) {
        if (entered.remove(component)) {
            for (Path hierarchy : cgroups.hierarchies()) {
                Leftovers.removeCgroup(group(hierarchy, component), RELEASE_WAIT);
            }
        }
    }

    /** Removes every group still there, then the deployment's folder, and the kit's when no other deployment has one. */
    @Override
    public void close() {
        List.copyOf(entered).forEach(this::release);
        if (!guarded.get()) {
            return;
        }
        for (Path hierarchy : cgroups.hierarchies()) {
            Path kit = hierarchy.resolve(Leftovers.CGROUP_PARENT);
            Leftovers.removeCgroup(kit.resolve(id), RELEASE_WAIT);
            try {
                Files.deleteIfExists(kit);
            } catch (IOException e) {
                LOG.debug("{} stays: {}", kit, Cgroups.reason(e)); // another deployment's groups are in it
            }
        }
    }

    private Path group(Path hierarchy, String component) {
        return hierarchy.resolve(Leftovers.CGROUP_PARENT).resolve(id).resolve(component);
    }

    /** Has the watchdog remove the deployment's groups if this JVM is killed; once, before the first is made. */
    private void guard() {
        if (guarded.compareAndSet(false, true)) {
            cgroups.hierarchies().forEach(h -> Lifeline.guardCgroup(h.resolve(Leftovers.CGROUP_PARENT).resolve(id)));
        }
    }

    /** Makes a group and its parents; again when another deployment's close removed the kit's folder meanwhile. */
    private static void make(Path group) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                Files.createDirectories(group);
                return;
            } catch (NoSuchFileException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }
}
