package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.DAY1;
import static dev.meshbench.acmeair.AcmeairSystem.DAY2;
import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.flight.Airport;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(AcmeairSystem.class)
@DisplayName("flight service")
class FlightTest {
    static String flight() {
        return url(ServiceName.FLIGHT);
    }

    static HttpResponse<String> query(String... form) {
        return Http.post(flight() + "/flight/queryflights", null, form);
    }

    @Test
    @DisplayName("a round trip query answers one leg each way, on the asked UTC days, with ISO-8601 times")
    void roundTrip() {
        HttpResponse<String> r = query("fromAirport", "JFK", "toAirport", "LHR", "fromDate", DAY1, "returnDate", DAY2, "oneWay", "false");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode body = json(r);
        assertEquals(2, body.get("tripLegs").asInt());
        JsonNode out = body.get("tripFlights").get(0).get("flightsOptions").get(0);
        JsonNode back = body.get("tripFlights").get(1).get("flightsOptions").get(0);
        assertEquals("JFK", out.get("flightSegment").get("originPort").asText());
        assertEquals("LHR", out.get("flightSegment").get("destPort").asText());
        assertEquals("LHR", back.get("flightSegment").get("originPort").asText());
        assertTrue(out.get("scheduledDepartureTime").asText().startsWith(DAY1 + "T"), out.toString());
        assertTrue(back.get("scheduledDepartureTime").asText().startsWith(DAY2 + "T"), back.toString());
        assertTrue(out.get("scheduledDepartureTime").asText().endsWith("Z"));
        Instant dep = Instant.parse(out.get("scheduledDepartureTime").asText());
        assertTrue(Instant.parse(out.get("scheduledArrivalTime").asText()).isAfter(dep));
        assertEquals(out.get("flightSegmentId").asText(), out.get("flightSegment").get("_id").asText());
        assertTrue(out.get("_id").asText().startsWith(out.get("flightSegmentId").asText() + "-"), out.toString());
    }

    @Test
    @DisplayName("a date-time with an offset means the UTC day of that instant")
    void offsetDateTimeMeansUtcDay() {
        // 2030-01-02T01:00+05:00 is 2030-01-01T20:00Z: the flights of January 1st
        HttpResponse<String> r = query("fromAirport", "CDG", "toAirport", "JFK", "fromDate", "2030-01-02T01:00:00+05:00", "oneWay", "true");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode leg = json(r).get("tripFlights").get(0);
        assertEquals(1, leg.get("flightsOptions").size(), r.body());
        assertTrue(leg.get("flightsOptions").get(0).get("scheduledDepartureTime").asText().startsWith(DAY1));
    }

    @Test
    @DisplayName("a route without a segment, or a day without flights, answers empty options")
    void noFlightsIsEmpty() {
        // both are spokes: no segment between them
        JsonNode spokes = json(query("fromAirport", "AMS", "toAirport", "BOM", "fromDate", DAY1, "oneWay", "true"));
        assertEquals(0, spokes.get("tripFlights").get(0).get("flightsOptions").size());
        JsonNode later = json(query("fromAirport", "JFK", "toAirport", "LHR", "fromDate", "2031-06-01", "oneWay", "true"));
        assertEquals(0, later.get("tripFlights").get(0).get("flightsOptions").size());
    }

    @ParameterizedTest(name = "{0}={1} -> 400")
    @CsvSource({
        "fromDate, 01/02/2030",
        "fromDate, 2030-13-01",
        "fromDate, Sat Jan 01 00:00:00 UTC 2030",
        "fromAirport, jfk",
        "oneWay, maybe",
    })
    @DisplayName("a malformed field answers 400 naming it")
    void malformedFieldIs400(String field, String value) {
        java.util.Map<String, String> form = new java.util.LinkedHashMap<>();
        form.put("fromAirport", "JFK");
        form.put("toAirport", "LHR");
        form.put("fromDate", DAY1);
        form.put("oneWay", "true");
        form.put(field, value);
        String[] kv = form.entrySet().stream().flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue())).toArray(String[]::new);
        HttpResponse<String> r = query(kv);
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().startsWith("field '" + field + "' is '" + value + "'"), r.body());
    }

    @Test
    @DisplayName("a round trip without returnDate answers 400 naming returnDate")
    void missingReturnDate() {
        HttpResponse<String> r = query("fromAirport", "JFK", "toAirport", "LHR", "fromDate", DAY1, "oneWay", "false");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().startsWith("field 'returnDate' is required"), r.body());
    }

    @Test
    @DisplayName("reward miles are the segment's great-circle miles; an unknown segment answers 404")
    void rewardMiles() {
        JsonNode seg = json(query("fromAirport", "JFK", "toAirport", "LHR", "fromDate", DAY1, "oneWay", "true"))
                .get("tripFlights").get(0).get("flightsOptions").get(0).get("flightSegment");
        HttpResponse<String> r = Http.post(flight() + "/flight/getrewardmiles", null, "flightSegment", seg.get("_id").asText());
        assertEquals(200, r.statusCode(), r.body());
        long miles = json(r).get("miles").asLong();
        assertEquals(seg.get("miles").asLong(), miles);
        assertEquals(Airport.ALL.get(0).milesTo(Airport.ALL.get(1)), miles);
        assertTrue(miles > 3400 && miles < 3500, "JFK-LHR is about 3450 miles, got " + miles);

        HttpResponse<String> unknown = Http.post(flight() + "/flight/getrewardmiles", null, "flightSegment", "AA99999");
        assertEquals(404, unknown.statusCode(), unknown.body());
        assertTrue(json(unknown).get("message").asText().contains("AA99999"), unknown.body());
    }

    @Test
    @DisplayName("counts airports, segments and flights")
    void counts() {
        assertEquals("30", Http.get(flight() + "/flight/config/countAirports").body());
        assertEquals("408", Http.get(flight() + "/flight/config/countFlightSegments").body());
        assertEquals("1224", Http.get(flight() + "/flight/config/countFlights").body());
    }
}
