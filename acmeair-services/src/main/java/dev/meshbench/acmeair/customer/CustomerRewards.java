package dev.meshbench.acmeair.customer;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer of {@code GET /customer/byid/{custid}/rewards}: the customer's miles, the tier this year's miles earn,
 * what the next tier still needs, and, when the caller names the miles of a trip it considers, the tier after it.
 * Absent values (next tier of the top tier, no planned trip) are left out of the JSON.
 *
 * @param id               the customer ({@code uidN@email.com})
 * @param totalMiles       all miles ever earned
 * @param milesYtd         miles earned this year: the tier is computed from these
 * @param tier             the tier {@code milesYtd} reaches
 * @param nextTier         the tier above, or {@code null} at the top
 * @param milesToNextTier  miles this year still needed for {@code nextTier}, or {@code null} at the top
 * @param plannedMiles     miles of the trip the caller asked about, or {@code null}
 * @param tierWithPlanned  the tier {@code milesYtd + plannedMiles} would reach, or {@code null}
 */
public record CustomerRewards(@JsonProperty("_id") String id, @JsonProperty("total_miles") long totalMiles,
        @JsonProperty("miles_ytd") long milesYtd, RewardTier tier, RewardTier nextTier, Long milesToNextTier,
        Long plannedMiles, RewardTier tierWithPlanned) {

    /** The rewards of a customer with these miles; {@code plannedMiles} may be {@code null} (no trip asked about). */
    public static CustomerRewards of(String id, long totalMiles, long milesYtd, Long plannedMiles) {
        RewardTier tier = RewardTier.forMilesYtd(milesYtd);
        RewardTier next = tier.next().orElse(null);
        Long toNext = next == null ? null : next.milesYtd() - milesYtd;
        RewardTier withPlanned = plannedMiles == null ? null : RewardTier.forMilesYtd(milesYtd + plannedMiles);
        return new CustomerRewards(id, totalMiles, milesYtd, tier, next, toNext, plannedMiles, withPlanned);
    }
}
