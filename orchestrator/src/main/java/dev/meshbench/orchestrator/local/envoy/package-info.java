/**
 * The local target's real data plane: Envoy sidecars and egress gateway, and nginx as the study's SNI proxy,
 * configured from the case's {@link dev.meshbench.orchestrator.plan.TopologyPlan}.
 *
 * <ul>
 *   <li>{@link dev.meshbench.orchestrator.local.envoy.EnvoyBootstrapRenderer}: a static Envoy v3 bootstrap per proxy,
 *       shaped like the listeners and clusters Istio pushes (cluster names: {@link dev.meshbench.orchestrator.local.envoy.EnvoyClusterNames});</li>
 *   <li>{@link dev.meshbench.orchestrator.local.envoy.NginxConfigRenderer}: the SNI proxy's {@code nginx.conf}
 *       ({@code stream}, {@code ssl_preread}, a {@code hostnames} map);</li>
 *   <li>{@link dev.meshbench.orchestrator.local.envoy.EnvoyCommand}, {@link dev.meshbench.orchestrator.local.envoy.NginxCommand}:
 *       their command lines; {@link dev.meshbench.orchestrator.local.envoy.NativeBinaries} and
 *       {@link dev.meshbench.orchestrator.local.envoy.NginxModules}: finding and checking the binaries;</li>
 *   <li>{@link dev.meshbench.orchestrator.local.envoy.EnvoyStatsReader}, {@link dev.meshbench.orchestrator.local.envoy.NginxStatsReader}:
 *       their counters in the hop JSON shape of the Netty relays' {@code /stats}.</li>
 * </ul>
 * Where the bootstraps differ from what Istio generates, and why: {@code orchestrator/ENVOY.md}.
 */
package dev.meshbench.orchestrator.local.envoy;
