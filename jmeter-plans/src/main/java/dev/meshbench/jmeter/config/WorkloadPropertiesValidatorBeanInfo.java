package dev.meshbench.jmeter.config;

import org.apache.jmeter.testbeans.BeanInfoSupport;

/** GUI description of {@link WorkloadPropertiesValidator} (no settings; texts in its Resources bundle). */
public class WorkloadPropertiesValidatorBeanInfo extends BeanInfoSupport {

    public WorkloadPropertiesValidatorBeanInfo() {
        super(WorkloadPropertiesValidator.class);
    }
}
