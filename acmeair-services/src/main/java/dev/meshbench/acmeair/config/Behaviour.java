package dev.meshbench.acmeair.config;

/**
 * Where the services may behave as the original Acmeair services do, or as the kit's first version did, so users
 * can study each difference on its own. {@link #ORIGINAL} is the default.
 *
 * @param flightCache  the flight service caches segments, flights per segment and day, and reward miles after their
 *                     first read, as the original does by default ({@code --flight-cache}, env {@code FLIGHT_CACHE})
 * @param rewardsAsync the booking service answers a booking or cancellation first and updates the customer's reward
 *                     miles afterwards on a background thread, as the original does ({@code --rewards-async}, env
 *                     {@code REWARDS_ASYNC}); {@code false} does it before answering
 * @param addedLatencyMs milliseconds the service waits before handling each API request: a deliberate slowdown
 *                     that stands for a regression, to try a regression gate ({@code --added-latency-ms}, env
 *                     {@code ADDED_LATENCY_MS}); 0, the default, adds nothing
 */
public record Behaviour(boolean flightCache, boolean rewardsAsync, int addedLatencyMs) {
    /** As the original Acmeair services: cache on, rewards updated off the request path. */
    public static final Behaviour ORIGINAL = new Behaviour(true, true);

    public Behaviour {
        if (addedLatencyMs < 0 || addedLatencyMs > 60_000) {
            throw new IllegalArgumentException("--added-latency-ms " + addedLatencyMs + " must be 0 to 60000 ms");
        }
    }

    /** No added latency. */
    public Behaviour(boolean flightCache, boolean rewardsAsync) {
        this(flightCache, rewardsAsync, 0);
    }
}
