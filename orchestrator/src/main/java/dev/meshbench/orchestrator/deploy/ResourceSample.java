package dev.meshbench.orchestrator.deploy;

/**
 * One reading of a component's resource use.
 *
 * @param epochMs   when it was read
 * @param component which component
 * @param pid       the process (or container) it was read from; a restart shows as a new pid
 * @param cpuMillis cumulative CPU time (user + system) of that process so far
 * @param rssBytes  resident memory, or -1 where the platform does not say
 */
public record ResourceSample(long epochMs, Component component, long pid, long cpuMillis, long rssBytes) {
}
