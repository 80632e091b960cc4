package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.DAY1;
import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.login;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.ServiceName;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AcmeairSystem.class)
@DisplayName("booking count endpoint")
class BookingCountTest {
    private static String countUrl(String user) {
        return url(ServiceName.BOOKING) + "/booking/byuser/" + user + "/count";
    }

    private static long count(String user, String jwt) {
        HttpResponse<String> r = Http.get(countUrl(user), jwt);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode body = json(r);
        assertEquals(user, body.get("customerId").asText());
        assertEquals(2, body.size(), "customerId and bookings only: " + body);
        return body.get("bookings").asLong();
    }

    private static String book(String user, String jwt) {
        JsonNode f = BookingTest.firstFlight("JFK", "NRT", DAY1);
        HttpResponse<String> r = Http.post(url(ServiceName.BOOKING) + "/booking/bookflights", jwt, "userid", user,
                "toFlightId", f.get("_id").asText(), "toFlightSegId", f.get("flightSegmentId").asText(), "oneWayFlight", "true");
        assertEquals(200, r.statusCode(), r.body());
        return json(r).get("departBookingId").asText();
    }

    @Test
    @DisplayName("counts the user's bookings, as many as the list has, after booking and cancelling")
    void countsTheUsersBookings() {
        String user = TestUsers.BOOKING_COUNT.email(80);
        String jwt = login(user);
        assertEquals(0, count(user, jwt));
        String first = book(user, jwt);
        book(user, jwt);
        assertEquals(2, count(user, jwt));
        assertEquals(2, json(Http.get(url(ServiceName.BOOKING) + "/booking/byuser/" + user, jwt)).size());
        assertEquals(200, Http.post(url(ServiceName.BOOKING) + "/booking/cancelbooking", jwt, "number", first,
                "userid", user).statusCode());
        assertEquals(1, count(user, jwt));
        assertEquals(0, count(TestUsers.BOOKING_COUNT.email(81), login(TestUsers.BOOKING_COUNT.email(81))),
                "another user's bookings are not counted");
    }

    @Test
    @DisplayName("no token 401, another user's token 403")
    void needsTheUsersToken() {
        String user = TestUsers.BOOKING_COUNT.email(82);
        assertEquals(401, Http.get(countUrl(user)).statusCode());
        HttpResponse<String> other = Http.get(countUrl(user), login(TestUsers.BOOKING_COUNT.email(81)));
        assertEquals(403, other.statusCode(), other.body());
    }

    @Test
    @DisplayName("is timed under its own route in the booking service's metrics")
    void hasItsOwnRouteTimer() {
        String user = TestUsers.BOOKING_COUNT.email(82);
        count(user, login(user));
        String m = Http.get(url(ServiceName.BOOKING) + "/metrics").body();
        assertTrue(MetricsTest.hasSample(m, "http_server_requests_seconds_count", "uri=\"/booking/byuser/{user}/count\"",
                "method=\"GET\"", "status=\"200\""), m);
    }
}
