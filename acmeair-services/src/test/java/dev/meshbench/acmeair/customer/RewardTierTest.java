package dev.meshbench.acmeair.customer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RewardTierTest {

    @ParameterizedTest
    @CsvSource({"-500, NONE", "0, NONE", "24999, NONE", "25000, SILVER", "49999, SILVER", "50000, GOLD",
        "74999, GOLD", "75000, PLATINUM", "9223372036854775807, PLATINUM"})
    @DisplayName("a tier starts exactly at its threshold of miles this year")
    void thresholds(long milesYtd, RewardTier expected) {
        assertEquals(expected, RewardTier.forMilesYtd(milesYtd));
    }

    @Test
    @DisplayName("each tier but the top one has the next above it")
    void nextTier() {
        assertEquals(Optional.of(RewardTier.SILVER), RewardTier.NONE.next());
        assertEquals(Optional.of(RewardTier.PLATINUM), RewardTier.GOLD.next());
        assertEquals(Optional.empty(), RewardTier.PLATINUM.next());
    }

    @Test
    @DisplayName("rewards say the miles still missing for the next tier, and nothing about it at the top")
    void rewardsToNextTier() {
        CustomerRewards silver = CustomerRewards.of("uid1@email.com", 300_000, 30_000, null);
        assertEquals(RewardTier.SILVER, silver.tier());
        assertEquals(RewardTier.GOLD, silver.nextTier());
        assertEquals(20_000L, silver.milesToNextTier());
        assertNull(silver.plannedMiles());
        assertNull(silver.tierWithPlanned());

        CustomerRewards top = CustomerRewards.of("uid1@email.com", 300_000, 80_000, 500L);
        assertNull(top.nextTier());
        assertNull(top.milesToNextTier());
        assertEquals(RewardTier.PLATINUM, top.tierWithPlanned());
    }

    @Test
    @DisplayName("a planned trip is added to this year's miles, not to the total")
    void plannedTrip() {
        CustomerRewards r = CustomerRewards.of("uid1@email.com", 1_000_000, 24_000, 1_000L);
        assertEquals(RewardTier.NONE, r.tier());
        assertEquals(RewardTier.SILVER, r.tierWithPlanned());
    }
}
