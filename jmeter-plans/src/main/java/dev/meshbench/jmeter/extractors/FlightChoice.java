package dev.meshbench.jmeter.extractors;

import java.util.Objects;

/**
 * The flight(s) a virtual user books after a query: the outbound flight and segment, and for a round trip the
 * return flight and segment (empty strings for a one-way booking). Field names follow the bookflights form.
 */
public record FlightChoice(String toFlightId, String toFlightSegId, String retFlightId, String retFlightSegId,
        boolean oneWayFlight) {

    public FlightChoice {
        Objects.requireNonNull(toFlightId, "toFlightId");
        Objects.requireNonNull(toFlightSegId, "toFlightSegId");
        retFlightId = Objects.requireNonNullElse(retFlightId, "");
        retFlightSegId = Objects.requireNonNullElse(retFlightSegId, "");
        if (!oneWayFlight && (retFlightId.isEmpty() || retFlightSegId.isEmpty())) {
            throw new IllegalArgumentException("a round trip needs a return flight and segment");
        }
    }

    public static FlightChoice oneWay(String flightId, String segmentId) {
        return new FlightChoice(flightId, segmentId, "", "", true);
    }

    public static FlightChoice roundTrip(String toFlightId, String toSegmentId, String retFlightId, String retSegmentId) {
        return new FlightChoice(toFlightId, toSegmentId, retFlightId, retSegmentId, false);
    }
}
