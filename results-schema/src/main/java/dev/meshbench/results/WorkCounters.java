package dev.meshbench.results;

/**
 * The counters of the application's work in {@link ResultsSchema#COUNTERS_FILE}, as the orchestrator writes them and
 * the converter reads them: one name each, cumulative values.
 */
public final class WorkCounters {
    /** Per service: MongoDB commands its driver sent (all but health pings). */
    public static final String MONGO_COMMANDS = "mongoCommands";
    /** Per service: HTTP calls it made to another Acmeair service. */
    public static final String INTER_SERVICE_CALLS = "interServiceCalls";
    /**
     * Per first mesh hop of a service's MongoDB path (its sidecar's MongoDB listener): bytes both ways through that
     * listener.
     */
    public static final String MONGO_PATH_BYTES = "mongoPathBytes";
    /**
     * Per mesh component with per-listener counters: bytes both ways through all its listeners, the MongoDB
     * listener included, so that {@link #MONGO_PATH_BYTES} over this is the share of its traffic on the MongoDB path.
     */
    public static final String LISTENER_BYTES = "listenerBytes";

    /** Per service: client API requests it served (the routes the entry serves; not calls from other services). */
    public static final String API_REQUESTS = "apiRequests";
    /**
     * Per service: the time it took over those requests by its own timer (Micrometer's {@code http.server.requests},
     * sub-millisecond), in microseconds.
     */
    public static final String API_MICROS = "apiMicros";

    /**
     * Per JVM component (a service, MongoDB, a Netty relay): its JIT compiler threads' CPU so far, in milliseconds
     * (HotSpot's own compilation time where the platform shows no threads), so that a window can say which JVM was
     * still compiling while it measured.
     */
    public static final String JIT_MS = "jitMs";

    private WorkCounters() {
    }
}
