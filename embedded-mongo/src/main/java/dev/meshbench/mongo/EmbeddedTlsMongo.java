package dev.meshbench.mongo;

import de.bwaldvogel.mongo.MongoServer;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import dev.meshbench.pki.IssuedCertificate;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-memory MongoDB wire-protocol server that only speaks TLS, with a CA and server certificate made for this
 * run. The CA certificate (never its key) is written to {@code <dir>/mongo-ca.pem} for clients to trust; the server
 * certificate names {@link EmbeddedMongoConfig#serverName()}, {@code localhost}, {@code 127.0.0.1} and {@code ::1}.
 *
 * <p>Backed by mongo-java-server's memory backend, extended with non-unique indexes for equality queries
 * ({@link IndexingMemoryBackend}). It answers {@code ping} and the legacy handshake but not {@code hello}, and
 * reports wire version 8. Range queries and operators scan the collection.
 *
 * <pre>{@code
 * try (EmbeddedTlsMongo mongo = EmbeddedTlsMongo.start(EmbeddedMongoConfig.loopback(dir))) {
 *     String uri = mongo.connectionString(); // mongodb://mongo.meshbench.test:<port>/?tls=true
 * }
 * }</pre>
 */
public final class EmbeddedTlsMongo implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedTlsMongo.class);

    private final EmbeddedMongoConfig config;
    private final MongoServer server;
    private final InetSocketAddress address;
    private final X509Certificate caCertificate;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedTlsMongo(EmbeddedMongoConfig config, MongoServer server, InetSocketAddress address, X509Certificate ca) {
        this.config = config;
        this.server = server;
        this.address = address;
        this.caCertificate = ca;
    }

    /**
     * Makes the certificates, writes the CA file and starts listening.
     *
     * @throws EmbeddedMongoException naming the address or file when binding or writing fails
     */
    public static EmbeddedTlsMongo start(EmbeddedMongoConfig config) {
        CertificateAuthority ca = CertificateAuthority.create("meshbench mongo CA");
        IssuedCertificate serverCert = ca.issue(CertificateSpec.server(config.serverName(),
                List.of(config.serverName(), "localhost")));
        Path caFile = config.caFile();
        try {
            Files.createDirectories(caFile.getParent());
        } catch (IOException e) {
            throw new EmbeddedMongoException("creating directory " + caFile.getParent() + " failed: " + e.getMessage(), e);
        }
        ca.writeCertificatePem(caFile);

        MongoServer server = new MongoServer(new IndexingMemoryBackend());
        server.enableSsl(serverCert.privateKey(), null, serverCert.chain());
        String where = config.host() + ":" + config.port();
        try {
            server.bind(config.host(), config.port());
        } catch (Exception e) { // Netty rethrows the checked BindException undeclared
            server.shutdownNow();
            throw new EmbeddedMongoException("listening on " + where + " failed: " + describe(e), e);
        }
        InetSocketAddress bound = server.getLocalAddress();
        LOG.info("embedded MongoDB (TLS, in-memory) listening on {} as {}, CA in {}", bound, config.serverName(), caFile);
        return new EmbeddedTlsMongo(config, server, bound, ca.certificate());
    }

    /** The bound address (the real port when the config asked for 0). */
    public InetSocketAddress address() {
        return address;
    }

    /** {@code host:port} with the bound IP literal, as the ready line reports it. */
    public String hostAndPort() {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    public int port() {
        return address.getPort();
    }

    /** The CA file clients should trust (absolute path). */
    public Path caFile() {
        return config.caFile();
    }

    public X509Certificate caCertificate() {
        return caCertificate;
    }

    public String serverName() {
        return config.serverName();
    }

    /**
     * {@code mongodb://<serverName>:<port>/?tls=true}: clients must map the server name to the bound address
     * (a host alias or DNS) so that SNI and host name verification use the name.
     */
    public String connectionString() {
        return "mongodb://" + config.serverName() + ":" + port() + "/?tls=true";
    }

    /** Stops listening and drops every connection and all data. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            server.shutdownNow();
            LOG.info("embedded MongoDB on {} stopped", address);
        }
    }

    private static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return root == t ? m : (t.getMessage() == null ? "" : t.getMessage() + ": ") + m;
    }
}
