package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ServiceTimeTest {

    @Test
    @DisplayName("the mean service time is the timers' microseconds over their requests in the window, in ms to the microsecond")
    void meanOfTheWindow() {
        // 12,345,678 us over 9,000 requests: 1371.742 us each, 1.372 ms
        assertEquals(1.372, ResultsConverter.serviceMs(12_345_678.0, 9_000.0));
        assertEquals(0.25, ResultsConverter.serviceMs(500.0, 2.0), "a quarter of a millisecond");
        assertNull(ResultsConverter.serviceMs(null, 10.0), "no timer counters (older runs, clusters)");
        assertNull(ResultsConverter.serviceMs(10.0, 0.0), "no requests in the window");
    }
}
