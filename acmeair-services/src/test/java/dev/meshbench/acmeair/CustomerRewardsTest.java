package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.login;
import static dev.meshbench.acmeair.AcmeairSystem.tokenFor;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.customer.RewardTier;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code GET /customer/byid/{custid}/rewards}, the earlier example in docs/extending-the-workload.md. */
@ExtendWith(AcmeairSystem.class)
@DisplayName("customer rewards endpoint")
class CustomerRewardsTest {

    static String rewardsUrl(String user) {
        return url(ServiceName.CUSTOMER) + "/customer/byid/" + user + "/rewards";
    }

    /** Sets the user's miles_ytd to {@code ytd} through the internal endpoint bookings use, and returns total_miles. */
    static long setMilesYtd(String user, long ytd) {
        String jwt = tokenFor(user);
        long current = json(Http.get(rewardsUrl(user), jwt)).get("miles_ytd").asLong();
        HttpResponse<String> r = Http.post(url(ServiceName.CUSTOMER) + "/customer/internal/updateCustomerTotalMiles/" + user,
                null, "miles", Long.toString(ytd - current));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(ytd, json(r).get("miles_ytd").asLong(), r.body());
        return json(r).get("total_miles").asLong();
    }

    @Test
    @DisplayName("a logged-in user reads their miles as the profile has them, the tier they earn and the miles to the next")
    void readsOwnRewards() {
        String user = TestUsers.CUSTOMER_REWARDS.email(50);
        String jwt = login(user);
        JsonNode profile = json(Http.get(url(ServiceName.CUSTOMER) + "/customer/byid/" + user, jwt));
        HttpResponse<String> r = Http.get(rewardsUrl(user), jwt);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
        JsonNode rewards = json(r);
        assertEquals(user, rewards.get("_id").asText());
        long ytd = profile.get("miles_ytd").asLong();
        assertEquals(profile.get("total_miles").asLong(), rewards.get("total_miles").asLong());
        assertEquals(ytd, rewards.get("miles_ytd").asLong());
        RewardTier tier = RewardTier.forMilesYtd(ytd);
        assertEquals(tier.name(), rewards.get("tier").asText(), r.body());
        if (tier == RewardTier.PLATINUM) {
            assertFalse(rewards.has("nextTier") || rewards.has("milesToNextTier"), r.body());
        } else {
            RewardTier next = tier.next().orElseThrow();
            assertEquals(next.name(), rewards.get("nextTier").asText(), r.body());
            assertEquals(next.milesYtd() - ytd, rewards.get("milesToNextTier").asLong(), r.body());
        }
        assertFalse(rewards.has("password") || rewards.has("address") || rewards.has("plannedMiles"), r.body());
    }

    @Test
    @DisplayName("the tier follows this year's miles at once, across every threshold, and the top tier has no next")
    void tierFollowsMiles() {
        String user = TestUsers.CUSTOMER_REWARDS.email(51);
        String jwt = login(user);
        long total = setMilesYtd(user, 0);
        JsonNode none = json(Http.get(rewardsUrl(user), jwt));
        assertEquals("NONE", none.get("tier").asText());
        assertEquals("SILVER", none.get("nextTier").asText());
        assertEquals(25_000, none.get("milesToNextTier").asLong());
        assertEquals(total, none.get("total_miles").asLong());

        setMilesYtd(user, 24_999);
        assertEquals(1, json(Http.get(rewardsUrl(user), jwt)).get("milesToNextTier").asLong());
        setMilesYtd(user, 25_000);
        JsonNode silver = json(Http.get(rewardsUrl(user), jwt));
        assertEquals("SILVER", silver.get("tier").asText());
        assertEquals("GOLD", silver.get("nextTier").asText());
        assertEquals(25_000, silver.get("milesToNextTier").asLong());
        setMilesYtd(user, 50_000);
        assertEquals("GOLD", json(Http.get(rewardsUrl(user), jwt)).get("tier").asText());

        setMilesYtd(user, 75_000);
        HttpResponse<String> top = Http.get(rewardsUrl(user), jwt);
        assertEquals("PLATINUM", json(top).get("tier").asText(), top.body());
        assertFalse(json(top).has("nextTier") || json(top).has("milesToNextTier"), top.body());
        assertFalse(top.body().contains("null"), "absent fields are left out: " + top.body());
    }

    @Test
    @DisplayName("plannedMiles adds the tier a trip of that many miles would reach")
    void plannedMilesGivesTierAfterTrip() {
        String user = TestUsers.CUSTOMER_REWARDS.email(52);
        String jwt = login(user);
        setMilesYtd(user, 40_000);
        JsonNode justShort = json(Http.get(rewardsUrl(user) + "?plannedMiles=9999", jwt));
        assertEquals("SILVER", justShort.get("tier").asText());
        assertEquals(9_999, justShort.get("plannedMiles").asLong());
        assertEquals("SILVER", justShort.get("tierWithPlanned").asText());
        JsonNode enough = json(Http.get(rewardsUrl(user) + "?plannedMiles=10000", jwt));
        assertEquals("GOLD", enough.get("tierWithPlanned").asText());
        assertEquals(40_000, enough.get("miles_ytd").asLong(), "asking about a trip changes nothing");
        assertEquals("SILVER", json(Http.get(rewardsUrl(user) + "?plannedMiles=0", jwt)).get("tierWithPlanned").asText());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "lots|query parameter 'plannedMiles' is 'lots', not a whole number",
        "-1|query parameter 'plannedMiles' is -1, must be from 0 to 1000000",
        "1000001|query parameter 'plannedMiles' is 1000001, must be from 0 to 1000000"})
    @DisplayName("a malformed plannedMiles answers 400 naming the parameter")
    void badPlannedMilesIs400(String value, String message) {
        String user = TestUsers.CUSTOMER_REWARDS.email(53);
        HttpResponse<String> r = Http.get(rewardsUrl(user) + "?plannedMiles=" + value, tokenFor(user));
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().startsWith(message), r.body());
    }

    @Test
    @DisplayName("no token answers 401, another user's token 403, an unknown customer 404")
    void tokenAndCustomerChecks() {
        HttpResponse<String> anonymous = Http.get(rewardsUrl(TestUsers.CUSTOMER_REWARDS.email(54)));
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertTrue(json(anonymous).get("message").asText().contains("missing JWT"), anonymous.body());

        HttpResponse<String> other = Http.get(rewardsUrl(TestUsers.CUSTOMER_REWARDS.email(55)), login(TestUsers.CUSTOMER_REWARDS.email(54)));
        assertEquals(403, other.statusCode(), other.body());
        assertTrue(json(other).get("message").asText().contains(TestUsers.CUSTOMER_REWARDS.email(54)), other.body());

        HttpResponse<String> ghost = Http.get(rewardsUrl("ghost@email.com"), tokenFor("ghost@email.com"));
        assertEquals(404, ghost.statusCode(), ghost.body());
        assertTrue(json(ghost).get("message").asText().contains("ghost@email.com"), ghost.body());
    }

    @Test
    @DisplayName("the token is checked before the query: a stranger learns nothing from a 400")
    void tokenBeforeValidation() {
        HttpResponse<String> r = Http.get(rewardsUrl(TestUsers.CUSTOMER_REWARDS.email(55)) + "?plannedMiles=lots");
        assertEquals(401, r.statusCode(), r.body());
    }

    @Test
    @DisplayName("is timed under its own route in the customer service's metrics")
    void hasItsOwnRouteTimer() {
        String user = TestUsers.CUSTOMER_REWARDS.email(56);
        assertEquals(200, Http.get(rewardsUrl(user), login(user)).statusCode());
        String m = Http.get(url(ServiceName.CUSTOMER) + "/metrics").body();
        assertTrue(MetricsTest.hasSample(m, "http_server_requests_seconds_count", "uri=\"/customer/byid/{custid}/rewards\"",
                "method=\"GET\"", "status=\"200\""), m);
    }
}
