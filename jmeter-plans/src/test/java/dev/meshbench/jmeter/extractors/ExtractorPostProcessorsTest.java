package dev.meshbench.jmeter.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.jmeter.JMeterTestEnvironment;
import java.nio.charset.StandardCharsets;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The two post-processors run as JMeter runs them: after a sample, on the thread's context. */
class ExtractorPostProcessorsTest {

    private JMeterContext context;
    private JMeterVariables vars;

    @BeforeEach
    void freshThread() {
        context = JMeterTestEnvironment.freshContext();
        vars = context.getVariables();
    }

    private SampleResult sampled(String body, boolean success) {
        SampleResult result = new SampleResult();
        result.setResponseData(body, StandardCharsets.UTF_8.name());
        result.setSuccessful(success);
        result.setResponseCode(success ? "200" : "500");
        context.setPreviousResult(result);
        return result;
    }

    @Test
    @DisplayName("sets the bookflights variables from a queryflights response")
    void flightChoice() {
        sampled(QueryFlightsReaderTest.ROUND_TRIP, true);
        new FlightChoiceExtractor().process();
        assertEquals("true", vars.get("flightFound"));
        assertTrue(vars.get("toFlightId").startsWith("f-out-"));
        assertEquals("AA12", vars.get("toFlightSegId"));
        assertEquals("f-back-1", vars.get("retFlightId"));
        assertEquals("AA13", vars.get("retFlightSegId"));
        assertEquals("false", vars.get("oneWayFlight"));
    }

    @Test
    @DisplayName("clears the previous choice when a later query finds nothing or fails")
    void clearsStaleChoice() {
        sampled(QueryFlightsReaderTest.ROUND_TRIP, true);
        new FlightChoiceExtractor().process();
        sampled("{\"tripFlights\":[{\"flightsOptions\":[]}],\"tripLegs\":1}", true);
        new FlightChoiceExtractor().process();
        assertEquals("false", vars.get("flightFound"));
        assertEquals("", vars.get("toFlightId"));
        sampled(QueryFlightsReaderTest.ROUND_TRIP, true);
        new FlightChoiceExtractor().process();
        sampled("oops", false);
        new FlightChoiceExtractor().process();
        assertEquals("false", vars.get("flightFound"));
    }

    @Test
    @DisplayName("fails a successful queryFlights sample whose body is not the expected JSON, saying why")
    void failsUnexpectedBody() {
        SampleResult result = sampled("<html>maintenance</html>", true);
        FlightChoiceExtractor extractor = new FlightChoiceExtractor();
        extractor.setName("flight choice");
        extractor.process();
        assertFalse(result.isSuccessful());
        assertEquals(1, result.getAssertionResults().length);
        assertTrue(result.getAssertionResults()[0].getFailureMessage().startsWith("queryflights response is not JSON"));
        assertEquals("false", vars.get("flightFound"));
    }

    @Test
    @DisplayName("lists bookings to cancel for the ForEach controller and removes leftovers of a longer list")
    void bookingsToCancel() {
        sampled("[{\"_id\":\"b1\"},{\"_id\":\"b2\"},{\"_id\":\"b3\"},{\"_id\":\"b4\"},{\"_id\":\"b5\"}]", true);
        CancellableBookingsExtractor extractor = new CancellableBookingsExtractor();
        extractor.process();
        assertEquals("3", vars.get("cancel_matchNr"));
        assertEquals("b1", vars.get("cancel_1"));
        assertEquals("b3", vars.get("cancel_3"));
        assertNull(vars.get("cancel_4"));

        sampled("[{\"_id\":\"b4\"},{\"_id\":\"b5\"},{\"_id\":\"b6\"}]", true);
        extractor.process();
        assertEquals("1", vars.get("cancel_matchNr"));
        assertEquals("b4", vars.get("cancel_1"));
        assertNull(vars.get("cancel_2"));
        assertNull(vars.get("cancel_3"));
    }

    @Test
    @DisplayName("honours its keep and variable name settings")
    void settings() {
        sampled("[{\"_id\":\"b1\"},{\"_id\":\"b2\"},{\"_id\":\"b3\"}]", true);
        CancellableBookingsExtractor extractor = new CancellableBookingsExtractor();
        extractor.setKeep(0);
        extractor.setVariableName("doomed");
        extractor.process();
        assertEquals("3", vars.get("doomed_matchNr"));
        assertEquals("b3", vars.get("doomed_3"));
    }

    @Test
    @DisplayName("cancels nothing after a failed listBookings, and fails a body that is not a booking list")
    void nothingAfterFailure() {
        sampled("[{\"_id\":\"b1\"},{\"_id\":\"b2\"},{\"_id\":\"b3\"}]", true);
        new CancellableBookingsExtractor().process();
        sampled("[{\"_id\":\"b1\"},{\"_id\":\"b2\"},{\"_id\":\"b3\"}]", false);
        new CancellableBookingsExtractor().process();
        assertEquals("0", vars.get("cancel_matchNr"));
        assertNull(vars.get("cancel_1"));
        SampleResult bad = sampled("{\"error\":\"x\"}", true);
        new CancellableBookingsExtractor().process();
        assertFalse(bad.isSuccessful());
        assertEquals("0", vars.get("cancel_matchNr"));
    }
}
