package dev.meshbench.acmeair.mongo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.acmeair.config.MongoConfig;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("MongoDB connection string parts: what a switch may change, and masking")
class ConnectionStringPartsTest {
    static final String RUNNING = "mongodb://mongo.meshbench.test:27017/?tls=true";

    static List<String> differences(String next, String running) {
        return ConnectionStringParts.of(next).differencesBesidesHosts(ConnectionStringParts.of(running));
    }

    @Test
    @DisplayName("cuts a connection string into scheme, user information, hosts, database and options")
    void cuts() {
        ConnectionStringParts p = ConnectionStringParts.of("mongodb://kit:p%40ss@a:1,b:2/acmeair?tls=true;maxPoolSize=5&TLS=false");
        assertEquals("mongodb", p.scheme());
        assertEquals("kit:p%40ss", p.userInfo());
        assertEquals("a:1,b:2", p.hosts());
        assertEquals("acmeair", p.database());
        assertEquals(new ConnectionStringParts.Option("TLS", "false"), p.options().get("tls"), "the last of a repeated option counts");
        assertEquals("5", p.options().get("maxpoolsize").value());
        ConnectionStringParts bare = ConnectionStringParts.of("mongodb://h:1?tls=true");
        assertEquals("h:1", bare.hosts());
        assertEquals("", bare.database());
        assertEquals("true", bare.options().get("tls").value());
    }

    @Test
    @DisplayName("only the hosts changed: no differences, whatever the option names' case and order")
    void onlyHosts() {
        assertEquals(List.of(), differences("mongodb://mongo.meshbench.test:40001/?tls=true", RUNNING));
        assertEquals(List.of(), differences("mongodb://a:1,b:2/?tlsAllowInvalidHostnames=false&TLS=true",
                "mongodb://c:3/?tls=true&tlsallowinvalidhostnames=false"));
        assertEquals(List.of(), differences("mongodb://kit:pw@b:2/db?tls=true", "mongodb://kit:pw@a:1/db?tls=true"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "mongodb://mongo.meshbench.test:1/|option tls (left out)",
        "mongodb://mongo.meshbench.test:1/?tls=false|option tls",
        "mongodb://mongo.meshbench.test:1/?tls=TRUE|option tls",
        "mongodb://mongo.meshbench.test:1/?tls=true&maxPoolSize=1&appName=x|options appName (added), maxPoolSize (added)",
        "mongodb://u:p@mongo.meshbench.test:1/?tls=true|the credentials (it has user information, the running one has none)",
        "mongodb://mongo.meshbench.test:1/other?tls=true|the database part after the hosts",
        "mongodb+srv://mongo.meshbench.test/?tls=true|the scheme (mongodb+srv://, running mongodb://)",
    })
    @DisplayName("names each difference besides the hosts, never a value")
    void namesDifferences(String next, String expected) {
        assertEquals(List.of(expected), differences(next, RUNNING));
    }

    @Test
    @DisplayName("credentials that differ are named without their values")
    void credentialsDiffer() {
        assertEquals(List.of("the credentials (user information)"), differences("mongodb://kit:new@b:2/?tls=true", "mongodb://kit:old@a:1/?tls=true"));
        assertEquals(List.of("the credentials (it has none, the running one has)"), differences("mongodb://b:2/?tls=true", "mongodb://kit:old@a:1/?tls=true"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "mongodb://mongo.meshbench.test:27017/?tls=true|mongodb://mongo.meshbench.test:27017/?tls=true",
        "mongodb://kit:s3cret@h:1/?tls=true|mongodb://kit:****@h:1/?tls=true",
        "mongodb://kit:s3cret@h:1|mongodb://kit:****@h:1",
        "mongodb://x509user@h:1/?tls=true|mongodb://x509user@h:1/?tls=true",
        "mongodb://kit:p/w@h:1/?tls=true|mongodb://****@h:1/?tls=true",
        "mongodb://kit:p?w@h:1/?tls=true|mongodb://****@h:1/?tls=true",
        "kit:s3cret@h:1|****@h:1",
        "mongodb://h:1/?appName=a@b|mongodb://****@b",
    })
    @DisplayName("masks the password, and all of the user information when it cannot be told from the rest")
    void masks(String text, String shown) {
        assertEquals(shown, ConnectionStringParts.masked(text));
    }

    @Test
    @DisplayName("a switch's connection string keeps the running CA, certificate, aliases and timeout; MongoConfig's rules apply")
    void nextConfigKeepsTheRest() {
        MongoConfig running = new MongoConfig(RUNNING, null).withHostAlias("mongo.meshbench.test", "127.0.0.1")
                .withServerSelectionTimeout(java.time.Duration.ofMillis(1500));
        MongoConfig next = SwitchableMongo.nextConfig(running, "  mongodb://mongo.meshbench.test:40001/?tls=true\n");
        assertEquals("mongodb://mongo.meshbench.test:40001/?tls=true", next.uri());
        assertEquals(running.hostAliases(), next.hostAliases());
        assertEquals(running.serverSelectionTimeout(), next.serverSelectionTimeout());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SwitchableMongo.nextConfig(running, "mongodb://kit:s3cret@mongo.meshbench.test:notaport/?tls=true"));
        assertTrue(e.getMessage().startsWith("MongoDB connection string 'mongodb://kit:****@mongo.meshbench.test:notaport/?tls=true' is invalid"),
                e.getMessage());
    }
}
