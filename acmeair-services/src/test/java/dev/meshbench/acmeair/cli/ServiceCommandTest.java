package dev.meshbench.acmeair.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.acmeair.config.MongoConfig;
import dev.meshbench.acmeair.config.ServiceConfig;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.component.cli.ComponentCommandLine;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ParameterException;

@DisplayName("service options")
class ServiceCommandTest {
    @TempDir
    Path dir;
    Path pub;
    Path ca;

    @BeforeEach
    void files() throws IOException {
        pub = Files.writeString(dir.resolve("jwt-public.pem"), "x");
        ca = Files.writeString(dir.resolve("ca.pem"), "x");
    }

    static IllegalArgumentException fails(ServiceName s, List<String> args, Map<String, String> env) {
        ParameterException e = assertThrows(ParameterException.class, () -> ServiceCommand.parse(s, args, env).config());
        return new IllegalArgumentException(ComponentCommandLine.describe(e));
    }

    @Test
    @DisplayName("reads every option from the command line, aliases repeatable")
    void readsCommandLine() {
        var p = ServiceCommand.parse(ServiceName.BOOKING, List.of("--port", "9084", "--mongo-uri", "mongodb://mongo.meshbench.test:27017/?tls=true",
                "--mongo-ca-file", ca.toString(), "--mongo-host-alias", "mongo.meshbench.test=127.0.0.1", "--mongo-host-alias=other.test=::1",
                "--customer-url", "http://127.0.0.1:9082/", "--flight-url=http://127.0.0.1:9083", "--jwt-public-key", pub.toString(),
                "--mongo-timeout-ms", "1500", "--exit-on-stdin-eof"), Map.of());
        ServiceConfig c = p.config();
        assertTrue(p.exitOnStdinEof());
        assertEquals(9084, c.port());
        assertEquals("127.0.0.1", c.host());
        assertEquals(Map.of("mongo.meshbench.test", "127.0.0.1", "other.test", "::1"), c.mongo().hostAliases());
        assertEquals(URI.create("http://127.0.0.1:9082"), c.customerUrl());
        assertEquals(Duration.ofMillis(1500), c.mongo().serverSelectionTimeout());
        assertEquals("mongo.meshbench.test:27017 (alias of 127.0.0.1)", c.mongo().describeAddress());
    }

    @Test
    @DisplayName("falls back to environment variables, and the command line wins")
    void readsEnvironment() {
        Map<String, String> env = Map.of("MONGO_URI", "mongodb://db.test:27017/?tls=true", "MONGO_CA_FILE", ca.toString(),
                "MONGO_HOST_ALIASES", "db.test=10.0.0.5,x.test=10.0.0.6", "JWT_PUBLIC_KEY", pub.toString(), "PORT", "8080",
                "BIND_HOST", "0.0.0.0");
        ServiceConfig c = ServiceCommand.parse(ServiceName.CUSTOMER, List.of("--port", "9999"), env).config();
        assertEquals(9999, c.port());
        assertEquals("0.0.0.0", c.host());
        assertEquals("10.0.0.5", c.mongo().hostAliases().get("db.test"));
        assertEquals(ca, c.mongo().caFile());
    }

    @Test
    @DisplayName("names every missing option a service needs")
    void namesMissingOptions() {
        IllegalArgumentException e = fails(ServiceName.BOOKING, List.of(), Map.of());
        assertEquals("the booking service needs --mongo-uri (MONGO_URI), --jwt-public-key (JWT_PUBLIC_KEY), "
                + "--customer-url (CUSTOMER_URL), --flight-url (FLIGHT_URL)", e.getMessage());
        assertTrue(fails(ServiceName.AUTH, List.of("--customer-url", "http://127.0.0.1:1"), Map.of()).getMessage()
                .contains("--jwt-private-key"));
        ServiceConfig flight = ServiceCommand.parse(ServiceName.FLIGHT, List.of("--mongo-uri", "mongodb://h:1"), Map.of()).config();
        assertNull(flight.jwtPublicKey());
    }

    @Test
    @DisplayName("rejects bad values, naming the option and the rule")
    void rejectsBadValues() {
        String uri = "mongodb://mongo.meshbench.test:27017/?tls=true";
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-uri", uri, "--port", "http"), Map.of()).getMessage().contains("--port 'http'"));
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-uri", uri, "--port", "70000"), Map.of()).getMessage().contains("70000"));
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-uri", uri, "--mongo-host-alias", "mongo.meshbench.test"), Map.of())
                .getMessage().contains("must look like name=ip"));
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-uri", uri, "--mongo-host-alias", "mongo.meshbench.test=localhost"), Map.of())
                .getMessage().contains("'localhost' is not an IPv4 or IPv6 literal"));
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-uri", "http://nope"), Map.of()).getMessage().contains("'http://nope' is invalid"));
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-uri", "mongodb://h:1/", "--mongo-ca-file", ca.toString()), Map.of())
                .getMessage().contains("does not enable TLS (add tls=true)"));
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-uri", uri, "--mongo-ca-file", dir.resolve("missing.pem").toString()), Map.of())
                .getMessage().contains("missing.pem does not exist"));
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-uri", uri, "--verbose", "yes"), Map.of()).getMessage().contains("'--verbose'"));
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-uri"), Map.of()).getMessage().contains("--mongo-uri needs a value"));
        assertTrue(fails(ServiceName.AUTH, List.of("--customer-url", "127.0.0.1:9082", "--jwt-private-key", pub.toString()), Map.of())
                .getMessage().contains("must be an http(s) URL"));
        assertTrue(fails(ServiceName.FLIGHT, List.of("--mongo-ca-file", ca.toString()), Map.of()).getMessage()
                .contains("--mongo-ca-file is given but --mongo-uri (MONGO_URI) is not"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServiceName.parse("payments")).getMessage()
                .contains("auth, customer, flight, booking"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new MongoConfig(uri, null).withServerSelectionTimeout(Duration.ZERO))
                .getMessage().contains("must be positive"));
    }

    private static final List<String> MONGO = List.of("--mongo-uri", "mongodb://mongo.meshbench.test:27017/?tls=true");

    private static List<String> with(String... more) {
        List<String> out = new java.util.ArrayList<>(MONGO);
        out.addAll(List.of(more));
        return out;
    }

    @Test
    @DisplayName("--added-latency-ms (or ADDED_LATENCY_MS) sets the deliberate slowdown; absent means none; negative fails")
    void addedLatency() {
        assertEquals(0, ServiceCommand.parse(ServiceName.FLIGHT, MONGO, Map.of()).config().behaviour().addedLatencyMs());
        assertEquals(150, ServiceCommand.parse(ServiceName.FLIGHT, with("--added-latency-ms", "150"), Map.of())
                .config().behaviour().addedLatencyMs());
        assertEquals(40, ServiceCommand.parse(ServiceName.FLIGHT, MONGO, Map.of("ADDED_LATENCY_MS", "40"))
                .config().behaviour().addedLatencyMs());
        assertTrue(fails(ServiceName.FLIGHT, with("--added-latency-ms", "-1"), Map.of()).getMessage().contains("--added-latency-ms"));
    }

    @Test
    @DisplayName("--allow-mongo-switch (or ALLOW_MONGO_SWITCH=true) turns the MongoDB switch on; it is off by default and needs --mongo-uri")
    void allowMongoSwitch() {
        assertFalse(ServiceCommand.parse(ServiceName.FLIGHT, MONGO, Map.of()).config().allowMongoSwitch());
        assertTrue(ServiceCommand.parse(ServiceName.FLIGHT, with("--allow-mongo-switch"), Map.of()).config().allowMongoSwitch());
        assertTrue(ServiceCommand.parse(ServiceName.FLIGHT, MONGO, Map.of("ALLOW_MONGO_SWITCH", "true")).config().allowMongoSwitch());
        assertFalse(ServiceCommand.parse(ServiceName.FLIGHT, MONGO, Map.of("ALLOW_MONGO_SWITCH", "false")).config().allowMongoSwitch());
        assertEquals("--allow-mongo-switch (ALLOW_MONGO_SWITCH) 'yes' must be true or false",
                fails(ServiceName.FLIGHT, MONGO, Map.of("ALLOW_MONGO_SWITCH", "yes")).getMessage());
        assertEquals("--allow-mongo-switch (ALLOW_MONGO_SWITCH) needs --mongo-uri (MONGO_URI): the auth service has no MongoDB client to switch",
                fails(ServiceName.AUTH, List.of("--customer-url", "http://127.0.0.1:9082", "--jwt-private-key", pub.toString(),
                        "--allow-mongo-switch"), Map.of()).getMessage());
    }

    @Test
    @DisplayName("a bad environment variable is refused naming option and variable; the command line overriding it wins")
    void badVariable() {
        assertEquals("--port (PORT) 'http' is not a whole number", fails(ServiceName.FLIGHT, MONGO, Map.of("PORT", "http")).getMessage());
        assertEquals("--flight-cache (FLIGHT_CACHE) 'yes' must be true or false",
                fails(ServiceName.FLIGHT, MONGO, Map.of("FLIGHT_CACHE", "yes")).getMessage());
        assertEquals(9, ServiceCommand.parse(ServiceName.FLIGHT, with("--port", "9"), Map.of("PORT", "http")).config().port());
    }

    @Test
    @DisplayName("every variable the Kubernetes manifests set reaches the service; MONGO_HOST_ALIASES is comma-separated")
    void kubernetesVariables() {
        Map<String, String> env = new java.util.HashMap<>(Map.of("BIND_HOST", "0.0.0.0", "PORT", "8080",
                "MONGO_URI", "mongodb://db.test:27017/?tls=true", "MONGO_CA_FILE", ca.toString(),
                "CUSTOMER_URL", "http://customer:8080", "FLIGHT_URL", "http://flight:8080/", "JWT_PUBLIC_KEY", pub.toString(),
                "FLIGHT_CACHE", "false", "REWARDS_ASYNC", "false", "ADDED_LATENCY_MS", "7"));
        env.put("MONGO_SERVER_SELECTION_TIMEOUT_MS", "1200");
        ServiceConfig c = ServiceCommand.parse(ServiceName.BOOKING, List.of(), env).config();
        assertEquals("0.0.0.0", c.host());
        assertEquals(8080, c.port());
        assertEquals("mongodb://db.test:27017/?tls=true", c.mongo().uri());
        assertEquals(URI.create("http://flight:8080"), c.flightUrl());
        assertEquals(new dev.meshbench.acmeair.config.Behaviour(false, false, 7), c.behaviour());
        assertEquals(Duration.ofMillis(1200), c.mongo().serverSelectionTimeout());
    }
}
