package dev.meshbench.jmeter.timers;

import org.apache.jmeter.testbeans.BeanInfoSupport;

/** GUI description of {@link StepRateTimer} (no settings: it reads the {@code rate} property; texts in its Resources bundle). */
public class StepRateTimerBeanInfo extends BeanInfoSupport {

    public StepRateTimerBeanInfo() {
        super(StepRateTimer.class);
    }
}
