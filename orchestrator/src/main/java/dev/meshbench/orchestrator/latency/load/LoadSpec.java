package dev.meshbench.orchestrator.latency.load;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * What {@link LoadGenerator} does: HTTP/1.1 keep-alive connections to one or more targets, for a time, either as
 * fast as possible (closed loop) or at a fixed rate (open loop). Every value is checked where it enters; a bad one
 * is refused with a message naming the field, its value and the rule ({@code connections (0) must be at least 1}).
 * Defaults live here and nowhere else: start from {@link #of(List)} and change what differs.
 *
 * @param targets          {@code http://} URIs; connection {@code i} goes to {@code targets[i % n]} for the whole
 *                         run (as kube-proxy spreads connections, not requests, over pods)
 * @param connections      keep-alive connections, each on its own thread; at least one per target
 * @param duration         measured time, after the warm-up
 * @param ratePerSecond    open loop at this many requests per second over all connections (one schedule); empty:
 *                         closed loop, each connection sends its next request as soon as it has the previous answer
 * @param timeout          per request, from its send (including a connect if one is needed) to the end of its answer
 * @param method           request method, e.g. {@code GET}, {@code POST}
 * @param requestBodyBytes body size; a body of that many {@code x} is sent with a {@code Content-Length}
 * @param warmup           run before {@code duration}, with the same load, left out of every figure; zero for none
 */
public record LoadSpec(List<URI> targets, int connections, Duration duration, OptionalDouble ratePerSecond,
        Duration timeout, String method, int requestBodyBytes, Duration warmup) {

    public static final int DEFAULT_CONNECTIONS = 64;
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    public static final String DEFAULT_METHOD = "GET";

    private static final Pattern METHOD = Pattern.compile("[A-Z]+");
    /** One thread per connection: more than this is a typo, not a load. */
    static final int MAX_CONNECTIONS = 10_000;
    static final int MAX_BODY_BYTES = 64 << 20;

    public LoadSpec {
        if (targets == null || targets.isEmpty()) {
            throw new IllegalArgumentException("targets (" + targets + ") must name at least one http:// URI");
        }
        targets = List.copyOf(targets);
        targets.forEach(LoadSpec::checkTarget);
        if (connections < 1 || connections > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("connections (" + connections + ") must be between 1 and " + MAX_CONNECTIONS);
        }
        if (connections < targets.size()) {
            throw new IllegalArgumentException("connections (" + connections + ") must be at least the number of targets ("
                    + targets.size() + "), or some targets would get no connection");
        }
        positive("duration", duration);
        if (ratePerSecond == null) {
            throw new IllegalArgumentException("ratePerSecond is missing (empty for a closed loop)");
        }
        if (ratePerSecond.isPresent() && !(ratePerSecond.getAsDouble() > 0 && ratePerSecond.getAsDouble() <= 1e7)) {
            throw new IllegalArgumentException("ratePerSecond (" + ratePerSecond.getAsDouble()
                    + ") must be > 0 and at most 1e7 requests per second (empty for a closed loop)");
        }
        positive("timeout", timeout);
        if (method == null || !METHOD.matcher(method).matches()) {
            throw new IllegalArgumentException("method (" + (method == null ? null : "\"" + method + "\"")
                    + ") must be an upper-case HTTP method such as GET or POST");
        }
        if (requestBodyBytes < 0 || requestBodyBytes > MAX_BODY_BYTES) {
            throw new IllegalArgumentException("requestBodyBytes (" + requestBodyBytes + ") must be between 0 and " + MAX_BODY_BYTES);
        }
        if (warmup == null || warmup.isNegative()) {
            throw new IllegalArgumentException("warmup (" + warmup + ") must be zero (none) or positive");
        }
    }

    /** Closed loop over {@code targets} with every other value at its default: 64 connections, 30 s, 5 s timeout, GET. */
    public static LoadSpec of(List<URI> targets) {
        return new LoadSpec(targets, DEFAULT_CONNECTIONS, DEFAULT_DURATION, OptionalDouble.empty(), DEFAULT_TIMEOUT,
                DEFAULT_METHOD, 0, Duration.ZERO);
    }

    public LoadSpec withConnections(int n) {
        return new LoadSpec(targets, n, duration, ratePerSecond, timeout, method, requestBodyBytes, warmup);
    }

    public LoadSpec withDuration(Duration d) {
        return new LoadSpec(targets, connections, d, ratePerSecond, timeout, method, requestBodyBytes, warmup);
    }

    /** Open loop at {@code perSecond} requests per second. */
    public LoadSpec withRate(double perSecond) {
        return new LoadSpec(targets, connections, duration, OptionalDouble.of(perSecond), timeout, method, requestBodyBytes, warmup);
    }

    public LoadSpec closedLoop() {
        return new LoadSpec(targets, connections, duration, OptionalDouble.empty(), timeout, method, requestBodyBytes, warmup);
    }

    public LoadSpec withTimeout(Duration t) {
        return new LoadSpec(targets, connections, duration, ratePerSecond, t, method, requestBodyBytes, warmup);
    }

    public LoadSpec withRequest(String m, int bodyBytes) {
        return new LoadSpec(targets, connections, duration, ratePerSecond, timeout, m, bodyBytes, warmup);
    }

    public LoadSpec withWarmup(Duration w) {
        return new LoadSpec(targets, connections, duration, ratePerSecond, timeout, method, requestBodyBytes, w);
    }

    public boolean openLoop() {
        return ratePerSecond.isPresent();
    }

    /** The target of connection {@code i}. */
    public URI targetOf(int connection) {
        return targets.get(connection % targets.size());
    }

    /** One line, for progress and summaries: {@code open loop at 1000 req/s, 64 connections over 2 targets, 30 s}. */
    public String describe() {
        String loop = openLoop() ? String.format(Locale.ROOT, "open loop at %s req/s", Figures.number(ratePerSecond.getAsDouble()))
                : "closed loop (as fast as possible)";
        String over = targets.size() == 1 ? " to " + targets.get(0) : " over " + targets.size() + " targets";
        String warm = warmup.isZero() ? "" : " after a " + Figures.seconds(warmup) + " warm-up";
        String request = method + (requestBodyBytes > 0 ? " with " + requestBodyBytes + " B body" : "");
        return loop + ", " + connections + " connection" + (connections == 1 ? "" : "s") + over + ", " + request + ", "
                + Figures.seconds(duration) + warm + ", timeout " + Figures.seconds(timeout);
    }

    private static void positive(String field, Duration d) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(field + " (" + d + ") must be positive");
        }
    }

    private static void checkTarget(URI uri) {
        if (uri == null) {
            throw new IllegalArgumentException("targets contains null");
        }
        List<String> problems = new ArrayList<>();
        if (!"http".equalsIgnoreCase(uri.getScheme())) {
            problems.add("the scheme must be http (plain HTTP/1.1; no TLS)");
        }
        if (uri.getHost() == null) {
            problems.add("it has no host");
        }
        if (uri.getRawFragment() != null) {
            problems.add("it must not have a #fragment");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("targets (" + uri + "): " + String.join(", ", problems));
        }
    }
}
