package dev.meshbench.dataplane.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RouteTableTest {
    private static Upstream up(int port) {
        return Upstream.of(new HostAndPort("127.0.0.1", port), "u" + port);
    }

    private static final RouteTable TABLE = new RouteTable(List.of(
            new RouteTable.Route("*.meshbench.test", up(1)),
            new RouteTable.Route("*.eu.meshbench.test", up(2)),
            new RouteTable.Route("mongo.meshbench.test", up(3))));

    private static Optional<Integer> port(RouteTable t, String name) {
        return t.match(name).map(r -> r.upstream().address().port());
    }

    @Test
    @DisplayName("an exact name beats a wildcard, and a longer wildcard beats a shorter one")
    void precedence() {
        assertEquals(Optional.of(3), port(TABLE, "mongo.meshbench.test"));
        assertEquals(Optional.of(2), port(TABLE, "db.eu.meshbench.test"));
        assertEquals(Optional.of(1), port(TABLE, "db.us.meshbench.test"));
    }

    @Test
    @DisplayName("a wildcard matches any depth but not the bare domain or look-alike suffixes")
    void wildcardScope() {
        assertEquals(Optional.of(1), port(TABLE, "a.b.c.meshbench.test"));
        assertEquals(Optional.empty(), port(TABLE, "meshbench.test"));
        assertEquals(Optional.empty(), port(TABLE, "evilmeshbench.test"));
        assertEquals(Optional.empty(), port(TABLE, "mongo.meshbench.test.evil.org"));
        assertEquals(Optional.empty(), port(TABLE, ""));
        assertEquals(Optional.empty(), port(TABLE, null));
    }

    @Test
    @DisplayName("matching ignores case and a trailing dot")
    void normalization() {
        assertEquals(Optional.of(3), port(TABLE, "MONGO.MeshBench.Test."));
        assertEquals(Optional.of(1), port(RouteTable.of("*.MESHBENCH.test", up(1)), "x.meshbench.test"));
    }

    @Test
    @DisplayName("* catches every name, after all other patterns")
    void catchAll() {
        RouteTable t = new RouteTable(List.of(new RouteTable.Route("*", up(9)), new RouteTable.Route("*.meshbench.test", up(1))));
        assertEquals(Optional.of(1), port(t, "x.meshbench.test"));
        assertEquals(Optional.of(9), port(t, "anything.org"));
    }

    @Test
    @DisplayName("rejects malformed patterns and duplicates, naming the pattern")
    void rejectsBadPatterns() {
        for (String bad : List.of("", "*.", "**.x.org", "a.*.org", "*x.org", "bad name.org", "-x.org", "x..org")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RouteTable.Route(bad, up(1)), bad);
            assertTrue(e.getMessage().contains("route pattern"), e.getMessage());
        }
        IllegalArgumentException dup = assertThrows(IllegalArgumentException.class, () -> new RouteTable(List.of(
                new RouteTable.Route("a.org", up(1)), new RouteTable.Route("A.org.", up(2)))));
        assertTrue(dup.getMessage().contains("a.org"), dup.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RouteTable(List.of()));
    }
}
