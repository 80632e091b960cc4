package dev.meshbench.mongo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoTimeoutException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.spi.dns.InetAddressResolver;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.TlsContexts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("EmbeddedTlsMongo")
class EmbeddedTlsMongoTest {
    @TempDir
    static Path dir;
    static EmbeddedTlsMongo mongo;

    @BeforeAll
    static void start() {
        mongo = EmbeddedTlsMongo.start(EmbeddedMongoConfig.loopback(dir));
    }

    @AfterAll
    static void stop() {
        mongo.close();
    }

    /** Maps the given names to loopback, so the driver connects by name (SNI, host name check) to the local port. */
    static InetAddressResolver aliasToLoopback(String... names) {
        List<String> aliased = List.of(names);
        return host -> {
            if (aliased.contains(host)) {
                return List.of(InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1}));
            }
            return List.of(InetAddress.getAllByName(host));
        };
    }

    static MongoClient client(String uri, SSLContext tls, InetAddressResolver resolver) {
        MongoClientSettings.Builder b = MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(uri))
                .applyToClusterSettings(c -> c.serverSelectionTimeout(2, TimeUnit.SECONDS))
                .applyToSocketSettings(s -> s.connectTimeout(2, TimeUnit.SECONDS));
        if (tls != null) {
            b.applyToSslSettings(s -> s.context(tls));
        }
        if (resolver != null) {
            b.inetAddressResolver(resolver);
        }
        return MongoClients.create(b.build());
    }

    /**
     * The message of a ping that times out, once it names {@code cause} (at most 10 pings, 2 s each). The driver's
     * monitor records why it could not connect on its own thread, and the timeout's message shows what it has recorded
     * so far: on a busy machine the first ping can time out before the monitor's first attempt has failed.
     */
    static String pingFailure(MongoClient c, String cause) {
        String message = "";
        for (int i = 0; i < 10 && !message.contains(cause); i++) {
            message = assertThrows(MongoTimeoutException.class, () -> c.getDatabase("admin").runCommand(new Document("ping", 1)))
                    .getMessage();
        }
        return message;
    }

    @Test
    @DisplayName("serves the real driver over TLS by its server name, with host name verification on")
    void servesDriverOverTls() {
        SSLContext tls = TlsContexts.client(mongo.caFile(), null, null);
        try (MongoClient c = client(mongo.connectionString(), tls, aliasToLoopback(mongo.serverName()))) {
            assertEquals(1.0, ((Number) c.getDatabase("admin").runCommand(new Document("ping", 1)).get("ok")).doubleValue());
            MongoCollection<Document> coll = c.getDatabase("t").getCollection("things");
            coll.insertOne(new Document("_id", "a").append("n", 1));
            assertEquals(1, coll.find(new Document("_id", "a")).first().getInteger("n"));
        }
    }

    @Test
    @DisplayName("also verifies as 127.0.0.1 and localhost, the other names in its certificate")
    void certificateNamesLoopback() {
        SSLContext tls = TlsContexts.client(mongo.caFile(), null, null);
        for (String host : List.of("127.0.0.1", "localhost")) {
            try (MongoClient c = client("mongodb://" + host + ":" + mongo.port() + "/?tls=true", tls, null)) {
                c.getDatabase("admin").runCommand(new Document("ping", 1));
            }
        }
    }

    @Test
    @DisplayName("refuses a client that does not trust its CA, with a certificate path error")
    void rejectsUntrustingClient() {
        SSLContext otherCa = TlsContexts.client(CertificateAuthority.create("some other CA").certificate(), null);
        try (MongoClient c = client(mongo.connectionString(), otherCa, aliasToLoopback(mongo.serverName()))) {
            String message = pingFailure(c, "PKIX path building failed");
            assertTrue(message.contains("PKIX path building failed"), message);
        }
    }

    @Test
    @DisplayName("fails host name verification for a name its certificate does not carry")
    void rejectsWrongHostName() {
        SSLContext tls = TlsContexts.client(mongo.caFile(), null, null);
        String uri = "mongodb://not-mongo.meshbench.test:" + mongo.port() + "/?tls=true";
        try (MongoClient c = client(uri, tls, aliasToLoopback("not-mongo.meshbench.test"))) {
            String message = pingFailure(c, "No subject alternative DNS name matching not-mongo.meshbench.test");
            assertTrue(message.contains("No subject alternative DNS name matching not-mongo.meshbench.test"), message);
        }
    }

    @Test
    @DisplayName("does not talk to a plain (non-TLS) client")
    void rejectsPlainClient() {
        try (MongoClient c = client("mongodb://127.0.0.1:" + mongo.port() + "/", null, null)) {
            MongoTimeoutException e = assertThrows(MongoTimeoutException.class,
                    () -> c.getDatabase("admin").runCommand(new Document("ping", 1)));
            assertTrue(e.getMessage().contains("127.0.0.1:" + mongo.port()), e.getMessage());
            assertFalse(e.getMessage().contains("state=CONNECTED"), e.getMessage());
        }
    }

    @Test
    @DisplayName("writes only the CA certificate, never a private key")
    void writesCaCertificateOnly() throws IOException {
        String pem = Files.readString(mongo.caFile());
        assertTrue(pem.startsWith("-----BEGIN CERTIFICATE-----"), pem);
        assertFalse(pem.contains("PRIVATE KEY"));
        assertEquals(dir.resolve("mongo-ca.pem").toAbsolutePath(), mongo.caFile());
    }

    @Test
    @DisplayName("names the address when the port is taken")
    void namesAddressWhenPortTaken() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            EmbeddedMongoConfig cfg = new EmbeddedMongoConfig("127.0.0.1", taken.getLocalPort(), dir.resolve("taken"),
                    EmbeddedMongoConfig.DEFAULT_SERVER_NAME);
            EmbeddedMongoException e = assertThrows(EmbeddedMongoException.class, () -> EmbeddedTlsMongo.start(cfg));
            assertTrue(e.getMessage().startsWith("listening on 127.0.0.1:" + taken.getLocalPort() + " failed"), e.getMessage());
        }
    }
}
