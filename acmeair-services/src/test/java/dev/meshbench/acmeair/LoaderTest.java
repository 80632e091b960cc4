package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.CUSTOMERS;
import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.login;
import static dev.meshbench.acmeair.AcmeairSystem.tokenFor;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.customer.CustomerGenerator;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(AcmeairSystem.class)
@DisplayName("loaders")
class LoaderTest {
    static String customer() {
        return url(ServiceName.CUSTOMER);
    }

    static String flight() {
        return url(ServiceName.FLIGHT);
    }

    static String booking() {
        return url(ServiceName.BOOKING);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/customer/loader/load", "/customer/loader/load?numCustomers=", "/customer/loader/load?numCustomers=lots",
        "/customer/loader/load?numCustomers=0", "/customer/loader/load?numCustomers=-5"})
    @DisplayName("the customer loader without a valid count answers 400 naming numCustomers and deletes nothing")
    void customerLoaderNeedsCount(String path) {
        HttpResponse<String> r = Http.get(customer() + path);
        assertEquals(400, r.statusCode(), r.body());
        String m = json(r).get("message").asText();
        assertTrue(m.startsWith("query parameter 'numCustomers'") && m.endsWith("nothing was changed"), m);
        assertEquals(Integer.toString(CUSTOMERS), Http.get(customer() + "/customer/config/countCustomers").body());
    }

    @Test
    @DisplayName("the flight loader without numDays answers 400 naming it and deletes nothing")
    void flightLoaderNeedsDays() {
        String before = Http.get(flight() + "/flight/config/countFlights").body();
        HttpResponse<String> r = Http.get(flight() + "/flight/loader/load?numAirports=5");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().startsWith("query parameter 'numDays' is required"), r.body());
        HttpResponse<String> badDate = Http.get(flight() + "/flight/loader/load?numDays=1&startDate=01/01/2030");
        assertEquals(400, badDate.statusCode(), badDate.body());
        assertTrue(json(badDate).get("message").asText().contains("'startDate'"), badDate.body());
        assertEquals(before, Http.get(flight() + "/flight/config/countFlights").body());
        assertNotEquals("0", before);
    }

    @Test
    @DisplayName("the booking loader deletes every booking with reset=true, and nothing without it")
    void bookingLoaderNeedsReset() {
        String user = TestUsers.LOADER.email(40);
        String jwt = login(user);
        var f = BookingTest.firstFlight("LHR", "JFK", AcmeairSystem.DAY1);
        assertEquals(200, Http.post(booking() + "/booking/bookflights", jwt, "userid", user, "toFlightId", f.get("_id").asText(),
                "toFlightSegId", f.get("flightSegmentId").asText(), "oneWayFlight", "true").statusCode());
        long count = Long.parseLong(Http.get(booking() + "/booking/config/countBookings").body());
        assertTrue(count >= 1);
        HttpResponse<String> r = Http.get(booking() + "/booking/loader/load");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().contains("'reset'"), r.body());
        assertEquals(Long.toString(count), Http.get(booking() + "/booking/config/countBookings").body());

        HttpResponse<String> reset = Http.get(booking() + "/booking/loader/load?reset=true");
        assertEquals(200, reset.statusCode(), reset.body());
        assertEquals(count, json(reset).get("deletedBookings").asLong());
        assertEquals("0", Http.get(booking() + "/booking/config/countBookings").body());
        assertEquals(0, json(Http.get(booking() + "/booking/byuser/" + user, jwt)).size());
    }

    @Test
    @DisplayName("loading is deterministic: the same seed gives the same customers; loading replaces the old data")
    void deterministicCustomers() {
        String user = TestUsers.LOADER_LATER.email(150);
        String first = Http.get(customer() + "/customer/byid/" + user, tokenFor(user)).body();
        // change the customer, then reload: the change is gone, the generated data is back
        Http.post(customer() + "/customer/internal/updateCustomerTotalMiles/" + user, null, "miles", "777");
        HttpResponse<String> load = Http.get(customer() + "/customer/loader/load?numCustomers=" + CUSTOMERS);
        assertEquals(200, load.statusCode(), load.body());
        assertEquals(CUSTOMERS, json(load).get("customers").asInt());
        assertEquals(first, Http.get(customer() + "/customer/byid/" + user, tokenFor(user)).body());
        assertEquals(CustomerGenerator.customer(42, 150).getString("status"),
                json(Http.get(customer() + "/customer/byid/" + user, tokenFor(user))).get("status").asText());
        assertEquals(Integer.toString(CUSTOMERS), Http.get(customer() + "/customer/config/countCustomers").body());
    }

    @Test
    @DisplayName("the flight loader makes 408 segments among 30 airports, fewer among fewer, one flight per segment and day")
    void flightLoaderCounts() {
        try {
            HttpResponse<String> small = Http.get(flight() + "/flight/loader/load?numDays=2&numAirports=5&startDate=2030-01-01");
            assertEquals(200, small.statusCode(), small.body());
            assertEquals(20, json(small).get("flightSegments").asInt(), small.body()); // 5 airports, all hubs: 5*4
            assertEquals(40, json(small).get("flights").asInt());
            assertEquals("40", Http.get(flight() + "/flight/config/countFlights").body());
        } finally {
            AcmeairSystem.reloadFlights();
        }
        assertEquals("408", Http.get(flight() + "/flight/config/countFlightSegments").body());
    }

    @Test
    @DisplayName("network=original loads the original driver's 15 airports with the original's one-way routes: 170 segments")
    void originalNetwork() {
        try {
            HttpResponse<String> r = Http.get(flight() + "/flight/loader/load?numDays=2&network=original&startDate=2030-01-01");
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(15, json(r).get("airports").asInt(), r.body());
            // 13 origins (mileage.csv rows: not BOM, DEL) to 14 destinations (its columns), minus the 12 airports that
            // are both: 13 * 14 - 12 = 170 segments, one way
            assertEquals(170, json(r).get("flightSegments").asInt(), r.body());
            assertEquals(340, json(r).get("flights").asInt(), r.body());
            HttpResponse<String> back = Http.post(flight() + "/flight/queryflights", null, "fromAirport", "IKA", "toAirport", "AMS",
                    "fromDate", "2030-01-02", "oneWay", "true");
            assertEquals(0, json(back).get("tripFlights").get(0).get("flightsOptions").size(), "AMS is an origin only: " + back.body());
            HttpResponse<String> q = Http.post(flight() + "/flight/queryflights", null, "fromAirport", "AMS", "toAirport", "IKA",
                    "fromDate", "2030-01-02", "oneWay", "true");
            assertEquals(1, json(q).get("tripFlights").get(0).get("flightsOptions").size(), q.body());
            HttpResponse<String> bad = Http.get(flight() + "/flight/loader/load?numDays=2&network=original&numAirports=5");
            assertEquals(400, bad.statusCode(), bad.body());
            assertTrue(json(bad).get("message").asText().contains("'numAirports'"), bad.body());
            HttpResponse<String> unknown = Http.get(flight() + "/flight/loader/load?numDays=2&network=mine");
            assertEquals(400, unknown.statusCode(), unknown.body());
            assertTrue(json(unknown).get("message").asText().contains("'network'"), unknown.body());
            assertEquals("340", Http.get(flight() + "/flight/config/countFlights").body(), "a refused load changes nothing");
        } finally {
            AcmeairSystem.reloadFlights();
        }
    }
}
