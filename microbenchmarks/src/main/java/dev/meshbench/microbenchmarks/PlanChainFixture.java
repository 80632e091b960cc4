package dev.meshbench.microbenchmarks;

import dev.meshbench.component.MeshNames;
import dev.meshbench.dataplane.loopback.AppTlsClient;
import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.dataplane.loopback.MeshIdentities;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.ListenerNames;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalDeployment;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.local.ProxyLaunch;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.orchestrator.plan.TopologyPlanner;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.model.ComponentNames;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One egress path built from the case's {@link TopologyPlan}, as the local target deploys it, but only the proxies
 * on the MongoDB path, as real processes: one service's sidecar (its {@code mongo} listener only), the egress
 * gateway and the SNI proxy where the case has them; Netty relays ({@code dataplane.jar}) or Envoy + nginx.
 * In front of them, in this JVM: a TLS {@link EchoServer} standing in for MongoDB (certificate for
 * {@code mongo.meshbench.test} from an "external" CA) on the plan's {@code mongo} listener, and one app TLS
 * connection ({@link AppTlsClient}, SNI and host name verified) opened before measuring. Mesh mTLS uses a per-trial
 * mesh CA and SPIFFE workload certificates ({@link MeshFiles}), verified on both sides.
 */
final class PlanChainFixture implements AutoCloseable {
    /** The service whose MongoDB connection is measured (every service's path is the same). */
    static final String SERVICE = "booking";

    private final EchoServer server;
    private final PlanProcesses proxies;
    private final AppTlsClient client;
    private final Path workDir;

    /**
     * @param path      the egress case whose MongoDB path is measured
     * @param dataPlane netty or envoy
     * @param workers   per proxy: Netty event loops, Envoy {@code --concurrency}, nginx worker processes
     * @param nettyTls  the Netty relays' {@code --tls-provider}
     */
    PlanChainFixture(EgressCase path, String dataPlane, int workers, String nettyTls, EchoServer.Mode mode) throws IOException {
        EgressCase egressCase = path;
        PlanOptions options = new PlanOptions(DataPlane.byId(dataPlane), false, workers, false);
        TopologyPlan plan = mongoPath(TopologyPlanner.plan(egressCase, options));
        boolean hasProxies = plan.components().stream().anyMatch(c -> c.kind().isProxy());
        ProxyLaunch launch = launch(options, nettyTls, hasProxies);

        MeshIdentities external = MeshIdentities.create(MeshNames.MONGO_HOST);
        workDir = Files.createTempDirectory("meshbench-planchain-" + path.id() + "-" + dataPlane + "-");
        EchoServer s = EchoServer.start(external.server(), mode, 1);
        PlanProcesses p = null;
        try {
            Endpoint mongo = new Endpoint(ComponentNames.MONGO, ListenerNames.MONGO);
            LocalAddresses addresses = PlanProcesses.addresses(plan, Map.of(mongo, s.address().getPort()));
            MeshFiles mesh = MeshFiles.issue(plan, CertificateAuthority.create("meshbench mesh CA (benchmark)"), workDir.resolve("pki"));
            p = PlanProcesses.start(plan, addresses, mesh, launch, workDir);
            String tls = p.nettyTlsProviders();
            if (!tls.isEmpty()) {
                System.out.println("netty relays' TLS provider: " + tls);
            }
            Endpoint entry = TopologyPlanner.plan(egressCase, options).component(SERVICE).call(ComponentNames.MONGO);
            client = AppTlsClient.connect(new InetSocketAddress(LocalAddresses.HOST, addresses.port(entry)), MeshNames.MONGO_HOST,
                    external.externalCa().certificate());
        } catch (IOException | RuntimeException e) {
            if (p != null) {
                p.close();
            }
            s.close();
            throw new IllegalStateException("path " + path.id() + " on data plane " + dataPlane + ": setting up the chain failed: " + e.getMessage()
                    + " (configs and logs kept in " + workDir + ")", e);
        }
        server = s;
        proxies = p;
    }

    /**
     * The plan reduced to the MongoDB path: MongoDB, the egress chain, and {@link #SERVICE}'s sidecar with its
     * {@code mongo} listener only (its HTTP listeners lead to services that do not run here).
     */
    static TopologyPlan mongoPath(TopologyPlan full) {
        Endpoint entry = full.component(SERVICE).call(ComponentNames.MONGO);
        List<ComponentPlan> keep = new ArrayList<>();
        for (ComponentPlan c : full.components()) {
            switch (c.kind()) {
                case DATABASE, EGRESS_GATEWAY, SNI_PROXY -> keep.add(c);
                case SIDECAR -> {
                    if (c.name().equals(entry.component())) {
                        keep.add(new ComponentPlan(c.name(), c.kind(), c.identity(), List.of(c.listener(entry.listener())), Map.of()));
                    }
                }
                case SERVICE -> {
                    // the app is the benchmark's client
                }
            }
        }
        return new TopologyPlan(full.id(), full.options(), keep);
    }

    private static ProxyLaunch launch(PlanOptions options, String nettyTls, boolean hasProxies) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return switch (options.dataPlane()) {
            case NETTY -> new ProxyLaunch(DataPlane.NETTY, nettyTls, java,
                    hasProxies ? Optional.of(dataplaneJar()) : Optional.empty(), Optional.empty(), Optional.empty());
            case ENVOY -> {
                if (!hasProxies) {
                    yield new ProxyLaunch(DataPlane.ENVOY, nettyTls, java, Optional.empty(), Optional.empty(), Optional.empty());
                }
                LocalDataPlane dp;
                try {
                    dp = LocalDataPlane.resolve(options, System.getProperty(LocalDataPlane.P_ENVOY_BINARY),
                            System.getProperty(LocalDataPlane.P_NGINX_BINARY), System.getenv("PATH"), "benchmark");
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("dataPlane=envoy needs Envoy and nginx, skipping this trial: " + e.getMessage(), e);
                }
                yield new ProxyLaunch(DataPlane.ENVOY, nettyTls, java, Optional.empty(), dp.envoy(), dp.nginx());
            }
        };
    }

    /** {@code dataplane.jar}: {@code -Dmeshbench.dataplane.jar}, else {@code dataplane/target/dataplane.jar} under the working folder. */
    static Path dataplaneJar() {
        String prop = System.getProperty("meshbench.dataplane.jar");
        Path jar = Path.of(prop == null || prop.isBlank() ? "dataplane/target/dataplane.jar" : prop.trim()).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("dataplane.jar not found at " + jar + ": run from the checkout's root after "
                    + "'mvn -B -q -pl microbenchmarks -am package -DskipTests', or set -Dmeshbench.dataplane.jar=/path/to/dataplane.jar");
        }
        return jar;
    }

    AppTlsClient client() {
        return client;
    }

    @Override
    public void close() throws IOException {
        try {
            client.close();
        } finally {
            try {
                proxies.close();
            } finally {
                server.close();
                LocalDeployment.deleteTree(workDir);
            }
        }
    }
}
