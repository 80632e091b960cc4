package dev.meshbench.orchestrator.local;

/**
 * How the local target measures each component's CPU, as {@code run.json} ({@code measurement.cpuMethod}) and the
 * run's first line say it.
 */
public enum CpuMethod {
    /** The component's own cgroup v1 {@code cpuacct.usage}: the kernel's count in nanoseconds. */
    CGROUP_V1("cgroup v1 cpuacct (ns)"),
    /** The component's own cgroup v2 {@code cpu.stat} {@code usage_usec}: the kernel's count in microseconds. */
    CGROUP_V2("cgroup v2 cpu.stat"),
    /**
     * Where cgroups are not writable: the user + system CPU of the component's live process tree from {@code /proc},
     * read by {@code ResourceRecorder} every second; a child that exited takes its CPU with it.
     */
    PROC_SAMPLED("sampled from /proc every 1 s");

    private final String label;

    CpuMethod(String label) {
        this.label = label;
    }

    /** The words recorded and printed, e.g. {@code cgroup v1 cpuacct (ns)}. */
    public String label() {
        return label;
    }
}
