package dev.meshbench.dataplane.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Maps HTTP path prefixes to upstreams, as an Istio VirtualService with {@code match: - uri: prefix: /auth} does
 * behind the ingress gateway. A prefix matches at a segment boundary only: {@code /auth} matches {@code /auth},
 * {@code /auth/login} and {@code /auth?x=1}, not {@code /authx} (Envoy's {@code path_separated_prefix}; a plain
 * string prefix would send {@code /bookings} to the {@code /booking} service). The longest matching prefix wins;
 * {@code /} matches every path.
 */
public final class PathRoutes {
    /** One prefix and its upstream. */
    public record Route(String prefix, Upstream upstream) {
        public Route {
            Objects.requireNonNull(upstream, "upstream");
            if (prefix == null || !prefix.startsWith("/")) {
                throw new IllegalArgumentException("a path prefix starts with '/' (got '" + prefix + "')");
            }
            if (prefix.chars().anyMatch(c -> c <= ' ' || c == '?' || c == '#')) {
                throw new IllegalArgumentException("a path prefix has no spaces, '?' or '#' (got '" + prefix + "')");
            }
            // "/auth/" and "/auth" mean the same thing here; keep one spelling so duplicates are seen.
            if (prefix.length() > 1 && prefix.endsWith("/")) {
                prefix = prefix.substring(0, prefix.length() - 1);
            }
        }

        /** Whether {@code path} (without query) is this prefix or starts with it followed by '/'. */
        boolean matches(String path) {
            if (prefix.equals("/")) {
                return path.startsWith("/");
            }
            return path.startsWith(prefix) && (path.length() == prefix.length() || path.charAt(prefix.length()) == '/');
        }
    }

    private final List<Route> routes;
    private final List<Route> longestFirst;

    /** @throws IllegalArgumentException for no routes, a prefix given twice, or one upstream name with two addresses */
    public PathRoutes(List<Route> routes) {
        if (routes == null || routes.isEmpty()) {
            throw new IllegalArgumentException("a path route table needs at least one route");
        }
        Map<String, Route> seen = new LinkedHashMap<>();
        Map<String, Upstream> byName = new HashMap<>();
        for (Route r : routes) {
            if (seen.putIfAbsent(r.prefix(), r) != null) {
                throw new IllegalArgumentException("path prefix " + r.prefix() + " is given twice");
            }
            // Counters are reported per upstream name; one name must mean one address.
            Upstream other = byName.putIfAbsent(r.upstream().displayName(), r.upstream());
            if (other != null && !other.equals(r.upstream())) {
                throw new IllegalArgumentException("upstream name " + r.upstream().displayName() + " is given for two addresses ("
                        + other.address() + " and " + r.upstream().address() + ")");
            }
        }
        this.routes = List.copyOf(routes);
        List<Route> sorted = new ArrayList<>(routes);
        sorted.sort(Comparator.comparingInt((Route r) -> r.prefix().length()).reversed());
        this.longestFirst = List.copyOf(sorted);
    }

    /** The route of the longest prefix matching {@code path} (the request path without its query), if any. */
    public Optional<Route> match(String path) {
        for (Route r : longestFirst) {
            if (r.matches(path)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** The routes in the order given. */
    public List<Route> routes() {
        return routes;
    }

    /** The distinct upstreams, in the order of their first route. */
    public List<Upstream> upstreams() {
        return routes.stream().map(Route::upstream).distinct().toList();
    }

    /** The prefixes in the order given, for a 404 body. */
    public List<String> prefixes() {
        return routes.stream().map(Route::prefix).toList();
    }

    @Override
    public String toString() {
        return routes.stream().map(r -> r.prefix() + " -> " + r.upstream().describe()).collect(Collectors.joining(", "));
    }
}
