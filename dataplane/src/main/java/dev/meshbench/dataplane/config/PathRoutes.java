package dev.meshbench.dataplane.config;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Maps HTTP requests to upstreams, as an Istio VirtualService does behind the ingress gateway. A route is one of:
 * <ul>
 *   <li>an <em>operation</em>, {@code GET /customer/byid/{id}}: that method only, and the whole path, segment by
 *       segment, where a {@code {name}} segment matches any one non-empty segment (a VirtualService's {@code method}
 *       plus {@code uri: regex: /customer/byid/[^/]+}); the way to serve an allowlist;</li>
 *   <li>a <em>prefix</em>, {@code /auth}: any method, at a segment boundary only: {@code /auth} matches
 *       {@code /auth} and {@code /auth/login}, not {@code /authx} (Envoy's {@code path_separated_prefix}; a plain
 *       string prefix would send {@code /bookings} to the {@code /booking} service); {@code /} matches every path.</li>
 * </ul>
 * Operations are tried first, in the order given; then prefixes, the longest first. Paths are matched after
 * {@link #normalize}, which refuses what Istio's gateways refuse or rewrite (dot segments, escaped slashes).
 */
public final class PathRoutes {
    private static final Pattern METHOD = Pattern.compile("[A-Z]+");
    private static final Pattern ESCAPED_SLASH = Pattern.compile("%(2[fF]|5[cC])");

    /**
     * One route.
     *
     * @param method   the one method an operation serves; null for a prefix route (any method)
     * @param path     the operation's path template, or the prefix
     * @param upstream where matching requests go
     */
    public record Route(String method, String path, Upstream upstream) {
        public Route {
            Objects.requireNonNull(upstream, "upstream");
            String what = method == null ? "a path prefix" : "a path";
            if (path == null || !path.startsWith("/")) {
                throw new IllegalArgumentException(what + " starts with '/' (got '" + path + "')");
            }
            if (path.chars().anyMatch(c -> c <= ' ' || c == '?' || c == '#' || c == '%')) {
                throw new IllegalArgumentException(what + " has no spaces, '?', '#' or '%' (got '" + path + "')");
            }
            if (method != null && !METHOD.matcher(method).matches()) {
                throw new IllegalArgumentException("a method is upper-case letters, e.g. GET (got '" + method + "')");
            }
            if (method != null && (path.contains("//") || path.length() > 1 && path.endsWith("/"))) {
                throw new IllegalArgumentException("a path has no empty segment (got '" + path + "')");
            }
            // "/auth/" and "/auth" mean the same prefix; keep one spelling so duplicates are seen.
            if (method == null && path.length() > 1 && path.endsWith("/")) {
                path = path.substring(0, path.length() - 1);
            }
        }

        /** A prefix route: any method, {@code prefix} and below. */
        public Route(String prefix, Upstream upstream) {
            this(null, prefix, upstream);
        }

        /** Whether this is a prefix route (else an operation). */
        public boolean isPrefix() {
            return method == null;
        }

        /** Whether a request of {@code requestMethod} for {@code path} (normalized, without query) is this route's. */
        boolean matches(String requestMethod, String requestPath) {
            if (isPrefix()) {
                if (path.equals("/")) {
                    return requestPath.startsWith("/");
                }
                return requestPath.startsWith(path) && (requestPath.length() == path.length() || requestPath.charAt(path.length()) == '/');
            }
            if (!method.equals(requestMethod)) {
                return false;
            }
            String[] want = path.substring(1).split("/", -1);
            String[] got = requestPath.substring(1).split("/", -1);
            if (want.length != got.length) {
                return false;
            }
            for (int i = 0; i < want.length; i++) {
                boolean any = want[i].startsWith("{") && want[i].endsWith("}");
                if (any ? got[i].isEmpty() : !want[i].equals(got[i])) {
                    return false;
                }
            }
            return true;
        }

        /** The route as written on the command line, without its upstream: {@code GET /customer/byid/{id}} or {@code /auth}. */
        public String spec() {
            return isPrefix() ? path : method + " " + path;
        }
    }

    private final List<Route> routes;
    private final List<Route> inMatchOrder;

    /** @throws IllegalArgumentException for no routes, a route given twice, or one upstream name with two addresses */
    public PathRoutes(List<Route> routes) {
        if (routes == null || routes.isEmpty()) {
            throw new IllegalArgumentException("a path route table needs at least one route");
        }
        Map<String, Route> seen = new LinkedHashMap<>();
        Map<String, Upstream> byName = new HashMap<>();
        for (Route r : routes) {
            if (seen.putIfAbsent(r.spec(), r) != null) {
                throw new IllegalArgumentException((r.isPrefix() ? "path prefix " : "route ") + r.spec() + " is given twice");
            }
            // Counters are reported per upstream name; one name must mean one address.
            Upstream other = byName.putIfAbsent(r.upstream().displayName(), r.upstream());
            if (other != null && !other.equals(r.upstream())) {
                throw new IllegalArgumentException("upstream name " + r.upstream().displayName() + " is given for two addresses ("
                        + other.address() + " and " + r.upstream().address() + ")");
            }
        }
        this.routes = List.copyOf(routes);
        List<Route> ordered = new ArrayList<>(routes.stream().filter(r -> !r.isPrefix()).toList());
        ordered.addAll(routes.stream().filter(Route::isPrefix)
                .sorted(Comparator.comparingInt((Route r) -> r.path().length()).reversed()).toList());
        this.inMatchOrder = List.copyOf(ordered);
    }

    /** The first route for a request of {@code method} for {@code path} (normalized by {@link #normalize}, without query). */
    public Optional<Route> match(String method, String path) {
        String m = method.toUpperCase(Locale.ROOT);
        for (Route r : inMatchOrder) {
            if (r.matches(m, path)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /**
     * The path a request is routed on, as Istio's gateways see it ({@code normalize_path}, {@code merge_slashes},
     * escaped slashes refused): {@code rawPath} (the request target's path, still percent-encoded) decoded, with runs
     * of {@code /} merged into one.
     *
     * @throws IllegalArgumentException naming what is refused: an escaped slash or backslash ({@code %2F},
     *                                  {@code %5C}), a bad escape, a backslash, a control character, or a {@code .}
     *                                  or {@code ..} segment (also when escaped)
     */
    public static String normalize(String rawPath) {
        if (!rawPath.startsWith("/")) {
            throw new IllegalArgumentException("the path does not start with '/'");
        }
        if (ESCAPED_SLASH.matcher(rawPath).find()) {
            throw new IllegalArgumentException("the path has an escaped slash or backslash (%2F, %5C)");
        }
        String decoded;
        try {
            decoded = QueryStringDecoder.decodeComponent(rawPath.replace("+", "%2B"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the path has a bad escape: " + e.getMessage());
        }
        if (decoded.chars().anyMatch(c -> c < ' ' || c == 0x7f || c == '\\')) {
            throw new IllegalArgumentException("the path has a control character or a backslash");
        }
        String merged = decoded.replaceAll("/{2,}", "/");
        for (String segment : merged.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("the path has a '" + segment + "' segment");
            }
        }
        return merged;
    }

    /** The routes in the order given. */
    public List<Route> routes() {
        return routes;
    }

    /** The distinct upstreams, in the order of their first route. */
    public List<Upstream> upstreams() {
        return routes.stream().map(Route::upstream).distinct().toList();
    }

    /** The routes' specs ({@link Route#spec}) in the order given. */
    public List<String> specs() {
        return routes.stream().map(Route::spec).toList();
    }

    /** Tables with the same routes in the same order are equal (a listener whose routes did not change is unchanged). */
    @Override
    public boolean equals(Object o) {
        return o instanceof PathRoutes other && routes.equals(other.routes);
    }

    @Override
    public int hashCode() {
        return routes.hashCode();
    }

    @Override
    public String toString() {
        return routes.stream().map(r -> r.spec() + " -> " + r.upstream().describe()).collect(Collectors.joining(", "));
    }
}
