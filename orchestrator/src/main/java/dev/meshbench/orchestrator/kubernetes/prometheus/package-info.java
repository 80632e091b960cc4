/**
 * CPU of a Kubernetes deployment's containers, read from Prometheus, as the kit's per-component samples.
 *
 * <ul>
 *   <li>{@link dev.meshbench.orchestrator.kubernetes.prometheus.PrometheusClient}: {@code /api/v1/query} and
 *       {@code /api/v1/query_range} over plain {@code java.net.http}, answers as
 *       {@link dev.meshbench.orchestrator.kubernetes.prometheus.Series}, failures as
 *       {@link dev.meshbench.orchestrator.kubernetes.prometheus.PrometheusException};</li>
 *   <li>{@link dev.meshbench.orchestrator.kubernetes.prometheus.ContainerCpu}: cAdvisor's
 *       {@code container_cpu_usage_seconds_total} series as
 *       {@link dev.meshbench.orchestrator.deploy.ResourceSample}s, one pid per container instance (how restarts,
 *       counter resets, replicas and duplicate scrapes come out is said there);</li>
 *   <li>{@link dev.meshbench.orchestrator.kubernetes.prometheus.PrometheusCpuSampler}: polls that, run every few
 *       seconds, return each sample once, for {@code cpu-samples.csv}.</li>
 * </ul>
 */
package dev.meshbench.orchestrator.kubernetes.prometheus;
