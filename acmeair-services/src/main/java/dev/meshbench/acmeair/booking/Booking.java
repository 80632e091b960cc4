package dev.meshbench.acmeair.booking;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Date;
import org.bson.Document;

/** A booking as stored and returned: {@code {_id, customerId, flightId, flightSegmentId, dateOfBooking}} (ISO-8601 UTC). */
public record Booking(@JsonProperty("_id") String id, String customerId, String flightId, String flightSegmentId,
        String dateOfBooking) {

    static Booking from(Document d) {
        Date when = d.getDate("dateOfBooking");
        return new Booking(d.getString("_id"), d.getString("customerId"), d.getString("flightId"),
                d.getString("flightSegmentId"), when == null ? null : when.toInstant().toString());
    }
}
