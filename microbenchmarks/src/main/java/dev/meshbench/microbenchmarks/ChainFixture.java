package dev.meshbench.microbenchmarks;

import dev.meshbench.dataplane.ListenerBindException;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.loopback.AppTlsClient;
import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.dataplane.loopback.LoopbackChain;
import dev.meshbench.dataplane.loopback.MeshIdentities;
import dev.meshbench.model.EgressCase;
import java.io.IOException;

/**
 * One measured path: a TLS server standing in for MongoDB, the hops of an egress case in front of it (in this
 * JVM, one event-loop thread per hop, every hop's mesh mTLS on one TLS provider), and one app TLS connection
 * through them, opened before measuring. The app and the server keep the JDK's TLS whatever the hops use.
 */
final class ChainFixture implements AutoCloseable {
    /** Event-loop threads per hop; one keeps the 2-core machine from being oversubscribed by idle loops. */
    static final int IO_THREADS_PER_HOP = 1;

    private final EchoServer server;
    private final LoopbackChain chain;
    private final AppTlsClient client;

    /**
     * @param path        the egress case whose MongoDB path is measured
     * @param tlsProvider the hops' TLS provider: boringssl, jdk or auto; boringssl fails the trial, saying why, where
     *                    BoringSSL is not usable
     */
    ChainFixture(EgressCase path, String tlsProvider, EchoServer.Mode mode) throws IOException, ListenerBindException {
        TlsProvider provider = TlsProvider.parse(tlsProvider).resolve();
        MeshIdentities ids = MeshIdentities.create();
        EchoServer s = EchoServer.start(ids.server(), mode, 1);
        LoopbackChain c = null;
        try {
            c = LoopbackChain.start(path, s.address(), ids, IO_THREADS_PER_HOP, provider);
            client = AppTlsClient.connect(c.entry(), ids.serverName(), ids.externalCa().certificate());
        } catch (IOException | ListenerBindException | RuntimeException e) {
            if (c != null) {
                c.close();
            }
            s.close();
            throw e;
        }
        server = s;
        chain = c;
    }

    AppTlsClient client() {
        return client;
    }

    @Override
    public void close() throws IOException {
        try {
            client.close();
        } finally {
            chain.close();
            server.close();
        }
    }
}
