package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.loopback.AppTlsClient;
import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.dataplane.loopback.LoopbackChain;
import dev.meshbench.dataplane.loopback.MeshIdentities;
import dev.meshbench.dataplane.stats.HopStats;
import dev.meshbench.dataplane.testing.Eventually;
import dev.meshbench.dataplane.testing.TlsProviders;
import dev.meshbench.model.EgressCase;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The chains the benchmarks measure: small echoes and multi-megabyte one-way transfers arrive intact. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LoopbackChainTest {
    private MeshIdentities ids;
    private EchoServer echo;
    private EchoServer sink;

    @BeforeAll
    void start() {
        ids = MeshIdentities.create();
        echo = EchoServer.start(ids.server(), EchoServer.Mode.ECHO);
        sink = EchoServer.start(ids.server(), EchoServer.Mode.ACK_SINK);
    }

    @AfterAll
    void stop() {
        echo.close();
        sink.close();
    }

    static Stream<Arguments> casesOnEachProvider() {
        return TlsProviders.both().flatMap(p -> Stream.of(EgressCase.values()).map(c -> Arguments.of(c, p)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("casesOnEachProvider")
    @DisplayName("echoes a 620-byte message and carries 4 MiB one way, with every hop of the chain counting it")
    void echoAndBulk(EgressCase egressCase, TlsProvider provider) throws Exception {
        TlsProviders.assumeUsable(provider);
        byte[] message = new byte[620];
        byte[] bulk = new byte[4 << 20];
        new Random(1).nextBytes(message);
        new Random(2).nextBytes(bulk);
        try (LoopbackChain chain = LoopbackChain.start(egressCase, echo.address(), ids, 1, provider)) {
            assertEquals(LoopbackChain.hopsOf(egressCase), java.util.List.copyOf(chain.hops().keySet()));
            chain.hops().values().forEach(hop -> assertEquals(provider, hop.tlsProvider()));
            try (AppTlsClient app = AppTlsClient.connect(chain.entry(), ids.serverName(), ids.externalCa().certificate())) {
                assertArrayEquals(message, app.roundTrip(message));
            }
        }
        try (LoopbackChain chain = LoopbackChain.start(egressCase, sink.address(), ids, 1, provider)) {
            try (AppTlsClient app = AppTlsClient.connect(chain.entry(), ids.serverName(), ids.externalCa().certificate())) {
                app.sendFrame(bulk);
                app.sendFrame(message);
                for (String hop : LoopbackChain.hopsOf(egressCase)) {
                    HopStats s = chain.stats(hop);
                    assertEquals(1, s.accepted(), hop);
                    assertEquals(app.rawWritten(), s.bytesClientToUpstream(), hop);
                    assertTrue(s.bytesClientToUpstream() > bulk.length, hop);
                }
            }
            for (String hop : LoopbackChain.hopsOf(egressCase)) {
                Eventually.await(hop + " closed", () -> chain.stats(hop).active() == 0);
            }
        }
    }
}
