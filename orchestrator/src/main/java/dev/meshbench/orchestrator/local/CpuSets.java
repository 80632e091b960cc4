package dev.meshbench.orchestrator.local;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Setting;
import dev.meshbench.results.ComponentRole;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Optional CPU sets per group of processes, taskset-style lists ({@code 0}, {@code 2-3}, {@code 0,2-3}): the load
 * generator, the services, the mesh's proxies and MongoDB ({@code meshbench.cpus.*}, the catalogue's settings). On a machine with cores to spare, giving the load generator its own keeps it from
 * competing with what it measures. Processes are started under {@code taskset -c <list>} (util-linux). Local
 * target only.
 *
 * @param lists the list of each group that has one
 */
public record CpuSets(Map<ComponentRole, String> lists) {
    public static final String P_LOADGEN = Catalogue.CPUS_LOADGEN.name();
    public static final String P_SERVICES = Catalogue.CPUS_SERVICES.name();
    public static final String P_MESH = Catalogue.CPUS_MESH.name();
    public static final String P_MONGO = Catalogue.CPUS_MONGO.name();
    public static final CpuSets NONE = new CpuSets(Map.of());

    /** Each group's setting, in the order the properties sort. */
    private static final Map<Setting<String>, ComponentRole> SETTINGS = settings();

    public CpuSets {
        lists = Map.copyOf(lists);
    }

    private static Map<Setting<String>, ComponentRole> settings() {
        Map<Setting<String>, ComponentRole> out = new java.util.TreeMap<>(java.util.Comparator.comparing(Setting::name));
        out.put(Catalogue.CPUS_LOADGEN, ComponentRole.LOAD);
        out.put(Catalogue.CPUS_SERVICES, ComponentRole.APP);
        out.put(Catalogue.CPUS_MESH, ComponentRole.MESH);
        out.put(Catalogue.CPUS_MONGO, ComponentRole.DATABASE);
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * Reads the four settings; each list is checked against the {@code cpus} CPUs this machine offers (0 ..
     * cpus-1), and {@code taskset} must be on {@code path} when any is given.
     *
     * @throws IllegalArgumentException naming the property and the rule
     */
    public static CpuSets fromProperties(Map<String, String> props, int cpus, String path) {
        Map<ComponentRole, String> out = new EnumMap<>(ComponentRole.class);
        SETTINGS.forEach((setting, role) -> setting.read(props).ifPresent(list -> {
            for (String part : list.split(",")) {
                String[] r = part.split("-");
                int hi = Integer.parseInt(r[r.length - 1]);
                if (hi >= cpus) {
                    throw setting.invalid(props.get(setting.name()), "CPU " + hi + " does not exist here (CPUs 0-" + (cpus - 1) + ")");
                }
            }
            out.put(role, list);
        }));
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
        return SETTINGS.entrySet().stream().filter(e -> e.getValue() == role).findFirst().orElseThrow().getKey().name();
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
