package dev.meshbench.dataplane.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PathRoutesTest {
    private static PathRoutes.Route route(String prefix, String name) {
        return new PathRoutes.Route(prefix, Upstream.of(new HostAndPort("127.0.0.1", 40000 + name.length()), name));
    }

    private static Optional<String> upstream(PathRoutes routes, String path) {
        return routes.match(path).map(r -> r.upstream().displayName());
    }

    @Test
    @DisplayName("a prefix matches at a segment boundary only, the longest matching prefix wins")
    void segmentBoundaryAndLongest() {
        PathRoutes routes = new PathRoutes(List.of(route("/auth", "auth"), route("/flight", "flight"), route("/flight/query", "query")));
        assertEquals(Optional.of("auth"), upstream(routes, "/auth"));
        assertEquals(Optional.of("auth"), upstream(routes, "/auth/login"));
        assertEquals(Optional.empty(), upstream(routes, "/authx"));
        assertEquals(Optional.empty(), upstream(routes, "/"));
        assertEquals(Optional.of("flight"), upstream(routes, "/flight/queryx"));
        assertEquals(Optional.of("query"), upstream(routes, "/flight/query"));
        assertEquals(Optional.of("query"), upstream(routes, "/flight/query/abc"));
    }

    @Test
    @DisplayName("'/' is a catch-all below every longer prefix; a trailing slash is the same prefix")
    void catchAll() {
        PathRoutes routes = new PathRoutes(List.of(route("/", "web"), route("/auth/", "auth")));
        assertEquals(List.of("/", "/auth"), routes.prefixes());
        assertEquals(Optional.of("web"), upstream(routes, "/authx"));
        assertEquals(Optional.of("auth"), upstream(routes, "/auth/x"));
    }

    @Test
    @DisplayName("refuses a prefix without a leading '/', one given twice, and no routes")
    void refuses() {
        assertEquals("a path prefix starts with '/' (got 'auth')",
                assertThrows(IllegalArgumentException.class, () -> route("auth", "a")).getMessage());
        assertEquals("path prefix /auth is given twice", assertThrows(IllegalArgumentException.class,
                () -> new PathRoutes(List.of(route("/auth", "a"), route("/auth/", "b")))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PathRoutes(List.of()));
    }
}
