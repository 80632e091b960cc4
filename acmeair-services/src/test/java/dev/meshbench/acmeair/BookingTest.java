package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.DAY1;
import static dev.meshbench.acmeair.AcmeairSystem.DAY2;
import static dev.meshbench.acmeair.AcmeairSystem.eventually;
import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.login;
import static dev.meshbench.acmeair.AcmeairSystem.totalMiles;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.Behaviour;
import dev.meshbench.acmeair.config.MongoConfig;
import dev.meshbench.acmeair.config.ServiceConfig;
import dev.meshbench.acmeair.config.ServiceName;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AcmeairSystem.class)
@DisplayName("booking service")
class BookingTest {
    static String booking() {
        return url(ServiceName.BOOKING);
    }

    /** The first flight option of a query: {_id, flightSegmentId, flightSegment{miles}}. */
    static JsonNode firstFlight(String from, String to, String day) {
        HttpResponse<String> r = Http.post(url(ServiceName.FLIGHT) + "/flight/queryflights", null,
                "fromAirport", from, "toAirport", to, "fromDate", day, "oneWay", "true");
        return json(r).get("tripFlights").get(0).get("flightsOptions").get(0);
    }

    /**
     * A booking service of the test's own beside the system's (the same MongoDB, customer and flight services, rewards
     * asynchronous as in the original), so that its counters count only what the test did: the system's booking
     * service serves every test class of the run, and the reward updates of another class's bookings go on, in the
     * background, after that class has ended.
     */
    static AcmeairService ownBookingService() {
        var mongo = AcmeairSystem.launcher().mongo();
        MongoConfig config = new MongoConfig(mongo.connectionString(), mongo.caFile()).withHostAlias(ReadinessAndTlsTest.NAME, "127.0.0.1");
        return AcmeairService.start(new ServiceConfig(ServiceName.BOOKING, "127.0.0.1", 0, config, URI.create(url(ServiceName.CUSTOMER)),
                URI.create(url(ServiceName.FLIGHT)), null, AcmeairSystem.launcher().jwtKeys().publicKey(), Behaviour.ORIGINAL));
    }

    static double peerCalls(String booking, String peer, String uri) {
        String metrics = Http.get(booking + "/metrics").body();
        return metrics.lines()
                .filter(l -> l.startsWith("http_client_requests_seconds_count{") && l.contains("peer=\"" + peer + "\"")
                        && l.contains("uri=\"" + uri + "\"") && l.contains("status=\"200\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    @DisplayName("booking a one-way flight stores it and adds the segment's miles to the customer (booking -> flight -> customer)")
    void bookingAddsMiles() {
        String user = TestUsers.BOOKING.email(20);
        String jwt = login(user);
        JsonNode f = firstFlight("JFK", "NRT", DAY1);
        long segMiles = f.get("flightSegment").get("miles").asLong();
        long before = totalMiles(user);
        try (AcmeairService own = ownBookingService()) {
            String booking = own.baseUrl();
            HttpResponse<String> r = Http.post(booking + "/booking/bookflights", jwt, "userid", user,
                    "toFlightId", f.get("_id").asText(), "toFlightSegId", f.get("flightSegmentId").asText(), "oneWayFlight", "true");
            assertEquals(200, r.statusCode(), r.body());
            JsonNode body = json(r);
            assertTrue(body.get("oneWay").asBoolean());
            assertFalse(body.has("returnBookingId"));

            // Miles are added after the answer (asynchronous, as in the original Acmeair): wait for them. Each call's timer
            // is recorded once its answer is back at the booking service, which can be just after the miles show.
            assertEquals(before + segMiles, eventually(before + segMiles, () -> totalMiles(user)));
            assertEquals(1.0, eventually(1.0, () -> peerCalls(booking, "flight", "/flight/getrewardmiles")));
            assertEquals(1.0, eventually(1.0, () -> peerCalls(booking, "customer", "/customer/internal/updateCustomerTotalMiles/{custid}")));

            JsonNode list = json(Http.get(booking + "/booking/byuser/" + user, jwt));
            assertEquals(1, list.size(), list.toString());
            JsonNode b = list.get(0);
            assertEquals(body.get("departBookingId").asText(), b.get("_id").asText());
            assertEquals(user, b.get("customerId").asText());
            assertEquals(f.get("_id").asText(), b.get("flightId").asText());
            Instant.parse(b.get("dateOfBooking").asText()); // ISO-8601 UTC
            assertTrue(b.get("dateOfBooking").asText().endsWith("Z"));
        }
    }

    @Test
    @DisplayName("a round trip books both legs and adds both segments' miles; cancelling one leg takes its miles back")
    void roundTripAndCancel() {
        String user = TestUsers.BOOKING.email(21);
        String jwt = login(user);
        JsonNode out = firstFlight("FRA", "SIN", DAY1);
        JsonNode back = firstFlight("SIN", "FRA", DAY2);
        long before = totalMiles(user);
        HttpResponse<String> r = Http.post(booking() + "/booking/bookflights", jwt, "userid", user,
                "toFlightId", out.get("_id").asText(), "toFlightSegId", out.get("flightSegmentId").asText(),
                "retFlightId", back.get("_id").asText(), "retFlightSegId", back.get("flightSegmentId").asText(),
                "oneWayFlight", "false");
        assertEquals(200, r.statusCode(), r.body());
        long outMiles = out.get("flightSegment").get("miles").asLong();
        long backMiles = back.get("flightSegment").get("miles").asLong();
        assertEquals(before + outMiles + backMiles, eventually(before + outMiles + backMiles, () -> totalMiles(user)));
        assertEquals(2, json(Http.get(booking() + "/booking/byuser/" + user, jwt)).size());

        String ret = json(r).get("returnBookingId").asText();
        HttpResponse<String> cancel = Http.post(booking() + "/booking/cancelbooking", jwt, "number", ret, "userid", user);
        assertEquals(200, cancel.statusCode(), cancel.body());
        assertEquals("deleted", json(cancel).get("status").asText());
        assertEquals(before + outMiles, eventually(before + outMiles, () -> totalMiles(user)));
        JsonNode left = json(Http.get(booking() + "/booking/byuser/" + user, jwt));
        assertEquals(1, left.size());
        assertEquals(json(r).get("departBookingId").asText(), left.get(0).get("_id").asText());

        HttpResponse<String> again = Http.post(booking() + "/booking/cancelbooking", jwt, "number", ret, "userid", user);
        assertEquals(404, again.statusCode(), again.body());
        assertTrue(json(again).get("message").asText().contains(ret), again.body());
    }

    @Test
    @DisplayName("with rewards asynchronous (the original's way) a booking of an unknown segment is stored, and its failed miles update counted")
    void unknownSegmentAsync() {
        String user = TestUsers.BOOKING.email(22);
        String jwt = login(user);
        long before = totalMiles(user);
        try (AcmeairService own = ownBookingService()) {
            String booking = own.baseUrl();
            HttpResponse<String> r = Http.post(booking + "/booking/bookflights", jwt, "userid", user,
                    "toFlightId", "AA99999-20300101", "toFlightSegId", "AA99999", "oneWayFlight", "true");
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(1.0, eventually(1.0, () -> rewardUpdates(booking, "failed")));
            assertEquals(1, json(Http.get(booking + "/booking/byuser/" + user, jwt)).size());
            assertEquals(before, totalMiles(user));
        }
    }

    static double rewardUpdates(String booking, String outcome) {
        return Http.get(booking + "/metrics").body().lines()
                .filter(l -> l.startsWith("acmeair_rewards_updates_total{") && l.contains("outcome=\"" + outcome + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    @DisplayName("malformed or missing booking fields answer 400 naming the field")
    void malformedFields() {
        String user = TestUsers.BOOKING.email(23);
        String jwt = login(user);
        HttpResponse<String> noSeg = Http.post(booking() + "/booking/bookflights", jwt, "userid", user, "toFlightId", "x", "oneWayFlight", "true");
        assertEquals(400, noSeg.statusCode(), noSeg.body());
        assertTrue(json(noSeg).get("message").asText().startsWith("field 'toFlightSegId' is required"), noSeg.body());
        HttpResponse<String> badBool = Http.post(booking() + "/booking/bookflights", jwt, "userid", user, "toFlightId", "x",
                "toFlightSegId", "AA1", "oneWayFlight", "yes");
        assertEquals(400, badBool.statusCode(), badBool.body());
        assertTrue(json(badBool).get("message").asText().startsWith("field 'oneWayFlight' is 'yes'"), badBool.body());
        HttpResponse<String> noRet = Http.post(booking() + "/booking/bookflights", jwt, "userid", user, "toFlightId", "x",
                "toFlightSegId", "AA1", "oneWayFlight", "false");
        assertEquals(400, noRet.statusCode(), noRet.body());
        assertTrue(json(noRet).get("message").asText().startsWith("field 'retFlightId' is required"), noRet.body());
        HttpResponse<String> noNumber = Http.post(booking() + "/booking/cancelbooking", jwt, "userid", user);
        assertEquals(400, noNumber.statusCode(), noNumber.body());
        assertTrue(json(noNumber).get("message").asText().startsWith("field 'number' is required"), noNumber.body());
    }

    @Test
    @DisplayName("booking endpoints answer 401 without a token and 403 with another user's token")
    void jwtRequired() {
        String user = TestUsers.BOOKING.email(24);
        assertEquals(401, Http.get(booking() + "/booking/byuser/" + user).statusCode());
        assertEquals(401, Http.post(booking() + "/booking/bookflights", null, "userid", user, "toFlightId", "x",
                "toFlightSegId", "AA1", "oneWayFlight", "true").statusCode());
        assertEquals(401, Http.post(booking() + "/booking/cancelbooking", null, "number", "x", "userid", user).statusCode());
        String other = login(TestUsers.BOOKING.email(25));
        assertEquals(403, Http.get(booking() + "/booking/byuser/" + user, other).statusCode());
        HttpResponse<String> r = Http.post(booking() + "/booking/bookflights", other, "userid", user, "toFlightId", "x",
                "toFlightSegId", "AA1", "oneWayFlight", "true");
        assertEquals(403, r.statusCode(), r.body());
        assertEquals(403, Http.post(booking() + "/booking/cancelbooking", other, "number", "x", "userid", user).statusCode());
    }
}
