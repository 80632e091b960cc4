package dev.meshbench.jmeter.extractors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Reads a {@code POST /flight/queryflights} response, Acmeair's shape:
 * {@code {"tripLegs":2,"tripFlights":[{"flightsOptions":[{"_id":..,"flightSegmentId":..},..], ..}, {..return..}]}},
 * and picks one outbound option (and one return option for a round trip) at random.
 */
public final class QueryFlightsReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private QueryFlightsReader() {
    }

    /**
     * The flight(s) to book, or empty when no outbound flight was found. A round trip without a return option is
     * booked one way.
     *
     * @throws ResponseFormatException when the body is not the queryflights JSON
     */
    public static Optional<FlightChoice> choose(String body, RandomGenerator random) throws ResponseFormatException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new ResponseFormatException("queryflights response is not JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode trips = root == null ? null : root.get("tripFlights");
        if (trips == null || !trips.isArray()) {
            throw new ResponseFormatException("queryflights response has no tripFlights array: " + abbreviate(body));
        }
        if (trips.isEmpty()) {
            return Optional.empty();
        }
        Optional<String[]> outbound = pick(trips.get(0), random);
        if (outbound.isEmpty()) {
            return Optional.empty();
        }
        String[] to = outbound.get();
        if (trips.size() < 2) {
            return Optional.of(FlightChoice.oneWay(to[0], to[1]));
        }
        Optional<String[]> back = pick(trips.get(1), random);
        if (back.isEmpty()) {
            return Optional.of(FlightChoice.oneWay(to[0], to[1]));
        }
        return Optional.of(FlightChoice.roundTrip(to[0], to[1], back.get()[0], back.get()[1]));
    }

    private static Optional<String[]> pick(JsonNode trip, RandomGenerator random) throws ResponseFormatException {
        JsonNode options = trip.get("flightsOptions");
        if (options == null || !options.isArray()) {
            throw new ResponseFormatException("queryflights trip has no flightsOptions array: " + abbreviate(trip.toString()));
        }
        if (options.isEmpty()) {
            return Optional.empty();
        }
        JsonNode flight = options.get(random.nextInt(options.size()));
        String id = text(flight, "_id");
        String segment = text(flight, "flightSegmentId");
        if (id.isEmpty() || segment.isEmpty()) {
            throw new ResponseFormatException("queryflights option lacks _id or flightSegmentId: "
                    + abbreviate(flight.toString()));
        }
        return Optional.of(new String[] {id, segment});
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() || v.isContainerNode() ? "" : v.asText();
    }

    static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
