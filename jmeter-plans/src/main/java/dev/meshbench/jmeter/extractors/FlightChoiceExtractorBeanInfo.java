package dev.meshbench.jmeter.extractors;

import org.apache.jmeter.testbeans.BeanInfoSupport;

/** GUI description of {@link FlightChoiceExtractor} (no settings; texts in FlightChoiceExtractorResources). */
public class FlightChoiceExtractorBeanInfo extends BeanInfoSupport {

    public FlightChoiceExtractorBeanInfo() {
        super(FlightChoiceExtractor.class);
    }
}
