package dev.meshbench.jmeter.extractors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code GET /booking/byuser/{user}} response: a JSON array of bookings, each with its booking number in
 * {@code _id}, in the order the service lists them.
 */
public final class BookingListReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private BookingListReader() {
    }

    /** @throws ResponseFormatException when the body is not a JSON array of bookings with ids */
    public static List<String> bookingIds(String body) throws ResponseFormatException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new ResponseFormatException("byuser response is not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isArray()) {
            throw new ResponseFormatException("byuser response is not a JSON array: "
                    + QueryFlightsReader.abbreviate(String.valueOf(body)));
        }
        List<String> ids = new ArrayList<>(root.size());
        for (JsonNode booking : root) {
            String id = QueryFlightsReader.text(booking, "_id");
            if (id.isEmpty()) {
                throw new ResponseFormatException("byuser booking has no _id: "
                        + QueryFlightsReader.abbreviate(booking.toString()));
            }
            ids.add(id);
        }
        return ids;
    }

    /** The bookings to cancel so that {@code keep} remain: all but the last {@code keep} listed. */
    public static List<String> toCancel(List<String> ids, int keep) {
        if (keep < 0) {
            throw new IllegalArgumentException("keep must be 0 or more, got " + keep);
        }
        return ids.size() <= keep ? List.of() : List.copyOf(ids.subList(0, ids.size() - keep));
    }
}
