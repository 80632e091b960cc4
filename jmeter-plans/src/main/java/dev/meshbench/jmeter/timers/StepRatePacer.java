package dev.meshbench.jmeter.timers;

/**
 * Spaces the requests of one step's threads evenly at a fixed rate: each request takes the next free slot, one
 * interval after the previous slot, and waits until it. A request that comes after its slot goes at once, and the
 * schedule does not catch up with a burst: when the system falls behind, the achieved rate falls short of the
 * target (and the results say so) instead of the load bunching up. Thread-safe.
 */
final class StepRatePacer {
    private final long intervalNanos;
    private long nextSlot = Long.MIN_VALUE;

    /** @param ratePerSecond requests per second, above 0 */
    StepRatePacer(double ratePerSecond) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate " + ratePerSecond + " must be above 0");
        }
        this.intervalNanos = Math.max(1, Math.round(1e9 / ratePerSecond));
    }

    /** How long the request arriving at {@code nowNanos} waits, in nanoseconds (0 when its slot has passed). */
    synchronized long waitNanos(long nowNanos) {
        long slot = nextSlot == Long.MIN_VALUE || nextSlot < nowNanos ? nowNanos : nextSlot;
        nextSlot = slot + intervalNanos;
        return slot - nowNanos;
    }
}
