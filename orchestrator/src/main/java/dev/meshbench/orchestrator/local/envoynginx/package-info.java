/**
 * The local target's real data plane: Envoy sidecars and egress gateway, and nginx as the study's SNI proxy,
 * configured from the case's {@link dev.meshbench.orchestrator.plan.TopologyPlan}.
 *
 * <ul>
 *   <li>{@link dev.meshbench.orchestrator.local.envoynginx.EnvoyConfigs}: each Envoy's bootstrap (node, admin, LDS and
 *       CDS from files), pushing a case's listeners and clusters to a running Envoy, and waiting until its admin shows
 *       them in force, so the kit switches cases under a running application;</li>
 *   <li>{@link dev.meshbench.orchestrator.local.envoynginx.EnvoyBootstrapRenderer}: the Envoy v3 listeners and clusters per
 *       proxy, shaped like the ones Istio pushes (cluster names: {@link dev.meshbench.orchestrator.local.envoynginx.EnvoyClusterNames}),
 *       and the same as a static bootstrap for {@code envoy --mode validate};</li>
 *   <li>{@link dev.meshbench.orchestrator.local.envoynginx.NginxConfigRenderer}: the SNI proxy's {@code nginx.conf}
 *       ({@code stream}, {@code ssl_preread}, a {@code hostnames} map);</li>
 *   <li>{@link dev.meshbench.orchestrator.local.envoynginx.EnvoyCommand}, {@link dev.meshbench.orchestrator.local.envoynginx.NginxCommand}:
 *       their command lines; {@link dev.meshbench.orchestrator.local.envoynginx.NativeBinaries} and
 *       {@link dev.meshbench.orchestrator.local.envoynginx.NginxModules}: finding and checking the binaries;</li>
 *   <li>{@link dev.meshbench.orchestrator.local.envoynginx.EnvoyStatsReader}, {@link dev.meshbench.orchestrator.local.envoynginx.NginxStatsReader}:
 *       their counters in the hop JSON shape of the Netty relays' {@code /stats}.</li>
 * </ul>
 * Where the bootstraps differ from what Istio generates, and why: {@code orchestrator/ENVOY.md}.
 */
package dev.meshbench.orchestrator.local.envoynginx;
