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
 * Round trip of one small message (620 bytes, the Acmeair average payload) over an open app TLS connection
 * through each egress path. The hops' added latency is the difference to {@code bypass}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class HopLatencyBenchmark {
    /**
     * The egress case, every one of {@link EgressCase} (an empty {@code @Param} on an enum takes all its constants;
     * {@code -p path=SNI} picks one). bypass: direct; sidecar: plain relay; gateway: + SNI-routed passthrough;
     * mtls: mTLS tunnel; sni: + SNI proxy.
     */
    @Param
    public EgressCase path;

    @Param({"620"})
    public int payloadBytes;

    /**
     * TLS of the hops' own mesh mTLS (paths mtls and sni; the other paths' hops do no TLS of their own):
     * boringssl (BoringSSL via netty-tcnative, as Envoy) or jdk.
     */
    @Param({"boringssl", "jdk"})
    public String tlsProvider;

    private ChainFixture fixture;
    private byte[] message;

    @Setup(Level.Trial)
    public void start() throws IOException, ListenerBindException {
        message = new byte[payloadBytes];
        new Random(7).nextBytes(message);
        fixture = new ChainFixture(path, tlsProvider, EchoServer.Mode.ECHO);
    }

    @Benchmark
    public byte[] roundTrip() throws IOException {
        return fixture.client().roundTrip(message);
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        fixture.close();
    }
}
