package dev.meshbench.jmeter.extractors;

import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * Post-processor of the queryFlights request: picks a flight from the response and sets the variables the
 * bookFlights request posts ({@code toFlightId}, {@code toFlightSegId}, {@code retFlightId},
 * {@code retFlightSegId}, {@code oneWayFlight}) and {@code flightFound} ({@code true}/{@code false}) for the If
 * Controller around the booking. A successful response that is not the queryflights JSON fails the sample.
 */
@TestElementMetadata(labelResource = "displayName")
public class FlightChoiceExtractor extends AbstractTestElement implements PostProcessor, TestBean {

    private static final long serialVersionUID = 1L;

    public static final String FLIGHT_FOUND = "flightFound";
    public static final String TO_FLIGHT_ID = "toFlightId";
    public static final String TO_FLIGHT_SEG_ID = "toFlightSegId";
    public static final String RET_FLIGHT_ID = "retFlightId";
    public static final String RET_FLIGHT_SEG_ID = "retFlightSegId";
    public static final String ONE_WAY_FLIGHT = "oneWayFlight";

    @Override
    public void process() {
        JMeterContext context = getThreadContext();
        JMeterVariables vars = context.getVariables();
        SampleResult previous = context.getPreviousResult();
        if (vars == null) {
            return;
        }
        publish(vars, Optional.empty());
        if (previous == null || !previous.isSuccessful()) {
            return;
        }
        try {
            publish(vars, QueryFlightsReader.choose(previous.getResponseDataAsString(), ThreadLocalRandom.current()));
        } catch (ResponseFormatException e) {
            SampleFailures.fail(previous, getName(), e.getMessage());
        }
    }

    static void publish(JMeterVariables vars, Optional<FlightChoice> choice) {
        vars.put(FLIGHT_FOUND, Boolean.toString(choice.isPresent()));
        vars.put(TO_FLIGHT_ID, choice.map(FlightChoice::toFlightId).orElse(""));
        vars.put(TO_FLIGHT_SEG_ID, choice.map(FlightChoice::toFlightSegId).orElse(""));
        vars.put(RET_FLIGHT_ID, choice.map(FlightChoice::retFlightId).orElse(""));
        vars.put(RET_FLIGHT_SEG_ID, choice.map(FlightChoice::retFlightSegId).orElse(""));
        vars.put(ONE_WAY_FLIGHT, Boolean.toString(choice.map(FlightChoice::oneWayFlight).orElse(true)));
    }
}
