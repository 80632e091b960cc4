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
 */
public record Behaviour(boolean flightCache, boolean rewardsAsync) {
    /** As the original Acmeair services: cache on, rewards updated off the request path. */
    public static final Behaviour ORIGINAL = new Behaviour(true, true);

    /** The value of a switch option: {@code true} or {@code false}, nothing else (a typo must not mean false). */
    public static boolean parseSwitch(String option, String value) {
        return switch (value.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(option + " '" + value + "' must be true or false");
        };
    }
}
