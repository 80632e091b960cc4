package dev.meshbench.orchestrator.local;

import dev.meshbench.results.WorkloadInfo;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the local target runs a case. Per-run keys and certificates go to a private temporary folder, deleted at
 * teardown, so archived results and logs hold no key.
 *
 * @param jars          the component jars
 * @param readyTimeout  how long one component may take to print its ready line
 * @param customers     customers to load
 * @param flightDays    days of flights to load
 * @param dataPlane     which proxies run the mesh, found and checked
 * @param cpuSets       CPUs each group of processes is pinned to ({@link CpuSets#NONE}: none)
 * @param cgroups       where each component gets a cgroup that counts its CPU ({@link CpuLimits#cgroupsAt}); empty:
 *                      CPU is sampled from {@code /proc}
 * @param cpuLimits     CPU limits of component kinds ({@link CpuLimits#NONE}: none); only with cgroups that can limit
 */
public record LocalTargetSettings(ComponentJars jars, Duration readyTimeout, int customers, int flightDays, LocalDataPlane dataPlane,
        WorkloadInfo workload, CpuSets cpuSets, Optional<Cgroups> cgroups, CpuLimits cpuLimits) {

    /** No cgroups: CPU sampled from {@code /proc}, no limits. */
    public LocalTargetSettings(ComponentJars jars, Duration readyTimeout, int customers, int flightDays, LocalDataPlane dataPlane,
            WorkloadInfo workload, CpuSets cpuSets) {
        this(jars, readyTimeout, customers, flightDays, dataPlane, workload, cpuSets, Optional.empty(), CpuLimits.NONE);
    }

    /** No CPU sets. */
    public LocalTargetSettings(ComponentJars jars, Duration readyTimeout, int customers, int flightDays, LocalDataPlane dataPlane,
            WorkloadInfo workload) {
        this(jars, readyTimeout, customers, flightDays, dataPlane, workload, CpuSets.NONE);
    }

    /** Services that behave as the original Acmeair's ({@link WorkloadInfo#ORIGINAL}). */
    public LocalTargetSettings(ComponentJars jars, Duration readyTimeout, int customers, int flightDays, LocalDataPlane dataPlane) {
        this(jars, readyTimeout, customers, flightDays, dataPlane, WorkloadInfo.ORIGINAL);
    }

    public LocalTargetSettings {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(cpuSets, "cpuSets");
        Objects.requireNonNull(cgroups, "cgroups");
        Objects.requireNonNull(cpuLimits, "cpuLimits");
        if (!cpuLimits.isEmpty()) {
            String why = cgroups.isEmpty() ? "there are no writable cgroups" : cgroups.get().limitsUnavailable().orElse(null);
            if (why != null) {
                throw new IllegalArgumentException(CpuLimits.P_CPU_LIMITS + "=" + cpuLimits.text() + ": CPU limits need writable "
                        + "cgroups with CFS quotas; " + why);
            }
        }
        Objects.requireNonNull(jars, "jars");
        Objects.requireNonNull(readyTimeout, "readyTimeout");
        Objects.requireNonNull(dataPlane, "dataPlane");
        if (readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException("ready timeout (" + readyTimeout + ") must be positive");
        }
        if (customers < 1) {
            throw new IllegalArgumentException("customers (" + customers + ") must be positive");
        }
        if (flightDays < 1) {
            throw new IllegalArgumentException("flight days (" + flightDays + ") must be positive");
        }
    }
}
