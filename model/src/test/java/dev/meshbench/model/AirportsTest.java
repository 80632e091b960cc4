package dev.meshbench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The lists as the services and the driver used them before they moved to one file: changing an order changes the
 * data the services generate and what the driver sends, so a change here must be deliberate.
 */
class AirportsTest {
    @Test
    @DisplayName("the kit's 30 airports, in the order the services load them and the plan draws from them")
    void kit() {
        assertEquals(List.of("JFK", "LHR", "CDG", "FRA", "NRT", "HKG", "DXB", "SFO", "AMS", "BOM", "DEL", "SIN", "SYD", "GRU",
                "YYZ", "MEX", "ORD", "LAX", "ATL", "MAD", "FCO", "ZRH", "IST", "JNB", "CAI", "ICN", "PEK", "BKK", "SVO", "EZE"),
                Airports.codes(Airports.kit()));
        assertEquals(new Airports.Airport("JFK", "New York", 40.64, -73.78), Airports.kit().get(0));
        assertEquals(new Airports.Airport("EZE", "Buenos Aires", -34.82, -58.54), Airports.kit().get(29));
    }

    @Test
    @DisplayName("the original network: mileage.csv's 14 columns then AMS; its 13 rows are the origins")
    void originalNetwork() {
        assertEquals(List.of("BOM", "DEL", "FRA", "HKG", "LHR", "YUL", "SVO", "JFK", "CDG", "FCO", "SIN", "SYD", "IKA", "NRT", "AMS"),
                Airports.codes(Airports.original()));
        assertEquals(List.of("FRA", "HKG", "LHR", "YUL", "SVO", "JFK", "CDG", "FCO", "SIN", "SYD", "IKA", "NRT", "AMS"),
                Airports.codes(Airports.originalOrigins()));
        assertEquals(new Airports.Airport("YUL", "Montreal", 45.47, -73.74), Airports.original().get(5));
        assertEquals(new Airports.Airport("IKA", "Tehran", 35.42, 51.15), Airports.original().get(12));
        assertTrue(Set.copyOf(Airports.original()).containsAll(Airports.originalOrigins()));
    }

    @Test
    @DisplayName("the original driver's lists: Airports2.csv's origins and Airports.csv's destinations, in file order")
    void driverLists() {
        assertEquals(List.of("NRT", "BOM", "DEL", "FRA", "AMS", "HKG", "LHR", "YUL", "SVO", "JFK", "CDG", "FCO", "SIN", "SYD", "IKA"),
                Airports.codes(Airports.driverFrom()));
        assertEquals(List.of("DEL", "FRA", "HKG", "LHR", "BOM", "YUL", "SVO", "JFK", "CDG", "FCO", "SIN", "SYD", "IKA", "NRT"),
                Airports.codes(Airports.driverTo()));
        assertEquals(Set.copyOf(Airports.original()), Set.copyOf(Airports.driverFrom()), "the driver's origins are the network");
        assertTrue(Set.copyOf(Airports.original().subList(0, Airports.ORIGINAL_DESTINATIONS)).containsAll(Airports.driverTo()),
                "the driver asks only for destinations the network has");
    }
}
