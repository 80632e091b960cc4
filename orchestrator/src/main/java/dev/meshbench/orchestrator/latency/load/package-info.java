/**
 * The kit's own HTTP/1.1 load generator, for the latency study (fortio's method: per cell a closed loop to find the
 * highest rate, then an open loop at a share of it). {@link dev.meshbench.orchestrator.latency.load.LoadSpec} says
 * what to run, {@link dev.meshbench.orchestrator.latency.load.LoadGenerator} runs it without coordinated omission,
 * {@link dev.meshbench.orchestrator.latency.load.LoadResult} is what it measured, with its inputs and histograms,
 * and {@link dev.meshbench.orchestrator.latency.load.LoadResultRenderer} prints it as text or JSON.
 */
package dev.meshbench.orchestrator.latency.load;
