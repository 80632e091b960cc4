package dev.meshbench.jmeter.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class QueryFlightsReaderTest {

    static final String ROUND_TRIP = """
            {"tripFlights":[
              {"numPages":1,"currentPage":0,"hasMoreOptions":false,"pageSize":10,"flightsOptions":[
                {"_id":"f-out-1","flightSegmentId":"AA12","scheduledDepartureTime":"2026-11-23T00:00:00Z"},
                {"_id":"f-out-2","flightSegmentId":"AA12"}]},
              {"numPages":1,"flightsOptions":[{"_id":"f-back-1","flightSegmentId":"AA13"}]}],
             "tripLegs":2}""";

    @Test
    @DisplayName("picks an outbound and a return flight of a round trip")
    void roundTrip() throws Exception {
        Set<String> outbound = new HashSet<>();
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 50; i++) {
            FlightChoice c = QueryFlightsReader.choose(ROUND_TRIP, random).orElseThrow();
            outbound.add(c.toFlightId());
            assertEquals("AA12", c.toFlightSegId());
            assertEquals("f-back-1", c.retFlightId());
            assertEquals("AA13", c.retFlightSegId());
            assertEquals(false, c.oneWayFlight());
        }
        assertEquals(Set.of("f-out-1", "f-out-2"), outbound);
    }

    @Test
    @DisplayName("books one way when only the outbound leg has flights, or the query was one way")
    void oneWay() throws Exception {
        String noReturn = """
                {"tripFlights":[{"flightsOptions":[{"_id":"f1","flightSegmentId":"AA1"}]},{"flightsOptions":[]}],"tripLegs":2}""";
        assertEquals(Optional.of(FlightChoice.oneWay("f1", "AA1")), QueryFlightsReader.choose(noReturn, new SplittableRandom()));
        String oneLeg = """
                {"tripFlights":[{"flightsOptions":[{"_id":"f1","flightSegmentId":"AA1"}]}],"tripLegs":1}""";
        assertEquals(Optional.of(FlightChoice.oneWay("f1", "AA1")), QueryFlightsReader.choose(oneLeg, new SplittableRandom()));
    }

    @Test
    @DisplayName("finds nothing when the outbound leg has no flights")
    void nothingFound() throws Exception {
        assertEquals(Optional.empty(), QueryFlightsReader.choose(
                "{\"tripFlights\":[{\"flightsOptions\":[]},{\"flightsOptions\":[]}],\"tripLegs\":2}", new SplittableRandom()));
        assertEquals(Optional.empty(), QueryFlightsReader.choose("{\"tripFlights\":[],\"tripLegs\":0}", new SplittableRandom()));
    }

    @Test
    @DisplayName("refuses bodies that are not the queryflights JSON, saying what is wrong")
    void refusesOtherBodies() {
        ResponseFormatException e = assertThrows(ResponseFormatException.class,
                () -> QueryFlightsReader.choose("<html>login</html>", new SplittableRandom()));
        assertTrue(e.getMessage().startsWith("queryflights response is not JSON"), e.getMessage());
        e = assertThrows(ResponseFormatException.class,
                () -> QueryFlightsReader.choose("{\"flights\":[]}", new SplittableRandom()));
        assertTrue(e.getMessage().startsWith("queryflights response has no tripFlights array"), e.getMessage());
        e = assertThrows(ResponseFormatException.class, () -> QueryFlightsReader.choose(
                "{\"tripFlights\":[{\"flightsOptions\":[{\"id\":\"f1\"}]}]}", new SplittableRandom()));
        assertTrue(e.getMessage().startsWith("queryflights option lacks _id or flightSegmentId"), e.getMessage());
    }
}
