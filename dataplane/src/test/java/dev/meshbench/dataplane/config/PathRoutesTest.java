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
        return routes.match("GET", path).map(r -> r.upstream().displayName());
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
        assertEquals(List.of("/", "/auth"), routes.specs());
        assertEquals(Optional.of("web"), upstream(routes, "/authx"));
        assertEquals(Optional.of("auth"), upstream(routes, "/auth/x"));
    }

    @Test
    @DisplayName("an operation matches its method and the whole path, a {name} segment any one non-empty segment, before any prefix")
    void operations() {
        Upstream customer = Upstream.of(new HostAndPort("127.0.0.1", 40001), "customer");
        Upstream other = Upstream.of(new HostAndPort("127.0.0.1", 40002), "other");
        PathRoutes routes = new PathRoutes(List.of(new PathRoutes.Route("/", other), new PathRoutes.Route("GET", "/customer/byid/{id}", customer),
                new PathRoutes.Route("POST", "/customer/byid/{id}", customer)));
        assertEquals(Optional.of("customer"), routes.match("GET", "/customer/byid/uid0@email.com").map(r -> r.upstream().displayName()));
        assertEquals(Optional.of("customer"), routes.match("post", "/customer/byid/x").map(r -> r.upstream().displayName()));
        assertEquals(Optional.of("other"), routes.match("PUT", "/customer/byid/x").map(r -> r.upstream().displayName()));
        assertEquals(Optional.of("other"), routes.match("GET", "/customer/byid/").map(r -> r.upstream().displayName()));
        assertEquals(Optional.of("other"), routes.match("GET", "/customer/byid/x/rewards").map(r -> r.upstream().displayName()));
        PathRoutes only = new PathRoutes(List.of(new PathRoutes.Route("POST", "/auth/login", customer)));
        assertEquals(Optional.empty(), only.match("GET", "/auth/login"));
        assertEquals(Optional.empty(), only.match("POST", "/auth/login/x"));
        assertEquals(Optional.empty(), only.match("POST", "/auth"));
        assertEquals("route POST /auth/login is given twice", assertThrows(IllegalArgumentException.class,
                () -> new PathRoutes(List.of(new PathRoutes.Route("POST", "/auth/login", customer),
                        new PathRoutes.Route("POST", "/auth/login", customer)))).getMessage());
    }

    @Test
    @DisplayName("normalize decodes and merges slashes; it refuses dot segments, escaped slashes and bad escapes, naming what")
    void normalize() {
        assertEquals("/customer/internal/validateid", PathRoutes.normalize("//customer//%69nternal/validateid"));
        assertEquals("/customer/byid/uid0@email.com", PathRoutes.normalize("/customer/byid/uid0%40email.com"));
        assertEquals("/a+b", PathRoutes.normalize("/a+b"));
        assertEquals("the path has a '..' segment", assertThrows(IllegalArgumentException.class,
                () -> PathRoutes.normalize("/customer/byid/../internal/validateid")).getMessage());
        assertEquals("the path has a '..' segment", assertThrows(IllegalArgumentException.class,
                () -> PathRoutes.normalize("/customer/byid/%2E%2e/internal")).getMessage());
        assertEquals("the path has a '.' segment", assertThrows(IllegalArgumentException.class,
                () -> PathRoutes.normalize("/customer/./byid")).getMessage());
        assertEquals("the path has an escaped slash or backslash (%2F, %5C)", assertThrows(IllegalArgumentException.class,
                () -> PathRoutes.normalize("/customer/internal%2fvalidateid")).getMessage());
        assertEquals("the path has an escaped slash or backslash (%2F, %5C)", assertThrows(IllegalArgumentException.class,
                () -> PathRoutes.normalize("/customer/a%5Cb")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> PathRoutes.normalize("/customer/%zz"));
        assertThrows(IllegalArgumentException.class, () -> PathRoutes.normalize("/customer/a\\b"));
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
