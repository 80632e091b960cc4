package dev.meshbench.acmeair.customer;

import java.util.Optional;

/**
 * The rewards tier a customer's miles of this year earn, lowest first. Acmeair's stored {@code status} is loaded data
 * that nothing updates; the tier is computed from {@code miles_ytd} on every read, so a booking or a cancellation
 * moves it at once.
 */
public enum RewardTier {
    NONE(0),
    SILVER(25_000),
    GOLD(50_000),
    PLATINUM(75_000);

    private final long milesYtd;

    RewardTier(long milesYtd) {
        this.milesYtd = milesYtd;
    }

    /** Miles of this year needed to reach the tier. */
    public long milesYtd() {
        return milesYtd;
    }

    /** The highest tier whose threshold {@code milesYtd} reaches; {@link #NONE} below the first (negatives included). */
    public static RewardTier forMilesYtd(long milesYtd) {
        RewardTier tier = NONE;
        for (RewardTier t : values()) {
            if (milesYtd >= t.milesYtd) {
                tier = t;
            }
        }
        return tier;
    }

    /** The tier above this one; empty for the top tier. */
    public Optional<RewardTier> next() {
        RewardTier[] all = values();
        return ordinal() + 1 < all.length ? Optional.of(all[ordinal() + 1]) : Optional.empty();
    }
}
