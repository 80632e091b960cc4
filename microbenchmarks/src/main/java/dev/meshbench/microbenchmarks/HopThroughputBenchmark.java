package dev.meshbench.microbenchmarks;

import dev.meshbench.dataplane.ListenerBindException;
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
 * Bulk relay throughput: each operation sends one 1 MiB frame of app-TLS-protected bytes through the path and
 * waits for the server's 8-byte acknowledgement, so ops/s equals MiB/s (client to upstream direction).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
public class HopThroughputBenchmark {
    /**
     * The egress case whose MongoDB path is measured: every one of {@link EgressCase} (an empty {@code @Param} on an
     * enum takes all its constants; {@code -p path=SNI} picks one).
     */
    @Param
    public EgressCase path;

    @Param({"1048576"})
    public int frameBytes;

    /**
     * TLS of the hops' own mesh mTLS (paths mtls and sni; the other paths' hops do no TLS of their own):
     * boringssl (BoringSSL via netty-tcnative, as Envoy) or jdk.
     */
    @Param({"boringssl", "jdk"})
    public String tlsProvider;

    private ChainFixture fixture;
    private byte[] frame;

    @Setup(Level.Trial)
    public void start() throws IOException, ListenerBindException {
        frame = new byte[frameBytes];
        new Random(11).nextBytes(frame);
        fixture = new ChainFixture(path, tlsProvider, EchoServer.Mode.ACK_SINK);
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
