package dev.meshbench.orchestrator.local;

import dev.meshbench.results.ComponentRole;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Optional CPU sets per group of processes, taskset-style lists ({@code 0}, {@code 2-3}, {@code 0,2-3}): the load
 * generator ({@value #P_LOADGEN}), the services ({@value #P_SERVICES}), the mesh's proxies ({@value #P_MESH}) and
 * MongoDB ({@value #P_MONGO}). On a machine with cores to spare, giving the load generator its own keeps it from
 * competing with what it measures. Processes are started under {@code taskset -c <list>} (util-linux). Local
 * target only.
 *
 * @param lists the list of each group that has one
 */
public record CpuSets(Map<ComponentRole, String> lists) {
    public static final String P_LOADGEN = "meshbench.cpus.loadgen";
    public static final String P_SERVICES = "meshbench.cpus.services";
    public static final String P_MESH = "meshbench.cpus.mesh";
    public static final String P_MONGO = "meshbench.cpus.mongo";
    public static final CpuSets NONE = new CpuSets(Map.of());

    private static final Map<String, ComponentRole> PROPERTIES = Map.of(P_LOADGEN, ComponentRole.LOAD,
            P_SERVICES, ComponentRole.APP, P_MESH, ComponentRole.MESH, P_MONGO, ComponentRole.DATABASE);
    private static final Pattern LIST = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");

    public CpuSets {
        lists = Map.copyOf(lists);
    }

    /**
     * Reads the four properties; each list is checked against the {@code cpus} CPUs this machine offers (0 ..
     * cpus-1), and {@code taskset} must be on {@code path} when any is given.
     *
     * @throws IllegalArgumentException naming the property and the rule
     */
    public static CpuSets fromProperties(Map<String, String> props, int cpus, String path) {
        Map<ComponentRole, String> out = new EnumMap<>(ComponentRole.class);
        for (var e : new java.util.TreeMap<>(PROPERTIES).entrySet()) {
            String v = props.get(e.getKey());
            if (v == null || v.isBlank()) {
                continue;
            }
            String list = v.replace(" ", "");
            if (!LIST.matcher(list).matches()) {
                throw new IllegalArgumentException(e.getKey() + "=" + v + ": give CPUs as taskset does, e.g. 0, 2-3 or 0,2-3");
            }
            for (String part : list.split(",")) {
                String[] r = part.split("-");
                int lo = Integer.parseInt(r[0]);
                int hi = r.length == 2 ? Integer.parseInt(r[1]) : lo;
                if (lo > hi) {
                    throw new IllegalArgumentException(e.getKey() + "=" + v + ": range " + part + " runs backwards");
                }
                if (hi >= cpus) {
                    throw new IllegalArgumentException(e.getKey() + "=" + v + ": CPU " + hi + " does not exist here (CPUs 0-"
                            + (cpus - 1) + ")");
                }
            }
            out.put(e.getValue(), list);
        }
        if (!out.isEmpty() && !onPath("taskset", path)) {
            throw new IllegalArgumentException(String.join(", ", out.keySet().stream().map(CpuSets::property).toList())
                    + " need taskset on PATH (Debian: util-linux)");
        }
        return new CpuSets(out);
    }

    /** {@code taskset -c <list>} for a group with a list, else nothing. */
    public List<String> prefix(ComponentRole role) {
        String list = lists.get(role);
        return list == null ? List.of() : List.of("taskset", "-c", list);
    }

    /** {@code command} under the group's CPU set, or unchanged. */
    public List<String> pin(ComponentRole role, List<String> command) {
        List<String> out = new ArrayList<>(prefix(role));
        out.addAll(command);
        return out;
    }

    /** Property name to list, for {@code run.json}. */
    public Map<String, String> asProperties() {
        Map<String, String> out = new LinkedHashMap<>();
        lists.forEach((role, list) -> out.put(property(role), list));
        return out;
    }

    private static String property(ComponentRole role) {
        return PROPERTIES.entrySet().stream().filter(e -> e.getValue() == role).findFirst().orElseThrow().getKey();
    }

    private static boolean onPath(String exe, String path) {
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, exe);
            if (Files.isExecutable(p)) {
                return true;
            }
        }
        return false;
    }
}
