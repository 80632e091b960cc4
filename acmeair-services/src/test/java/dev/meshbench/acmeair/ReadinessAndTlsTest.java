package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.MongoConfig;
import dev.meshbench.acmeair.config.ServiceConfig;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.component.testing.ClosedPort;
import dev.meshbench.model.Service;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import dev.meshbench.pki.Pem;
import dev.meshbench.pki.TlsContexts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIMatcher;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(AcmeairSystem.class)
@DisplayName("readiness and TLS to MongoDB")
class ReadinessAndTlsTest {
    static final String NAME = "mongo.meshbench.test";
    @TempDir
    Path dir;

    /** A customer service (in-process, port 0) with the given MongoDB settings. */
    static AcmeairService customerWith(MongoConfig mongo) {
        return AcmeairService.start(new ServiceConfig(ServiceName.CUSTOMER, "127.0.0.1", 0, mongo.withServerSelectionTimeout(Duration.ofSeconds(1)),
                null, null, null, AcmeairSystem.launcher().jwtKeys().publicKey()));
    }

    static JsonNode notReady(AcmeairService s) {
        return notReady(s, "");
    }

    /**
     * The readiness answer (503, DOWN) once its detail names {@code cause}, or the last one after 30 s. The cause is the
     * driver's monitor's last error, which it records on its own thread: a check that ends (1 s server selection)
     * before the monitor's first attempt has failed says only that the ping timed out, and the next check names it.
     */
    static JsonNode notReady(AcmeairService s, String cause) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            HttpResponse<String> r = Http.get(s.baseUrl() + "/customer/ready");
            assertEquals(503, r.statusCode(), r.body());
            JsonNode body = json(r);
            assertEquals("DOWN", body.get("status").asText());
            if (body.get("detail").asText().contains(cause) || System.nanoTime() > deadline) {
                System.out.println("readiness: " + r.body());
                return body;
            }
        }
    }

    @Test
    @DisplayName("every service of the model, started in-process, answers 200 on the model's readiness path (what targets ask)")
    void modelReadinessPathIsServed() {
        for (Service s : Service.values()) {
            HttpResponse<String> r = Http.get(url(ServiceName.parse(s.id())) + s.readyPath());
            assertEquals(200, r.statusCode(), s.id() + " " + s.readyPath() + ": " + r.body());
            assertEquals("UP", json(r).get("status").asText(), r.body());
        }
    }

    @Test
    @DisplayName("every service is ready; the data services name the MongoDB they pinged")
    void allReady() {
        for (ServiceName s : ServiceName.values()) {
            HttpResponse<String> r = Http.get(url(s) + s.readyPath());
            assertEquals(200, r.statusCode(), s + ": " + r.body());
            JsonNode body = json(r);
            assertEquals("UP", body.get("status").asText());
            if (s.keepsData()) {
                assertTrue(body.get("mongo").asText().startsWith(NAME + ":"), r.body());
                assertTrue(body.get("mongo").asText().endsWith("(alias of 127.0.0.1)"), r.body());
            }
        }
    }

    @Test
    @DisplayName("with MongoDB unreachable a service starts without hanging, and readiness answers 503 naming the address")
    void unreachableMongo() throws IOException {
        try (ClosedPort closed = new ClosedPort()) {
            int port = closed.port();
            MongoConfig mongo = new MongoConfig("mongodb://" + NAME + ":" + port + "/?tls=true",
                    AcmeairSystem.launcher().mongo().caFile()).withHostAlias(NAME, "127.0.0.1");
            try (AcmeairService s = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> customerWith(mongo))) {
                JsonNode body = notReady(s, "Connection refused");
                String detail = body.get("detail").asText();
                assertTrue(detail.startsWith("MongoDB at " + NAME + ":" + port + " (alias of 127.0.0.1) did not answer ping"), detail);
                assertTrue(detail.contains("Connection refused"), detail);
                // requests that need MongoDB fail with 503 instead of hanging
                HttpResponse<String> r = Http.get(s.baseUrl() + "/customer/config/countCustomers");
                assertEquals(503, r.statusCode(), r.body());
            }
        }
    }

    @Test
    @DisplayName("a service that does not trust MongoDB's CA is not ready, with a certificate path error")
    void untrustedCa() {
        Path otherCa = CertificateAuthority.create("not the mongo CA").writeCertificatePem(dir.resolve("other-ca.pem"));
        var embedded = AcmeairSystem.launcher().mongo();
        MongoConfig mongo = new MongoConfig(embedded.connectionString(), otherCa).withHostAlias(NAME, "127.0.0.1");
        try (AcmeairService s = customerWith(mongo)) {
            String detail = notReady(s, "PKIX path building failed").get("detail").asText();
            assertTrue(detail.contains("PKIX path building failed"), detail);
        }
    }

    @Test
    @DisplayName("a name that is not in MongoDB's certificate fails host name verification")
    void wrongHostName() {
        var embedded = AcmeairSystem.launcher().mongo();
        MongoConfig mongo = new MongoConfig("mongodb://db.elsewhere.test:" + embedded.port() + "/?tls=true", embedded.caFile())
                .withHostAlias("db.elsewhere.test", "127.0.0.1");
        try (AcmeairService s = customerWith(mongo)) {
            String detail = notReady(s, "No subject alternative DNS name matching db.elsewhere.test").get("detail").asText();
            assertTrue(detail.contains("No subject alternative DNS name matching db.elsewhere.test"), detail);
        }
    }

    @Test
    @DisplayName("a plain (non-TLS) client cannot talk to MongoDB's TLS port")
    void plainClientFails() {
        var embedded = AcmeairSystem.launcher().mongo();
        MongoConfig mongo = new MongoConfig("mongodb://" + NAME + ":" + embedded.port() + "/", null).withHostAlias(NAME, "127.0.0.1");
        try (AcmeairService s = customerWith(mongo)) {
            String detail = notReady(s).get("detail").asText();
            assertTrue(detail.startsWith("MongoDB at " + NAME + ":" + embedded.port()), detail);
        }
    }

    @Test
    @DisplayName("the driver sends the aliased host name as SNI")
    void sendsSni() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create("sni test CA");
        Path caFile = ca.writeCertificatePem(dir.resolve("ca.pem"));
        var serverCert = ca.issue(CertificateSpec.server(NAME, List.of(NAME)));
        try (SSLServerSocket server = (SSLServerSocket) TlsContexts.server(serverCert).getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> sni = new CompletableFuture<>();
            SSLParameters p = server.getSSLParameters();
            p.setSNIMatchers(List.of(new SNIMatcher(0) {
                @Override
                public boolean matches(SNIServerName name) {
                    sni.complete(((SNIHostName) name).getAsciiName());
                    return true;
                }
            }));
            server.setSSLParameters(p);
            Thread acceptor = new Thread(() -> {
                try (SSLSocket c = (SSLSocket) server.accept()) {
                    c.startHandshake();
                } catch (IOException e) {
                    sni.completeExceptionally(e);
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            MongoConfig mongo = new MongoConfig("mongodb://" + NAME + ":" + server.getLocalPort() + "/?tls=true", caFile)
                    .withHostAlias(NAME, "127.0.0.1");
            try (AcmeairService s = customerWith(mongo)) {
                Http.get(s.baseUrl() + "/customer/ready");
                assertEquals(NAME, sni.get(20, TimeUnit.SECONDS));
            }
        }
        assertTrue(Pem.readCertificates(caFile).size() == 1);
    }

    @Test
    @DisplayName("a client certificate is presented when configured (and refused when only half of it is given)")
    void clientCertificateOptions() {
        var embedded = AcmeairSystem.launcher().mongo();
        CertificateAuthority ca = CertificateAuthority.create("client CA");
        var files = ca.issue(CertificateSpec.client("acmeair-customer")).writePem(dir, "client");
        MongoConfig withCert = new MongoConfig(embedded.connectionString(), embedded.caFile(), files.certificateChain(),
                files.privateKey(), Map.of(NAME, "127.0.0.1"), Duration.ofSeconds(2));
        try (AcmeairService s = customerWith(withCert)) {
            assertEquals(200, Http.get(s.baseUrl() + "/customer/ready").statusCode());
        }
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new MongoConfig(embedded.connectionString(), embedded.caFile(), files.certificateChain(), null,
                        Map.of(), Duration.ofSeconds(2)));
        assertTrue(e.getMessage().contains("--mongo-client-key"), e.getMessage());
    }
}
