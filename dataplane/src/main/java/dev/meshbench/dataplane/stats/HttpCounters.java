package dev.meshbench.dataplane.stats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live request counters of an HTTP listener, beside its {@link HopCounters}. Updated from event-loop threads,
 * read from anywhere. Per upstream it counts the connections its pool opened and the requests it was sent, so
 * that keep-alive reuse shows: many requests, few connections. Upstreams are counted by name across configurations
 * of the listener ({@code PUT /config}) and reported for the configuration in force ({@link #reportUpstreams}).
 */
public final class HttpCounters {
    private final LongAdder requests = new LongAdder();
    private final LongAdder[] responses = new LongAdder[HttpStats.CLASSES.length];
    private final LongAdder noRoute = new LongAdder();
    private final LongAdder upstreamUnavailable = new LongAdder();
    private final LongAdder requestTooLarge = new LongAdder();
    private final Map<String, UpstreamCounters> upstreams = new ConcurrentHashMap<>();
    private volatile List<String> reported;

    /** Counters of one upstream's pool. */
    public static final class UpstreamCounters {
        private volatile String address;
        private final LongAdder connectionsOpened = new LongAdder();
        private final LongAdder requestsSent = new LongAdder();

        UpstreamCounters(String address) {
            this.address = address;
        }

        public void connectionOpened() {
            connectionsOpened.increment();
        }

        public void requestSent() {
            requestsSent.increment();
        }
    }

    /** @param upstreams upstream name to {@code host:port}, in route order */
    public HttpCounters(Map<String, String> upstreams) {
        for (int i = 0; i < responses.length; i++) {
            responses[i] = new LongAdder();
        }
        reportUpstreams(upstreams);
    }

    /**
     * The upstreams {@link #snapshot} reports from now on, in this order, with these addresses (those of the
     * listener's configuration in force); a name reported before keeps its counts.
     *
     * @param upstreams upstream name to {@code host:port}, in route order
     */
    public void reportUpstreams(Map<String, String> upstreams) {
        upstreams.forEach((name, address) -> upstream(name, address).address = address);
        reported = List.copyOf(upstreams.keySet());
    }

    public void request() {
        requests.increment();
    }

    /** A response written to a client; statuses outside 200-599 are not counted by class. */
    public void response(int status) {
        int i = status / 100 - 2;
        if (i >= 0 && i < responses.length) {
            responses[i].increment();
        }
    }

    public void noRoute() {
        noRoute.increment();
    }

    public void upstreamUnavailable() {
        upstreamUnavailable.increment();
    }

    public void requestTooLarge() {
        requestTooLarge.increment();
    }

    /**
     * The counters of the upstream with this name, made for {@code address} if it had none (an upstream of a new
     * configuration, reported once {@link #reportUpstreams} names it).
     */
    public UpstreamCounters upstream(String name, String address) {
        return upstreams.computeIfAbsent(name, n -> new UpstreamCounters(address));
    }

    /** The counters of the upstream with this name (one reported or made before). */
    public UpstreamCounters upstream(String name) {
        UpstreamCounters u = upstreams.get(name);
        if (u == null) {
            throw new IllegalArgumentException("upstream " + name + " is not one of " + upstreams.keySet());
        }
        return u;
    }

    public HttpStats snapshot() {
        Map<String, Long> r = new LinkedHashMap<>();
        for (int i = 0; i < responses.length; i++) {
            r.put(HttpStats.CLASSES[i], responses[i].sum());
        }
        Map<String, HttpStats.Upstream> u = new LinkedHashMap<>();
        for (String name : reported) {
            UpstreamCounters c = upstreams.get(name);
            u.put(name, new HttpStats.Upstream(c.address, c.connectionsOpened.sum(), c.requestsSent.sum()));
        }
        return new HttpStats(requests.sum(), r, noRoute.sum(), upstreamUnavailable.sum(), requestTooLarge.sum(), u);
    }
}
