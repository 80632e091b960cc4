package dev.meshbench.microbenchmarks;

import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.model.EgressCase;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Bulk relay throughput through each egress path, the proxies built from the case's topology plan and run as
 * processes ({@link PlanChainFixture}), on either data plane: each operation sends one 1 MiB frame of app-TLS bytes
 * and waits for the server's 8-byte acknowledgement, so ops/s equals MiB/s (client to upstream direction).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
public class PlanChainThroughputBenchmark {
    /** netty: the kit's relays (dataplane.jar); envoy: Envoy sidecar and gateway, nginx SNI proxy. */
    @Param({"netty", "envoy"})
    public String dataPlane;

    /**
     * The egress case whose MongoDB path is measured: every one of {@link EgressCase} (an empty {@code @Param} on an
     * enum takes all its constants; {@code -p path=SNI} picks one).
     */
    @Param
    public EgressCase path;

    @Param({"1048576"})
    public int frameBytes;

    /** Per proxy: Netty event loops, Envoy --concurrency, nginx worker processes. */
    @Param({"1"})
    public int workers;

    /** The Netty relays' --tls-provider (auto: BoringSSL where usable, as Envoy); ignored for envoy. */
    @Param({"auto"})
    public String nettyTlsProvider;

    private PlanChainFixture fixture;
    private byte[] frame;

    @Setup(Level.Trial)
    public void start() throws IOException {
        frame = new byte[frameBytes];
        new Random(11).nextBytes(frame);
        fixture = new PlanChainFixture(path, dataPlane, workers, nettyTlsProvider, EchoServer.Mode.ACK_SINK);
    }

    @Benchmark
    public void sendFrame() throws IOException {
        fixture.client().sendFrame(frame);
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        fixture.close();
    }
}
