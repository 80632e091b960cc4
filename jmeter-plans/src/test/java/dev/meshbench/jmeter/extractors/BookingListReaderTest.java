package dev.meshbench.jmeter.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BookingListReaderTest {

    @Test
    @DisplayName("reads booking numbers in the order listed")
    void readsIds() throws Exception {
        assertEquals(List.of("b1", "b2", "b3"), BookingListReader.bookingIds("""
                [{"_id":"b1","customerId":"uid1@email.com","flightId":"f","flightSegmentId":"AA1"},
                 {"_id":"b2"},{"_id":"b3"}]"""));
        assertEquals(List.of(), BookingListReader.bookingIds("[]"));
    }

    @Test
    @DisplayName("cancels all but the last two bookings")
    void cancelsDownToTwo() {
        assertEquals(List.of("b1", "b2"), BookingListReader.toCancel(List.of("b1", "b2", "b3", "b4"), 2));
        assertEquals(List.of(), BookingListReader.toCancel(List.of("b1", "b2"), 2));
        assertEquals(List.of(), BookingListReader.toCancel(List.of(), 2));
    }

    @Test
    @DisplayName("refuses a body that is not an array of bookings with ids")
    void refusesOtherBodies() {
        assertThrows(ResponseFormatException.class, () -> BookingListReader.bookingIds("{\"bookings\":[]}"));
        assertThrows(ResponseFormatException.class, () -> BookingListReader.bookingIds("[{\"number\":\"b1\"}]"));
        assertThrows(ResponseFormatException.class, () -> BookingListReader.bookingIds("not json"));
    }
}
