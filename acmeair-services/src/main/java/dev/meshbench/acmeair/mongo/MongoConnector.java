package dev.meshbench.acmeair.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.meshbench.acmeair.config.MongoConfig;
import dev.meshbench.pki.Pem;
import dev.meshbench.pki.TlsContexts;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.mongodb.MongoMetricsCommandListener;
import io.micrometer.core.instrument.binder.mongodb.MongoMetricsConnectionPoolListener;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the service's {@link MongoClient}: TLS from the configured CA (certificate and host name verification stay
 * on), an optional client certificate, host aliases, bounded timeouts so nothing hangs when MongoDB is away, and
 * Micrometer's command timers and connection-pool gauges.
 */
public final class MongoConnector {
    private static final Logger LOG = LoggerFactory.getLogger(MongoConnector.class);
    private static final int CONNECT_TIMEOUT_MS = 3000;

    private MongoConnector() {
    }

    /** Creating the client does not wait for MongoDB; the first operation does, for at most the selection timeout. */
    public static MongoClient connect(MongoConfig config, String applicationName, MeterRegistry registry) {
        ConnectionString cs = config.connectionString();
        MongoClientSettings.Builder b = MongoClientSettings.builder()
                .applyConnectionString(cs)
                .applicationName(applicationName)
                .addCommandListener(new MongoMetricsCommandListener(registry))
                .applyToConnectionPoolSettings(p -> p.addConnectionPoolListener(new MongoMetricsConnectionPoolListener(registry)));
        if (cs.getServerSelectionTimeout() == null) {
            b.applyToClusterSettings(c -> c.serverSelectionTimeout(config.serverSelectionTimeout().toMillis(), TimeUnit.MILLISECONDS));
        }
        if (cs.getConnectTimeout() == null) {
            b.applyToSocketSettings(s -> s.connectTimeout(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        }
        if (Boolean.TRUE.equals(cs.getSslEnabled())) {
            SSLContext ctx = sslContext(config);
            b.applyToSslSettings(s -> s.context(ctx));
            if (Boolean.TRUE.equals(cs.getSslInvalidHostnameAllowed())) {
                LOG.warn("MongoDB host name verification is OFF because connection string sets tlsAllowInvalidHostnames");
            }
        }
        if (!config.hostAliases().isEmpty()) {
            b.inetAddressResolver(new HostAliasResolver(config.hostAliases()));
        }
        LOG.info("MongoDB client for {} at {} (tls={}, CA={})", applicationName, config.describeAddress(),
                cs.getSslEnabled(), config.caFile() == null ? "JVM default" : config.caFile());
        return MongoClients.create(b.build());
    }

    static SSLContext sslContext(MongoConfig config) {
        TrustManagerFactory tmf;
        if (config.caFile() != null) {
            tmf = TlsContexts.trustManagers(Pem.readCertificates(config.caFile()));
        } else {
            try {
                tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init((KeyStore) null);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("loading the JVM's default trust store failed: " + e.getMessage(), e);
            }
        }
        KeyManager[] keys = null;
        if (config.clientCertificate() != null) {
            List<X509Certificate> chain = Pem.readCertificates(config.clientCertificate());
            keys = TlsContexts.keyManagers(Pem.readPrivateKey(config.clientKey()), chain.toArray(X509Certificate[]::new)).getKeyManagers();
        }
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(keys, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("initialising TLS for MongoDB failed: " + e.getMessage(), e);
        }
    }
}
