package dev.meshbench.jmeter.extractors;

import java.beans.PropertyDescriptor;
import org.apache.jmeter.testbeans.BeanInfoSupport;

/** GUI description of {@link CancellableBookingsExtractor} (texts in CancellableBookingsExtractorResources). */
public class CancellableBookingsExtractorBeanInfo extends BeanInfoSupport {

    public CancellableBookingsExtractorBeanInfo() {
        super(CancellableBookingsExtractor.class);
        createPropertyGroup("bookings", new String[] {"variableName", "keep"});
        PropertyDescriptor p = property("variableName");
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, CancellableBookingsExtractor.DEFAULT_VARIABLE);
        p = property("keep");
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, CancellableBookingsExtractor.DEFAULT_KEEP);
    }
}
