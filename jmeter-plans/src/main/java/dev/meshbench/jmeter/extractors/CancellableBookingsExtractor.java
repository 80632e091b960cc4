package dev.meshbench.jmeter.extractors;

import java.util.List;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * Post-processor of the listBookings request: sets {@code <variableName>_1..n} to the booking numbers to cancel so
 * that {@code keep} bookings remain, and {@code <variableName>_matchNr} to n, for a ForEach Controller. Variables
 * left from a longer earlier list are removed. A successful response that is not the byuser JSON fails the sample.
 */
@TestElementMetadata(labelResource = "displayName")
public class CancellableBookingsExtractor extends AbstractTestElement implements PostProcessor, TestBean {

    private static final long serialVersionUID = 1L;

    public static final String DEFAULT_VARIABLE = "cancel";
    public static final int DEFAULT_KEEP = 2;

    private String variableName = DEFAULT_VARIABLE;
    private int keep = DEFAULT_KEEP;

    @Override
    public void process() {
        JMeterContext context = getThreadContext();
        JMeterVariables vars = context.getVariables();
        SampleResult previous = context.getPreviousResult();
        if (vars == null) {
            return;
        }
        String name = variableName == null || variableName.isBlank() ? DEFAULT_VARIABLE : variableName.trim();
        List<String> cancel = List.of();
        if (previous != null && previous.isSuccessful()) {
            try {
                cancel = BookingListReader.toCancel(BookingListReader.bookingIds(previous.getResponseDataAsString()),
                        Math.max(keep, 0));
            } catch (ResponseFormatException e) {
                SampleFailures.fail(previous, getName(), e.getMessage());
            }
        }
        publish(vars, name, cancel);
    }

    static void publish(JMeterVariables vars, String name, List<String> ids) {
        int old = parseCount(vars.get(name + "_matchNr"));
        for (int i = 0; i < ids.size(); i++) {
            vars.put(name + "_" + (i + 1), ids.get(i));
        }
        for (int i = ids.size() + 1; i <= old; i++) {
            vars.remove(name + "_" + i);
        }
        vars.put(name + "_matchNr", Integer.toString(ids.size()));
    }

    private static int parseCount(String value) {
        try {
            return value == null ? 0 : Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    public String getVariableName() {
        return variableName;
    }

    public void setVariableName(String variableName) {
        this.variableName = variableName;
    }

    public int getKeep() {
        return keep;
    }

    public void setKeep(int keep) {
        this.keep = keep;
    }
}
