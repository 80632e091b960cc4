package dev.meshbench.orchestrator.local;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Parsers;
import dev.meshbench.results.ComponentRole;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Optional CPU limits per component kind ({@code meshbench.cpuLimits}, the catalogue's setting), like a pod's
 * {@code resources.limits.cpu}: a limited component's cgroup gets a CFS quota of cores x {@value #PERIOD_MICROS} µs
 * per period of {@value #PERIOD_MICROS} µs, as the kubelet sets it. A kind is {@code sidecar} (every service's sidecar,
 * {@link ComponentRole#kindOf}), another mesh component, {@code mongo} or a service. Local target only, and only where
 * cgroups are writable ({@link #cgroupsAt}).
 *
 * @param cores the limit of each kind that has one, in cores
 */
public record CpuLimits(Map<String, Double> cores) {
    public static final String P_CPU_LIMITS = Catalogue.CPU_LIMITS.name();
    public static final CpuLimits NONE = new CpuLimits(Map.of());
    /** The CFS period of every limit, as Kubernetes sets it: 100 ms. */
    public static final long PERIOD_MICROS = 100_000;

    public CpuLimits {
        cores = Collections.unmodifiableMap(new TreeMap<>(cores));
    }

    /** Reads {@code meshbench.cpuLimits}; none when absent. */
    public static CpuLimits fromProperties(Map<String, String> props) {
        return new CpuLimits(Catalogue.CPU_LIMITS.read(props).orElse(Map.of()));
    }

    public boolean isEmpty() {
        return cores.isEmpty();
    }

    /** The limit of {@code component} (a service's sidecar by the kind {@code sidecar}), in cores, if it has one. */
    public OptionalDouble of(String component) {
        Double c = cores.get(ComponentRole.kindOf(component));
        return c == null ? OptionalDouble.empty() : OptionalDouble.of(c);
    }

    /** The CFS quota of {@code cores} per {@link #PERIOD_MICROS}, µs. */
    static long quotaMicros(double cores) {
        return Math.round(cores * PERIOD_MICROS);
    }

    /** {@code egress-gateway=1,sidecar=0.5}: the limits as the setting takes them, sorted. */
    public String text() {
        return cores.entrySet().stream().map(e -> e.getKey() + "=" + Parsers.plain(e.getValue())).collect(Collectors.joining(","));
    }

    /** Property name to {@link #text()}, for {@code run.json}; empty when there are no limits. */
    public Map<String, String> asProperties() {
        return isEmpty() ? Map.of() : Map.of(P_CPU_LIMITS, text());
    }

    /**
     * The cgroups that measure each component's CPU, and apply these limits: those at {@code root} when they are
     * writable, else none (CPU is then {@link CpuMethod#PROC_SAMPLED}).
     *
     * @throws IllegalArgumentException naming {@code meshbench.cpuLimits} and why, when there are limits and they
     *                                  cannot be applied here
     */
    public Optional<Cgroups> cgroupsAt(Path root) {
        if (isEmpty()) {
            return Cgroups.find(root);
        }
        Cgroups c;
        try {
            c = Cgroups.open(root);
        } catch (Cgroups.Unavailable e) {
            throw refused("cgroups are not writable here: " + e.getMessage());
        }
        c.limitsUnavailable().ifPresent(why -> {
            throw refused(why);
        });
        return Optional.of(c);
    }

    private IllegalArgumentException refused(String why) {
        return Catalogue.CPU_LIMITS.invalid(text(), "CPU limits need writable cgroups with CFS quotas (Linux, as root), "
                + "checked before anything starts; " + why);
    }
}
